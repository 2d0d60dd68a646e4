// Input the store used to take, or to fail on with a raw RangeError: JSON nested deeper than
// MAX_JSON_DEPTH (metadata, row data) and a title with a lone surrogate (read back as U+FFFD).
// Each is refused with a typed error naming what was wrong, before anything is written. The
// checks run before the database is touched, so one dialect (SQLite) covers them.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH } from '../../src/schema/index.js';
import { type ChunkStore, createChunkStore } from '../../src/store/index.js';
import { textDrafts } from '../../src/testing/index.js';
import { rejected } from '../support/chunklog-error.js';

/** `levels` objects nested in one another: `{ a: { a: … 1 } }`. */
function nested(levels: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < levels; i++) value = { a: value };
  return value;
}

/** A tool call row whose input nests `levels` deep. */
function deepCall(turnId: string, levels: number) {
  return [
    {
      turnId,
      step: 0,
      role: 'assistant' as const,
      type: 'tool_call' as const,
      data: { id: 'c', name: 'read', index: 0, input: nested(levels) as never },
    },
  ];
}

describe('store input limits', () => {
  let store: ChunkStore;
  beforeEach(async () => {
    store = createChunkStore({ sqlite: ':memory:' });
    await store.migrate();
  });
  afterEach(async () => {
    await store.close();
  });

  it('refuses metadata nested deeper than MAX_JSON_DEPTH, in createThread and updateThread', async () => {
    for (const levels of [MAX_JSON_DEPTH + 1, 5000, 50_000]) {
      const created = await rejected(
        store.createThread('deep', { metadata: { x: nested(levels) } as never }),
      );
      expect(created.code).toBe('invalid-option');
      expect(created.option).toBe('metadata');
      expect(String(created.cause)).toContain('nested deeper than 256 arrays and objects');
    }
    const thread = await store.createThread('t', { metadata: { x: 1 } });
    const updated = await rejected(
      store.updateThread(thread.id, { metadata: { x: nested(5000) } as never }),
    );
    expect(updated.code).toBe('invalid-option');
    expect(updated.option).toBe('metadata');
    expect((await store.listThreads()).threads.map((t) => t.id)).toStrictEqual(['t']);
    expect((await store.getThread('t')).metadata).toStrictEqual({ x: 1 });
  });

  it('keeps metadata and row data of exactly MAX_JSON_DEPTH levels', async () => {
    const metadata = { x: nested(MAX_JSON_DEPTH) } as never;
    await store.createThread('t', { metadata });
    expect((await store.getThread('t')).metadata).toStrictEqual(metadata);
    await store.appendTurn('t', deepCall('u1', MAX_JSON_DEPTH));
    const [row] = (await store.getChunks('t', { limit: 5 })).chunks;
    expect(row?.data).toStrictEqual(deepCall('u1', MAX_JSON_DEPTH)[0]?.data);
  });

  it('refuses row data nested deeper as invalid-row naming the draft and the path', async () => {
    await store.appendTurn('t', textDrafts('u1', 1));
    for (const levels of [MAX_JSON_DEPTH + 1, 5000, 50_000]) {
      const error = await rejected(store.appendTurn('t', deepCall('u2', levels)));
      expect(error.code).toBe('invalid-row');
      expect(error.path?.slice(0, 4)).toStrictEqual([0, 'data', 'input', 'a']);
      expect(error.message).toContain('Draft 0');
      expect(error.message).toContain('data.input.a.a');
      expect(error.message).toContain('nested deeper than 256 arrays and objects');
    }
    expect((await store.getThread('t')).total).toBe(1);
  });

  it('refuses a title or an owner id with a lone surrogate, as it refuses such ids', async () => {
    for (const bad of ['\uD800', 'a\uDC00b', 'end\uD83D']) {
      const title = await rejected(store.createThread(undefined, { title: bad }));
      expect(title.code).toBe('invalid-option');
      expect(title.option).toBe('title');
      expect(title.message).toContain('lone surrogates');
      const owner = await rejected(store.createThread(undefined, { ownerId: bad }));
      expect(owner.code).toBe('invalid-option');
      expect(owner.option).toBe('ownerId');
    }
    const thread = await store.createThread('t', { title: 'Trip 🏖️ to Lisbon' });
    const update = await rejected(store.updateThread(thread.id, { title: 'x\uD800' }));
    expect(update.option).toBe('title');
    expect((await store.getThread('t')).title).toBe('Trip 🏖️ to Lisbon');
    expect((await store.listThreads()).threads).toHaveLength(1);
  });
});
