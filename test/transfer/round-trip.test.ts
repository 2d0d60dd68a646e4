// exportThread then importThread, on the SQLite file, PostgreSQL and MariaDB: the rows (seqs,
// turn ids, data, times), each turn's status, the usage per step and the thread's title, owner
// and metadata come back; a thread is read a page at a time; the same thread gives the same bytes.
import { afterAll, describe, expect, it } from 'vitest';
import type { ChunkRow } from '../../src/schema/chunk-row.js';
import type { ChunkStore } from '../../src/store/index.js';
import { exportThread, importThread } from '../../src/transfer/index.js';
import {
  availableDialects,
  createHarness,
  type DialectHarness,
} from '../store/support/dialects.js';
import { DAY, qa } from '../store/support/retention-turns.js';
import { rejected } from '../support/chunklog-error.js';
import { collect, seedTransferThread } from './support.js';

/** Rows stamped `days` before now. */
const ago = (days: number) => ({ createdAt: new Date(Date.now() - days * DAY) });

const available = await availableDialects();
const harnesses: DialectHarness[] = [];
const stores: ChunkStore[] = [];
afterAll(async () => {
  for (const store of stores) await store.close();
  for (const harness of harnesses) await harness.dispose();
});

async function open(name: (typeof available)[number]): Promise<ChunkStore> {
  const harness = createHarness(name);
  harnesses.push(harness);
  const store = harness.openStore();
  stores.push(store);
  await store.migrate();
  return store;
}

const withoutThread = (rows: readonly ChunkRow[]) => rows.map(({ threadId: _t, ...row }) => row);

/**
 * The rows as an import stores them: `appendTurn` stamps a turn's rows with one time, its first
 * row's (a turn written step by step had one time per step).
 */
function oneTimePerTurn(rows: readonly ChunkRow[]) {
  const first = new Map<string, string | undefined>();
  for (const row of rows) if (!first.has(row.turnId)) first.set(row.turnId, row.createdAt);
  return withoutThread(rows).map((row) => ({ ...row, createdAt: first.get(row.turnId) }));
}

async function statuses(store: ChunkStore, threadId: string) {
  const out: Record<string, string | undefined> = {};
  for (const turnId of ['t1', 't2', 't3', 't4', 't5']) {
    out[turnId] = (await store.getTurnInfo(threadId, turnId))?.status;
  }
  return out;
}

for (const name of ['sqlite', 'postgres', 'mysql'] as const) {
  describe.skipIf(!available.includes(name))(`export and import on ${name}`, () => {
    it('brings back rows, times, statuses, usage and the thread', async () => {
      const source = await open(name);
      await seedTransferThread(source, 'trip');
      const calls: number[] = [];
      const spy = {
        ...source,
        getChunksAfter: (
          threadId: string,
          options?: Parameters<ChunkStore['getChunksAfter']>[1],
        ) => {
          calls.push(options?.limit ?? 0);
          return source.getChunksAfter(threadId, options);
        },
      };
      const text = await collect(exportThread(spy, 'trip', { pageSize: 4 }));
      const lines = text
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line));
      const total = (await source.getThread('trip')).total;
      // Read forwards a page at a time, never more than the page size.
      expect(calls.every((limit) => limit === 4)).toBe(true);
      expect(calls).toHaveLength(Math.ceil(total / 4));
      expect(lines[0]).toMatchObject({
        format: 'chunklog-thread',
        version: 1,
        thread: { id: 'trip', title: 'Trip planning', ownerId: 'ada', total },
      });
      expect(lines.at(-1)).toEqual({ kind: 'end', turns: 5, rows: total });

      const target = await open(name);
      const result = await importThread(target, text);
      expect(result).toEqual({
        threadId: 'trip',
        turns: 5,
        rows: total,
        skippedTurns: 0,
        sameSeqs: true,
      });
      const sourceRows = await source.getRows('trip');
      expect(withoutThread(await target.getRows('trip'))).toEqual(oneTimePerTurn(sourceRows));
      expect(await statuses(target, 'trip')).toEqual({
        ...(await statuses(source, 'trip')),
        t5: 'interrupted', // it was running: no writer holds it here
      });
      expect(await target.getTurnUsage('trip', 't1')).toEqual(
        await source.getTurnUsage('trip', 't1'),
      );
      expect(await target.getThreadUsage('trip')).toEqual(await source.getThreadUsage('trip'));
      const copy = await target.getThread('trip');
      expect(copy).toMatchObject({
        title: 'Trip planning',
        ownerId: 'ada',
        metadata: { pinned: true, tags: ['travel'] },
        total,
      });
      // The imported thread exports as the same rows, turn lines and end.
      const again = await collect(exportThread(target, 'trip'));
      const body = (t: string) =>
        t
          .split('\n')
          .slice(1)
          .filter((l) => !l.includes('"turnId":"t5"'));
      expect(body(again)).toEqual(body(text));
    });

    it('imports under a new id, refuses an existing thread, and appends what is missing', async () => {
      const store = await open(name);
      await seedTransferThread(store, 'orig');
      const text = await collect(exportThread(store, 'orig'));
      expect(await collect(exportThread(store, 'orig'))).toBe(text); // deterministic
      const copy = await importThread(store, text, { threadId: 'orig-copy' });
      expect(copy.threadId).toBe('orig-copy');
      expect(withoutThread(await store.getRows('orig-copy'))).toEqual(
        oneTimePerTurn(await store.getRows('orig')),
      );
      const exists = await rejected(importThread(store, text, { threadId: 'orig-copy' }));
      expect(exists.code).toBe('thread-exists');
      expect(exists.message).toContain('nothing was imported');
      // A partial copy (its first two turns) gets the rest with `append`.
      const cut = text.split('\n');
      const third = cut.findIndex((line) => line.includes('"kind":"turn","turnId":"t3"'));
      const firstTwo = cut.slice(0, third).filter((l) => l.includes('"kind":"row"')).length;
      const partial = [
        ...cut.slice(0, third),
        JSON.stringify({ kind: 'end', turns: 2, rows: firstTwo }),
      ];
      await importThread(store, partial.join('\n'), { threadId: 'partial' });
      expect(await store.hasTurn('partial', 't3')).toBe(false);
      const rest = await importThread(store, text, {
        threadId: 'partial',
        onExistingThread: 'append',
      });
      expect(rest).toMatchObject({ turns: 3, skippedTurns: 2, sameSeqs: true });
      expect(withoutThread(await store.getRows('partial'))).toEqual(
        oneTimePerTurn(await store.getRows('orig')),
      );
    });

    it('brings back an expired thread with its seqs and its sentinel, and retention goes on on the copy', async () => {
      const store = await open(name);
      for (let i = 0; i < 3; i++) await store.appendTurn('old', qa(`old-${i}`, 'q'), ago(10));
      for (let i = 0; i < 2; i++) await store.appendTurn('old', qa(`mid-${i}`, 'q'), ago(5));
      await store.appendTurn('old', qa('new', 'q'), ago(0));
      await store.expire({ before: new Date(Date.now() - 7 * DAY), threadId: 'old' });
      const source = await store.getRows('old');
      expect(source.map((r) => [r.seq, r.turnId])[0]).toEqual([6, 'expired-6']);
      const text = await collect(exportThread(store, 'old'));

      const result = await importThread(store, text, { threadId: 'copy' });
      expect(result).toEqual({
        threadId: 'copy',
        turns: 4,
        rows: 7,
        skippedTurns: 0,
        sameSeqs: true,
      });
      expect(withoutThread(await store.getRows('copy'))).toEqual(withoutThread(source));
      expect((await store.getThread('copy')).total).toBe((await store.getThread('old')).total);
      // A later expiry folds the sentinel in on the copy as on the source.
      const before = new Date(Date.now() - 2 * DAY);
      const onSource = await store.expire({ before, threadId: 'old' });
      expect(await store.expire({ before, threadId: 'copy' })).toEqual(onSource);
      expect(onSource).toMatchObject({ turns: 2, leftWhole: [] });
      // The new sentinels' times are each expiry's own.
      const untimed = async (threadId: string) =>
        withoutThread(await store.getRows(threadId)).map(({ createdAt: _c, ...row }) => row);
      expect(await untimed('copy')).toEqual(await untimed('old'));
      expect((await store.getRows('copy'))[0]?.data).toMatchObject({
        truncation: { firstKeptTurnId: 'new', firstKeptSeq: 11, leftOutTurns: 5 },
      });

      // An import cut short after the sentinel goes on with `append`, at the same seqs.
      const lines = text.split('\n');
      const second = lines.findIndex((line) => line.includes('"kind":"turn","turnId":"mid-0"'));
      const sentinelOnly = [
        ...lines.slice(0, second),
        JSON.stringify({ kind: 'end', turns: 1, rows: 1 }),
      ];
      await importThread(store, sentinelOnly.join('\n'), { threadId: 'resumed' });
      const rest = await importThread(store, text, {
        threadId: 'resumed',
        onExistingThread: 'append',
      });
      expect(rest).toMatchObject({ turns: 3, skippedTurns: 1, sameSeqs: true });
      expect(withoutThread(await store.getRows('resumed'))).toEqual(withoutThread(source));
    });

    it('brings back an expired thread that has forks with the seqs of its sentinels, gaps and all, and retention counts them on the copy', async () => {
      const store = await open(name);
      for (let i = 0; i < 3; i++) await store.appendTurn('held', qa(`old-${i}`, 'q'), ago(10));
      await store.forkThread('held', { atSeq: 2, newThreadId: 'reader-2' });
      await store.forkThread('held', { atSeq: 4, newThreadId: 'reader-4' });
      await store.appendTurn('held', qa('mid', 'q'), ago(5));
      await store.appendTurn('held', qa('new', 'q'), ago(0));
      await store.expire({ before: new Date(Date.now() - 7 * DAY) });
      // A sentinel where each fork stops reading the removed turns, and one at the end: gaps.
      const source = await store.getRows('held');
      expect(source.map((r) => [r.seq, r.turnId])).toEqual([
        [2, 'expired-2'],
        [4, 'expired-4'],
        [6, 'expired-6'],
        [7, 'mid'],
        [8, 'mid'],
        [9, 'new'],
        [10, 'new'],
      ]);
      const text = await collect(exportThread(store, 'held'));
      const result = await importThread(store, text, { threadId: 'copy' });
      expect(result).toMatchObject({ turns: 5, rows: 7, sameSeqs: true });
      expect(withoutThread(await store.getRows('copy'))).toEqual(withoutThread(source));
      expect((await store.getThread('copy')).total).toBe(10);
      // The copy's sentinels are sentinels: a later expiry counts the turns each stands for.
      const result2 = await store.expire({
        before: new Date(Date.now() - 2 * DAY),
        threadId: 'copy',
      });
      expect(result2).toMatchObject({ turns: 1 });
      const rows = await store.getRows('copy');
      expect(rows.map((r) => [r.seq, r.turnId])).toEqual([
        [8, 'expired-8'],
        [9, 'new'],
        [10, 'new'],
      ]);
      expect(rows[0]?.data).toMatchObject({
        truncation: { firstKeptTurnId: 'new', firstKeptSeq: 9, leftOutTurns: 4 },
      });
    });
  });
}
