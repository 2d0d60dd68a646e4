// The conformance kit: forks by reference — chains of forks, pages across their stretches, turn
// lookups, history, and the rules for deleting or truncating a thread that has forks.
import type { ChunkRow, ChunkRowDraft } from '../../schema/chunk-row.js';
import type { ChunkStore } from '../../store/types.js';
import { as, turnDrafts as turn } from './drafts.js';
import type { Kit } from './kit.js';

/**
 * A chain three forks deep over turns of 1 to 3 rows: P (turns p0–p3), F1 forked from P after p2
 * with turns f1a, f1b; F2 forked from F1 inside P's part (after p1) with f2a, which makes it P's
 * fork (it reads none of F1's rows); F3 forked from F2 after f2a with f3a, f3b. P goes on after
 * the forks (turn p4), which no fork sees.
 */
async function chain(kit: Kit) {
  const s = kit.store;
  const [p, f1, f2, f3] = ['fk-p', 'fk-f1', 'fk-f2', 'fk-f3'].map((l) => kit.thread(l)) as [
    string,
    string,
    string,
    string,
  ];
  const pRows: ChunkRow[] = [];
  for (const [id, n] of [
    ['p0', 2],
    ['p1', 3],
    ['p2', 1],
    ['p3', 2],
  ] as const) {
    pRows.push(...(await s.appendTurn(p, turn(id, n))));
  }
  await s.forkThread(p, { atSeq: 6, newThreadId: f1 });
  const f1Own = [
    ...(await s.appendTurn(f1, turn('f1a', 2))),
    ...(await s.appendTurn(f1, turn('f1b', 3))),
  ];
  await s.forkThread(f1, { atSeq: 5, newThreadId: f2 });
  const f2Own = await s.appendTurn(f2, turn('f2a', 3));
  const f3Fork = await s.forkThread(f2, { atSeq: 8, newThreadId: f3 });
  const f3Own = [
    ...(await s.appendTurn(f3, turn('f3a', 1))),
    ...(await s.appendTurn(f3, turn('f3b', 2))),
  ];
  await s.appendTurn(p, turn('p4', 2));
  const path = [...as(pRows.slice(0, 5), f3), ...as(f2Own, f3), ...f3Own];
  return { p, f1, f2, f3, pRows, f1Own, f2Own, f3Own, f3Fork, path };
}

/** Every page of `threadId` both ways, for every limit up to `maxLimit`, against `path`. */
async function expectPages(
  kit: Kit,
  store: ChunkStore,
  threadId: string,
  path: readonly ChunkRow[],
  maxLimit: number,
) {
  const { expect } = kit.api;
  const total = path.length;
  for (let limit = 1; limit <= maxLimit; limit++) {
    for (let bound = 0; bound <= total + 1; bound++) {
      const back = await store.getChunks(threadId, { limit, before: bound });
      const below = path.filter((r) => r.seq < bound);
      const chunks = below.slice(Math.max(0, below.length - limit));
      expect(
        { ...back, turnStatus: undefined },
        `getChunks limit ${limit} before ${bound}`,
      ).toEqual({
        chunks,
        total,
        oldestSeq: chunks[0]?.seq ?? null,
        hasMore: chunks.length > 0 && below.length > chunks.length,
        turnStatus: undefined,
      });
      const forward = await store.getChunksAfter(threadId, { limit, afterSeq: bound });
      const above = path.filter((r) => r.seq > bound).slice(0, limit);
      expect(
        { ...forward, turnStatus: undefined, threadStart: undefined },
        `getChunksAfter limit ${limit} after ${bound}`,
      ).toEqual({
        chunks: above,
        total,
        newestSeq: above.at(-1)?.seq ?? null,
        hasMore: path.filter((r) => r.seq > bound).length > above.length,
        turnStatus: undefined,
        threadStart: undefined,
      });
      expect(await store.getRows(threadId, { afterSeq: bound })).toEqual(
        path.filter((r) => r.seq > bound),
      );
    }
  }
  const newest = await store.getChunks(threadId, { limit: maxLimit });
  expect(newest.chunks).toEqual(path.slice(Math.max(0, total - maxLimit)));
}

/** Declares the kit's tests of forks by reference. */
export function describeForksSuite(kit: Kit): void {
  const { describe, it, expect } = kit.api;
  describe('forks by reference', () => {
    it('a fork of a fork of a fork reads its ancestors’ rows up to each fork seq, then its own', async () => {
      const c = await chain(kit);
      const s = kit.store;
      expect(c.f3Fork).toMatchObject({ id: c.f3, total: 8, forkOf: { threadId: c.f2, atSeq: 8 } });
      expect(await s.getThread(c.f1)).toMatchObject({ forkOf: { threadId: c.p, atSeq: 6 } });
      // Forked from F1 at a seq of P's part: its parent is P, whose rows it ends with.
      expect(await s.getThread(c.f2)).toMatchObject({ forkOf: { threadId: c.p, atSeq: 5 } });
      expect((await s.getThread(c.p)).forkOf).toBeUndefined();
      expect(await s.getRows(c.f3)).toEqual(c.path);
      expect(c.path.map((r) => r.seq)).toEqual(c.path.map((_, i) => i + 1));
      expect(await s.getRows(c.f1)).toEqual([...as(c.pRows.slice(0, 6), c.f1), ...c.f1Own]);
      // The parent went on after the forks, and the fork's rows did not change it.
      expect((await s.getRows(c.p)).map((r) => r.turnId).at(-1)).toBe('p4');
      expect(await s.getThread(c.f3)).toMatchObject({ total: 11 });
      // Forks by reference keep the rows' seqs, turn ids, data and times.
      const shared = (await s.getRows(c.f3)).slice(0, 5);
      expect(shared.map(({ threadId: _, ...r }) => r)).toEqual(
        c.pRows.slice(0, 5).map(({ threadId: _, ...r }) => r),
      );
    });

    it('pages both ways and getRows are dense along the path, across every stretch', async () => {
      const c = await chain(kit);
      await expectPages(kit, kit.store, c.f3, c.path, 4);
      await expectPages(kit, kit.store, c.f2, [...as(c.pRows.slice(0, 5), c.f2), ...c.f2Own], 3);
      // A fork's own rows start after its parent's: the start a store tells, if it tells one.
      const start = (await kit.store.getChunksAfter(c.f2, { limit: 1 })).threadStart;
      if (start !== undefined) {
        const own = c.f2Own[0];
        expect(start).toStrictEqual({
          seq: own?.seq,
          turnId: own?.turnId,
          createdAt: own?.createdAt,
        });
      }
    });

    it('a page reports the statuses of a parent’s turns it shows', async () => {
      const s = kit.store;
      const p = kit.thread('fk-status-p');
      const f = kit.thread('fk-status-f');
      await s.appendTurn(p, turn('ok', 2));
      await s.appendTurn(p, turn('broke', 2), { status: 'failed' });
      await s.forkThread(p, { atSeq: 4, newThreadId: f });
      await s.appendTurn(f, turn('mine', 2));
      expect((await s.getChunks(f, { limit: 3 })).turnStatus).toEqual({ broke: 'failed' });
      expect((await s.getChunksAfter(f, { limit: 3 })).turnStatus).toEqual({ broke: 'failed' });
      expect((await s.getChunks(f, { limit: 2 })).turnStatus).toBeUndefined();
      const messages = await s.getMessages(f);
      expect(messages.filter((m) => m.turnId === 'broke').every((m) => m.status === 'failed')).toBe(
        true,
      );
      expect((await s.listTurns(f)).map((t) => [t.threadId, t.turnId, t.status])).toEqual([
        [f, 'broke', 'failed'],
      ]);
    });

    it('turn lookups, retries and usage go through the chain', async () => {
      const c = await chain(kit);
      const s = kit.store;
      const p1 = c.pRows.filter((r) => r.turnId === 'p1');
      expect(await s.getTurn(c.f3, 'p1')).toEqual(as(p1, c.f3));
      expect(await s.hasTurn(c.f3, 'p1')).toBe(true);
      // p3 is P's, above F2's fork seq: not on F3's path.
      expect(await s.getTurn(c.f3, 'p3')).toBeNull();
      expect(await s.hasTurn(c.f3, 'p3')).toBe(false);
      expect(await s.getTurn(c.f3, 'f1b')).toBeNull();
      expect(await s.getTurnInfo(c.f3, 'f2a')).toMatchObject({
        threadId: c.f3,
        turnId: 'f2a',
        status: 'completed',
        firstSeq: 6,
        nextSeq: 9,
      });
      expect(await s.getTurnInfo(c.f3, 'p3')).toBeNull();
      // A turn the fork holds through its parent, appended again: answered, not stored twice.
      const again = await s.appendTurn(c.f3, turn('p1', 3));
      expect(again).toEqual(as(p1, c.f3));
      const begun = await s.beginTurn(c.f3, turn('f2a', 1));
      expect(begun).toMatchObject({ created: false, status: 'completed' });
      expect(await s.getRows(c.f3)).toEqual(c.path);
      // Usage: a turn's where its rows are; a thread's, its own steps only.
      await s.recordUsage(c.p, 'p1', [{ step: 0, usage: { inputTokens: 10, outputTokens: 2 } }]);
      await s.recordUsage(c.f3, 'f3a', [{ step: 0, usage: { inputTokens: 20, outputTokens: 3 } }]);
      expect((await s.getTurnUsage(c.f3, 'p1'))?.total).toMatchObject({ inputTokens: 10 });
      expect(await s.getThreadUsage(c.f3)).toMatchObject({
        turns: 1,
        total: { inputTokens: 20, outputTokens: 3 },
      });
    });

    it('history and messages of a fork equal those of a plain thread of the same turns', async () => {
      const c = await chain(kit);
      const s = kit.store;
      const plain = kit.thread('fk-plain');
      const byTurn = new Map<string, ChunkRow[]>();
      for (const row of c.path) byTurn.set(row.turnId, [...(byTurn.get(row.turnId) ?? []), row]);
      for (const [, rows] of byTurn) {
        const drafts = rows.map(({ turnId, step, role, type, data }) => ({
          turnId,
          step,
          role,
          type,
          data,
        })) as ChunkRowDraft[];
        await s.appendTurn(plain, drafts, { createdAt: rows[0]?.createdAt as string });
      }
      const fork = await s.getMessages(c.f3);
      const replica = await s.getMessages(plain);
      expect(fork).toEqual(replica);
      const history = await s.getHistory(c.f3);
      expect(history.fold.seq).toBe(11);
      expect(history.messages).toEqual(fork);
    });

    it('a thread with forks is not deleted, nor truncated below a fork seq; a fork truncated below its own reads less', async () => {
      const c = await chain(kit);
      const s = kit.store;
      const refused = await kit.expectCode(s.deleteThread(c.p), 'thread-has-forks');
      expect(refused.value).toEqual([
        { threadId: c.f1, atSeq: 6 },
        { threadId: c.f2, atSeq: 5 },
      ]);
      await kit.expectCode(s.deleteThread(c.f2), 'thread-has-forks');
      await kit.expectCode(s.truncateAfter(c.p, 5), 'thread-has-forks');
      await kit.expectCode(s.truncateAfter(c.f2, 7), 'thread-has-forks');
      // F1 holds nothing: F2, made from it, reads none of its rows.
      expect(await s.deleteThread(c.f1)).toBe(true);
      expect(await s.getRows(c.f2)).toEqual([...as(c.pRows.slice(0, 5), c.f2), ...c.f2Own]);
      await kit.expectCode(s.truncateAfter(c.p, 4), 'thread-has-forks');
      // At or above every fork seq is allowed: P's turn p4 goes.
      expect(await s.truncateAfter(c.p, 8)).toBe(2);
      expect(await s.getRows(c.f3)).toEqual(c.path);
      // F3 truncated into P's part: it now reads P up to seq 2 (turn p0) only, as P's fork.
      expect(await s.truncateAfter(c.f3, 2)).toBe(9);
      expect(await s.getThread(c.f3)).toMatchObject({
        total: 2,
        forkOf: { threadId: c.p, atSeq: 2 },
      });
      expect(await s.getRows(c.f3)).toEqual(as(c.pRows.slice(0, 2), c.f3));
      const next = await s.appendTurn(c.f3, turn('f3c', 2));
      expect(next.map((r) => r.seq)).toEqual([3, 4]);
      expect(await s.getRows(c.f3)).toEqual([...as(c.pRows.slice(0, 2), c.f3), ...next]);
      // F2 holds nothing for F3 any more; P holds its rows up to seq 2 for both.
      expect(await s.truncateAfter(c.f2, 2)).toBe(6);
      const held = await kit.expectCode(s.truncateAfter(c.p, 1), 'thread-has-forks');
      const holders = (held.value as { threadId: string; atSeq: number }[]).map(
        (f) => `${f.threadId}@${f.atSeq}`,
      );
      expect(holders.sort()).toEqual([`${c.f2}@2`, `${c.f3}@2`].sort());
      // Forks go first, then their parents.
      expect(await s.deleteThread(c.f3)).toBe(true);
      expect(await s.deleteThread(c.f2)).toBe(true);
      expect(await s.deleteThread(c.p)).toBe(true);
    });

    it('a fork racing its parent’s deletion: the fork and its rows exist, or neither does', async () => {
      const s = kit.store;
      const other = await kit.open();
      for (let i = 0; i < 6; i++) {
        const p = kit.thread('fk-race-p');
        const f = kit.thread('fk-race-f');
        await s.appendTurn(p, turn('a', 2));
        const racing = [other.forkThread(p, { atSeq: 2, newThreadId: f }), s.deleteThread(p)];
        const [forked, deleted] = await Promise.allSettled(
          i % 2 === 0 ? racing : [...racing].reverse(),
        ).then((r) => (i % 2 === 0 ? r : [...r].reverse()));
        if (forked?.status === 'fulfilled') {
          expect(deleted?.status).toBe('rejected');
          await kit.expectCode(
            Promise.reject((deleted as PromiseRejectedResult).reason),
            'thread-has-forks',
          );
          expect((await s.getRows(f)).map((r) => [r.threadId, r.seq])).toEqual([
            [f, 1],
            [f, 2],
          ]);
        } else {
          await kit.expectCode(Promise.reject(forked?.reason), 'thread-not-found');
          expect(deleted).toEqual({ status: 'fulfilled', value: true });
          await kit.expectCode(s.getThread(f), 'thread-not-found');
        }
      }
    });

    it('listThreads({ forkOf }) lists a thread’s own forks: not their forks, not its alternatives', async () => {
      const s = kit.store;
      const c = await chain(kit);
      const ids = async (forkOf: string, limit = 10) =>
        (await s.listThreads({ forkOf, limit })).threads.map((t) => t.id);
      // F2, made from F1 in P's part, is P's fork; F3 is F2's, not P's.
      expect(await ids(c.p)).toEqual([c.f2, c.f1]);
      expect(await ids(c.f1)).toEqual([]);
      expect(await ids(c.f2)).toEqual([c.f3]);
      expect(await ids(c.f3)).toEqual([]);
      const second = kit.thread('fk-list-second');
      await s.forkThread(c.p, { atSeq: 2, newThreadId: second });
      await s.addAlternative(c.p, { turnId: 'p1', newThreadId: kit.thread('fk-list-alt') });
      // Most recently active first, paged like every listThreads.
      const first = await s.listThreads({ forkOf: c.p, limit: 1 });
      expect(first.threads.map((t) => [t.id, t.forkOf])).toEqual([
        [second, { threadId: c.p, atSeq: 2 }],
      ]);
      expect(first.hasMore).toBe(true);
      const rest = await s.listThreads({ forkOf: c.p, limit: 2, before: first.nextBefore ?? '' });
      expect(rest.threads.map((t) => t.id)).toEqual([c.f2, c.f1]);
      expect(rest.hasMore).toBe(false);
      await kit.expectCode(s.listThreads({ forkOf: '' }), 'invalid-option');
      expect(await ids(kit.thread('fk-list-none'))).toEqual([]);
    });

    it('a fork at seq 0 shares nothing and does not hold its parent', async () => {
      const s = kit.store;
      const p = kit.thread('fk-zero-p');
      const f = kit.thread('fk-zero-f');
      await s.appendTurn(p, turn('a', 2));
      expect(await s.forkThread(p, { atSeq: 0, newThreadId: f })).toMatchObject({
        total: 0,
        forkOf: { threadId: p, atSeq: 0 },
      });
      expect(await s.getRows(f)).toEqual([]);
      expect(await s.truncateAfter(p, 0)).toBe(2);
      expect(await s.deleteThread(p)).toBe(true);
      expect(await s.getChunks(f, { limit: 5 })).toMatchObject({ chunks: [], total: 0 });
    });
  });
}
