// Key rotation beside the writes that change or delete rows and threads (notes/0098): a batch
// held half way (its rows read, the old key being fetched) while `truncateAfter` and a new turn,
// `expire` or `eraseThread` and a new first write run; and two first writes that raced to make
// the thread's key. Each case holds the rotation at the same point on every run: the writer
// either finishes meanwhile (the code before the fix) or is seen waiting for the thread's lock.
import { afterAll, describe, expect, it } from 'vitest';
import type { ChunkRowDraft } from '../../src/schema/index.js';
import { type ChunkStore, createMemoryKeyProvider } from '../../src/store/index.js';
import { availableDialects, createHarness, type DialectHarness } from './support/dialects.js';
import { heldKeys } from './support/held-keys.js';
import { settledOrWaiting } from './support/lock-waits.js';

const available = await availableDialects();
const harnesses: DialectHarness[] = [];
afterAll(async () => {
  for (const h of harnesses) await h.dispose();
});

function turn(turnId: string, text: string): ChunkRowDraft[] {
  return [
    { turnId, step: 0, role: 'user', type: 'text', data: { text } },
    { turnId, step: 0, role: 'assistant', type: 'text', data: { text: `answer to ${text}` } },
  ];
}

async function texts(store: ChunkStore, threadId: string): Promise<string[]> {
  return (await store.getRows(threadId)).map(
    (r) => `${r.turnId}:${(r.data as { text?: string }).text ?? r.type}`,
  );
}

// SQLite's writers, the rotation's batches included, take the database's one write lock
// (BEGIN IMMEDIATE) for their whole transaction; the race needs row locks.
const rowLocking = (['postgres', 'mysql'] as const).filter((name) => available.includes(name));

describe.each(rowLocking)('a key rotation on %s', (name) => {
  function open() {
    const harness = createHarness(name);
    harnesses.push(harness);
    const keys = createMemoryKeyProvider();
    const held = heldKeys(keys, 'version');
    const store = harness.openStore({ encryption: { keys: held.provider } });
    return { harness, keys, held, store };
  }

  it('never writes a truncated row back over the turn appended in its place', async () => {
    const { harness, held, store } = open();
    await store.migrate();
    await store.appendTurn('T', turn('t1', 'hello'));
    await store.appendTurn('T', turn('t2', 'DELETE ME: my old secret'));
    const batch = held.hold();
    const rotation = store.rotateThreadKey('T');
    await batch.fetched;
    const writer = (async () => {
      await store.truncateAfter('T', 2);
      await store.appendTurn('T', turn('t3', 'a new question'));
    })();
    await settledOrWaiting(harness, writer, { forUpdateOnly: true });
    batch.release();
    await rotation;
    await writer;
    expect(await texts(store, 'T')).toEqual([
      't1:hello',
      't1:answer to hello',
      't3:a new question',
      't3:answer to a new question',
    ]);
    await store.close();
  });

  it('never writes an expired row back over the sentinel that replaced it', async () => {
    const { harness, held, store } = open();
    await store.migrate();
    await store.appendTurn('T', turn('t1', 'OLD SECRET'), { createdAt: '2020-01-01T00:00:00Z' });
    await store.appendTurn('T', turn('t2', 'kept'));
    const batch = held.hold();
    const rotation = store.rotateThreadKey('T');
    await batch.fetched;
    const writer = store.expire({ before: '2021-01-01T00:00:00Z', threadId: 'T' });
    await settledOrWaiting(harness, writer, { forUpdateOnly: true });
    batch.release();
    await rotation;
    expect((await writer).turns).toBe(1);
    const rows = await store.getRows('T');
    expect(rows.map((r) => `${r.turnId}:${r.role}`)).toEqual([
      'expired-2:system',
      't2:user',
      't2:assistant',
    ]);
    expect(JSON.stringify(rows)).not.toContain('OLD SECRET');
    await store.close();
  });

  it('stops with thread-not-found when the thread is erased and made again, and leaves the new thread its key', async () => {
    const { harness, held, store } = open();
    await store.migrate();
    await store.appendTurn('T', turn('t1', 'old'));
    const batch = held.hold();
    const rotation = store.rotateThreadKey('T');
    const failed = rotation.then(
      () => undefined,
      (error: unknown) => error,
    );
    await batch.fetched;
    const writer = (async () => {
      await store.eraseThread('T');
      await store.appendTurn('T', turn('n1', 'new'));
    })();
    await settledOrWaiting(harness, writer, { forUpdateOnly: true });
    batch.release();
    await writer;
    expect(await failed).toMatchObject({ code: 'thread-not-found' });
    expect(await texts(store, 'T')).toEqual(['n1:new', 'n1:answer to new']);
    await store.close();
  });
});

describe.each(available)('a key rotation after racing first writes on %s', (name) => {
  it('makes a key newer than every key the rows were written under', async () => {
    const harness = createHarness(name);
    harnesses.push(harness);
    const keys = createMemoryKeyProvider();
    const store = harness.openStore({ encryption: { keys } });
    await store.migrate();
    // Two first writes each made a key (as two writes racing to a new thread do).
    await keys.createKey('T');
    await keys.createKey('T');
    await store.appendTurn('T', turn('t1', 'hello'));
    const used = (await keys.getKey('T'))?.version;
    const { version } = await store.rotateThreadKey('T');
    expect(version).toBeGreaterThan(used ?? 0);
    expect(Object.keys(keys.export()).length).toBe(1);
    expect(keys.export().T?.map((k) => k.version)).toEqual([version]);
    expect(await texts(store, 'T')).toEqual(['t1:hello', 't1:answer to hello']);
    await store.close();
  });
});
