// A conversation with versions (alternatives made by editing or regenerating a turn) is not
// exported as one path chosen in silence: exportThread refuses it, naming the versions, unless
// `path` says which path — 'active', what the reader sees, or 'thread', the conversation's own
// rows. An 'active' export imports as a thread that reads what the user saw. On every dialect.
import { afterAll, describe, expect, it } from 'vitest';
import type { ChunkRow } from '../../src/schema/index.js';
import type { ChunkStore } from '../../src/store/index.js';
import { exportThread, importThread } from '../../src/transfer/index.js';
import { availableDialects, type DialectHarness } from '../store/support/dialects.js';
import { openThreeTurnChat, qa } from '../store/support/three-turn-chat.js';
import { rejected, thrown } from '../support/chunklog-error.js';
import { collect } from './support.js';

const available = await availableDialects();
const harnesses: DialectHarness[] = [];
afterAll(async () => {
  for (const harness of harnesses) await harness.dispose();
});

const texts = (rows: readonly ChunkRow[]) =>
  rows.map((r) => `${r.seq} ${r.turnId}:${(r.data as { text: string }).text}`);

const body = (text: string) => text.split('\n').slice(1).join('\n');

describe.each(['sqlite', 'postgres', 'mysql'] as const)('export of versions on %s', (name) => {
  const open = () => openThreeTurnChat(name, harnesses, 'Trip');

  it.skipIf(!available.includes(name))(
    'refuses a conversation with versions, naming them and how to choose; exports as before without',
    async () => {
      const store = await open();
      const before = await collect(exportThread(store, 'chat'));
      await store.addAlternative('chat', { turnId: 't2', newThreadId: 'edit-1' });
      await store.appendTurn('edit-1', qa('t2b', 'two, edited'));
      await store.addAlternative('chat', { turnId: 't2b', newThreadId: 'regen-1' });
      await store.appendTurn('regen-1', qa('t2c', 'two, edited', 'a second answer'));

      const refused = await rejected(collect(exportThread(store, 'chat')));
      expect(refused).toMatchObject({
        code: 'invalid-option',
        option: 'path',
        threadId: 'chat',
        value: ['edit-1', 'regen-1'],
      });
      expect(refused.message).toContain('"edit-1"');
      expect(refused.message).toContain('the active path is "regen-1"');
      expect(refused.message).toContain("path: 'active'");
      expect(refused.message).toContain("path: 'thread'");

      // The conversation's own rows, as before the versions were made.
      expect(body(await collect(exportThread(store, 'chat', { path: 'thread' })))).toBe(
        body(before),
      );
      // Switched back to its own path, the conversation still has versions: still refused.
      await store.switchAlternative('chat', 'chat');
      expect((await rejected(collect(exportThread(store, 'chat')))).message).toContain(
        'the active path is its own',
      );

      // A conversation without versions: the same bytes with either path, or none.
      await store.appendTurn('plain', qa('p1', 'hello'));
      const plain = await collect(exportThread(store, 'plain'));
      expect(await collect(exportThread(store, 'plain', { path: 'active' }))).toBe(plain);
      expect(await collect(exportThread(store, 'plain', { path: 'thread' }))).toBe(plain);
    },
  );

  it.skipIf(!available.includes(name))(
    'refuses a conversation whose versions the active path does not reach, naming every one',
    async () => {
      const store = await open();
      // v regenerates t3; back on its own path, the conversation is cut before t3: its path has
      // no branch point left, and v is listed only in getAlternatives' versions.
      await store.addAlternative('chat', { turnId: 't3', newThreadId: 'v' });
      await store.appendTurn('v', qa('t3b', 'three, again'));
      await store.switchAlternative('chat', 'chat');
      await store.truncateAfter('chat', 4);
      expect((await store.getAlternatives('chat')).branches).toEqual([]);
      const refused = await rejected(collect(exportThread(store, 'chat')));
      expect(refused).toMatchObject({ code: 'invalid-option', option: 'path', value: ['v'] });
      expect(refused.message).toContain('("v"; the active path is its own)');

      // B edits t2, C regenerates B's t3; on the conversation's own path, which branches at t2
      // only, C is named too.
      await store.addAlternative('chat', { turnId: 't2', newThreadId: 'B' });
      await store.appendTurn('B', qa('t2b', 'two b'));
      await store.appendTurn('B', qa('t3b', 'three b'));
      await store.addAlternative('chat', { turnId: 't3b', newThreadId: 'C' });
      await store.appendTurn('C', qa('t3c', 'three c'));
      await store.switchAlternative('chat', 'chat');
      expect(await rejected(collect(exportThread(store, 'chat')))).toMatchObject({
        value: ['v', 'B', 'C'],
      });
    },
  );

  it.skipIf(!available.includes(name))(
    "exports the path the reader sees with path: 'active', and imports it as a thread that reads the same",
    async () => {
      const store = await open();
      await store.addAlternative('chat', { turnId: 't3', newThreadId: 'v2' });
      await store.appendTurn('v2', qa('t3b', 'three, edited'));
      await store.appendTurn('v2', qa('t4', 'four'));
      const seen = await store.getRows(await store.activePath('chat'));
      expect(texts(seen)).toEqual([
        '1 t1:one',
        '2 t1:answer to one',
        '3 t2:two',
        '4 t2:answer to two',
        '5 t3b:three, edited',
        '6 t3b:answer to three, edited',
        '7 t4:four',
        '8 t4:answer to four',
      ]);
      const text = await collect(exportThread(store, 'chat', { path: 'active' }));
      const header = JSON.parse(text.split('\n')[0] as string);
      expect(header.thread).toMatchObject({ id: 'chat', title: 'Trip', total: 8 });
      expect(text.trimEnd().split('\n').at(-1)).toBe('{"kind":"end","turns":4,"rows":8}');

      const result = await importThread(store, text, { threadId: 'copy' });
      expect(result).toMatchObject({ turns: 4, rows: 8, sameSeqs: true });
      const copy = await store.getRows('copy');
      expect(texts(copy)).toEqual(texts(seen));
      expect(copy.map(({ threadId: _t, createdAt: _c, ...row }) => row)).toEqual(
        seen.map(({ threadId: _t, createdAt: _c, ...row }) => row),
      );
      expect((await store.getThread('copy')).title).toBe('Trip');
      // A version exported by its own id is its path, as ever.
      expect(body(await collect(exportThread(store, 'v2')))).toBe(body(text));
    },
  );
});

describe('exportThread path option', () => {
  it('names a value it does not know', () => {
    const store = {
      getThread: async () => {
        throw new Error('not read');
      },
      getChunksAfter: async () => {
        throw new Error('not read');
      },
      getTurnUsage: async () => null,
      getAlternatives: async () => {
        throw new Error('not read');
      },
    } as unknown as ChunkStore;
    const error = thrown(() => exportThread(store, 'chat', { path: 'all' as unknown as 'active' }));
    expect(error).toMatchObject({ code: 'invalid-option', option: 'path', value: 'all' });
    expect(error.message).toBe("exportThread: `path` must be 'active' or 'thread'");
  });
});
