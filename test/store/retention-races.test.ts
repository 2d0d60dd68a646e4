// Retention beside the writes it races with (notes/0121, "Not done"): `deleteThread` and
// `eraseThread` run at the same time as `expire` over a conversation with alternatives and a
// chain of plain forks, on separate connections, several times with the start of either held back
// by a few event-loop turns; a fork made (forkThread, addAlternative) while an expiry of its parent
// runs, between its look for readers and its locks (the start-over path, `ReadersChanged`); and a
// history state folded from a read that an expiry overtook. On every dialect; the lock checks on
// PostgreSQL and MariaDB only (SQLite has one writer, so nothing can wait for a row lock there).
import Database from 'better-sqlite3';
import {
  Kysely,
  type KyselyPlugin,
  type LogEvent,
  MysqlDialect,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  PostgresDialect,
  type QueryResult,
  type RootOperationNode,
  SqliteDialect,
  sql,
  type UnknownRow,
} from 'kysely';
import { createPool } from 'mysql2';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import type { ChunkRow } from '../../src/schema/index.js';
import { deferred } from '../../src/session/turn-handle.js';
import {
  type ChunkStore,
  type ChunkStoreOptions,
  createChunkStore,
  createMemoryKeyProvider,
  guardPgPool,
} from '../../src/store/index.js';
import { MYSQL_URL, POSTGRES_URL } from '../support/services.js';
import {
  availableDialects,
  createHarness,
  type DialectHarness,
  type DialectName,
} from './support/dialects.js';
import { heldKeys } from './support/held-keys.js';
import { settledOrWaiting } from './support/lock-waits.js';
import { DAY, qa, T0 } from './support/retention-turns.js';

const available = await availableDialects();
const harnesses: DialectHarness[] = [];
afterAll(async () => {
  for (const h of harnesses) await h.dispose();
});

/** Every turn written before this is old: `expire({ before: OLD })` removes it. */
const OLD = new Date(T0 + 5 * DAY);
const at = (day: number) => ({ createdAt: new Date(T0 + day * DAY) });

/**
 * A plugin that holds the result of the next query whose operation node matches, until released:
 * the caller's code stops right after that statement (inside its transaction, when it runs in
 * one), while other connections go on. Queries are matched by their Kysely node (the table and
 * column names as the store's code writes them), so compiled statements are never held.
 */
class Gate implements KyselyPlugin {
  readonly #nodes = new WeakMap<object, string>();
  readonly #holds: Array<{
    readonly match: (node: string, rows: readonly unknown[]) => boolean;
    readonly reached: () => void;
    readonly released: Promise<void>;
  }> = [];

  transformQuery({ node, queryId }: PluginTransformQueryArgs): RootOperationNode {
    if (this.#holds.length > 0) this.#nodes.set(queryId, JSON.stringify(node));
    return node;
  }

  async transformResult({
    queryId,
    result,
  }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    const node = this.#nodes.get(queryId);
    const index =
      node === undefined ? -1 : this.#holds.findIndex((h) => h.match(node, result.rows));
    if (index >= 0) {
      const [held] = this.#holds.splice(index, 1);
      held?.reached();
      await held?.released;
    }
    return result;
  }

  /** Holds the next query that matches; `reached` resolves once it has run. */
  hold(match: (node: string, rows: readonly unknown[]) => boolean): {
    reached: Promise<void>;
    release: () => void;
  } {
    const released = deferred<void>();
    const reached = deferred<void>();
    this.#holds.push({ match, reached: () => reached.resolve(), released: released.promise });
    return { reached: reached.promise, release: () => released.resolve() };
  }
}

/**
 * The end of `forkReaders` (expire-readers.ts), the look for the threads that read an owner's
 * rows: its query for one more generation of forks, which finds none.
 */
const readersFound = (node: string, rows: readonly unknown[]) =>
  rows.length === 0 &&
  node.startsWith('{"kind":"SelectQueryNode"') &&
  node.includes('"name":"parent_id"') &&
  node.includes('"operator":"in"');

/** Expiry writing a sentinel over a row, in its transaction, every lock taken (expire.ts). */
const sentinelUpdate = (node: string) =>
  node.startsWith('{"kind":"UpdateQueryNode"') &&
  node.includes('"name":"chunks"') &&
  node.includes('"name":"turn_id"');

/** A lock conflict as the drivers report it: a deadlock, a serialization failure, a lock wait. */
function lockConflict(error: unknown): string | undefined {
  const { code, errno } = (error ?? {}) as { code?: unknown; errno?: unknown };
  if (code === '40P01' || code === '40001' || errno === 1213 || errno === 1205) {
    return String(code ?? errno);
  }
  return undefined;
}

/**
 * A store over the harness's tables on a pool of its own, with a {@link Gate}, that records every
 * lock conflict its queries meet (`writeTransaction` retries those silently, so only the log
 * shows a deadlock that the lock order should have made impossible).
 */
function watchedStore(harness: DialectHarness, options: ChunkStoreOptions = {}) {
  const gate = new Gate();
  const conflicts: string[] = [];
  const log = (event: LogEvent) => {
    if (event.level !== 'error') return;
    const conflict = lockConflict(event.error);
    if (conflict !== undefined) conflicts.push(conflict);
  };
  const name: DialectName = harness.name;
  const dialect =
    name === 'sqlite'
      ? new SqliteDialect({
          database: () => {
            const db = new Database(harness.file as string, { timeout: 10_000 });
            db.pragma('journal_mode = WAL');
            return Promise.resolve(db);
          },
        })
      : name === 'postgres'
        ? new PostgresDialect({
            pool: guardPgPool(new pg.Pool({ connectionString: POSTGRES_URL, max: 4 })),
          })
        : new MysqlDialect({ pool: createPool({ uri: MYSQL_URL, connectionLimit: 4 }) });
  // biome-ignore lint/suspicious/noExplicitAny: the store names its tables itself
  const db: Kysely<any> = new Kysely({ dialect, log });
  // The store drops the plugins of the instance it is given (`withoutPlugins`): it gets the gated
  // one from there instead.
  const gated = db.withPlugin(gate);
  const given = new Proxy(db, {
    get(target, property) {
      if (property === 'withoutPlugins') return () => gated;
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  const inner = createChunkStore(
    { db: given },
    { now: () => T0 + 10 * DAY, ...options, tablePrefix: harness.prefix },
  );
  const store: ChunkStore = {
    ...inner,
    async close() {
      await inner.close();
      await db.destroy();
    },
  };
  return { store, gate, conflicts };
}

async function newHarness(name: DialectName): Promise<DialectHarness> {
  const harness = createHarness(name);
  harnesses.push(harness);
  const store = harness.openStore();
  await store.migrate();
  await store.close();
  return harness;
}

/** Waits `ticks` turns of the event loop: a start held back by that much, no time measured. */
async function ticks(n: number): Promise<void> {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
}

const textOf = (row: ChunkRow) => (row.data as { text?: string }).text ?? '';
const leftOut = (row: ChunkRow) =>
  (row.data as { kind?: string; truncation?: { leftOutTurns?: number } }).kind ===
  'context-truncated'
    ? (row.data as { truncation: { leftOutTurns: number } }).truncation.leftOutTurns
    : 0;

/** The old turns a thread's path shows (their questions say "old"). */
async function oldTurns(store: ChunkStore, threadId: string): Promise<number> {
  const rows = await store.getRows(threadId);
  return new Set(rows.filter((r) => textOf(r).startsWith('old')).map((r) => r.turnId)).size;
}

/**
 * The end state of a thread that survived: its reads agree (rows, a forward page, history), and
 * the sentinels on its path count exactly the old turns it no longer shows.
 */
async function checkSurvivor(store: ChunkStore, threadId: string, oldBefore: number) {
  const rows = await store.getRows(threadId);
  const page = await store.getChunksAfter(threadId, { limit: 1000 });
  expect(page.chunks, threadId).toEqual(rows);
  const history = await store.getHistory(threadId);
  // The history folds the sentinels a path starts with into one notice (the newest).
  const turnIds = (list: readonly { turnId: string }[]) => [
    ...new Set(list.map((m) => (m.turnId.startsWith('expired-') ? 'sentinel' : m.turnId))),
  ];
  expect(turnIds(history.messages), threadId).toEqual(turnIds(rows));
  const shown = JSON.stringify(history.messages);
  const removed = rows.reduce((n, r) => n + leftOut(r), 0);
  const left = await oldTurns(store, threadId);
  expect({ threadId, accounted: removed + left }).toEqual({ threadId, accounted: oldBefore });
  // What a history read shows of old turns is what the rows show.
  expect(shown.includes('old'), threadId).toBe(left > 0);
  return { removed, left };
}

/** No row of any kind is left of a removed thread. */
async function checkGone(harness: DialectHarness, store: ChunkStore, threadId: string) {
  await expect(store.getThread(threadId), threadId).rejects.toMatchObject({
    code: 'thread-not-found',
  });
  for (const table of [
    'threads',
    'chunks',
    'turns',
    'usage',
    'history_states',
    'snapshots',
    'leases',
  ]) {
    const column = table === 'threads' ? 'id' : 'thread_id';
    const { rows } = await sql<{ n: number | string }>`select count(*) as n from ${sql.table(
      `${harness.prefix}${table}`,
    )} where ${sql.ref(column)} = ${threadId}`.execute(harness.raw);
    expect({ table, threadId, n: Number(rows[0]?.n) }).toEqual({ table, threadId, n: 0 });
  }
}

/** Whether another transaction holds the lock of thread `threadId` now (asked without waiting). */
async function lockedNow(harness: DialectHarness, threadId: string): Promise<boolean> {
  try {
    await harness.raw.transaction().execute(async (trx) => {
      await sql`select id from ${sql.table(`${harness.prefix}threads`)} where id = ${threadId}
        for update nowait`.execute(trx);
    });
    return false;
  } catch (error) {
    const { code, errno } = error as { code?: unknown; errno?: unknown };
    // PostgreSQL: lock_not_available; MariaDB: lock wait timeout (NOWAIT); MySQL: ER_LOCK_NOWAIT.
    if (code === '55P03' || errno === 1205 || errno === 3572) return true;
    throw error;
  }
}

/** Any `SELECT … FOR UPDATE`: a thread's lock being taken. */
const lockQuery = (node: string) =>
  node.startsWith('{"kind":"SelectQueryNode"') && node.includes('ForUpdate');

/**
 * A conversation `<r>chat` with two alternatives, the second forked from the first and active,
 * and a chain of plain forks `<r>a` → `<r>b` → `<r>c`; old turns in every one, fresh ones after.
 */
async function conversationAndChain(store: ChunkStore, r: string) {
  const chat = `${r}chat`;
  await store.appendTurn(chat, qa(`${r}t0`, 'old chat 0'), at(0));
  await store.appendTurn(chat, qa(`${r}t1`, 'old chat 1'), at(0));
  await store.appendTurn(chat, qa(`${r}t2`, 'fresh chat 2'), at(9));
  // v1 reads chat's first turn; v2 reads that and v1's old turn.
  await store.addAlternative(chat, { turnId: `${r}t1`, newThreadId: `${r}v1` });
  await store.appendTurn(`${r}v1`, qa(`${r}v1a`, 'old v1'), at(0));
  await store.appendTurn(`${r}v1`, qa(`${r}v1b`, 'fresh v1'), at(9));
  await store.addAlternative(chat, { turnId: `${r}v1b`, newThreadId: `${r}v2` });
  await store.appendTurn(`${r}v2`, qa(`${r}v2a`, 'fresh v2'), at(9));
  // A chain of plain forks, each at a different point of the first thread.
  for (let i = 0; i < 3; i++) await store.appendTurn(`${r}a`, qa(`${r}a${i}`, `old a ${i}`), at(0));
  await store.appendTurn(`${r}a`, qa(`${r}a3`, 'fresh a'), at(9));
  await store.forkThread(`${r}a`, { atSeq: 4, newThreadId: `${r}b` });
  await store.appendTurn(`${r}b`, qa(`${r}b0`, 'old b'), at(0));
  await store.forkThread(`${r}b`, { atSeq: 6, newThreadId: `${r}c` });
  await store.forkThread(`${r}a`, { atSeq: 2, newThreadId: `${r}d` });
  await store.appendTurn(`${r}c`, qa(`${r}c0`, 'fresh c'), at(9));
  await store.appendTurn(`${r}d`, qa(`${r}d0`, 'fresh d'), at(9));
  // History states on the forks: each must go with the rows it folds.
  for (const id of [`${r}v2`, `${r}c`, `${r}d`]) await store.writeHistorySnapshot(id);
  const members = {
    conversation: [chat, `${r}v1`, `${r}v2`],
    chain: [`${r}a`, `${r}b`, `${r}c`, `${r}d`],
  };
  return { chat, ...members, all: [...members.conversation, ...members.chain] };
}

describe.each(['sqlite', 'postgres', 'mysql'] as const)('retention races on %s', (name) => {
  const rowLocks = name !== 'sqlite';

  // (1) deleteThread / eraseThread beside expire, free-running: each round starts both at once
  // (one of them held back by a few event-loop turns, which one alternating), on two stores with
  // pools of their own, over an active alternative, a whole conversation and the leaf of a chain
  // of plain forks. No lock conflict may be met at all (none is expected: the lock order leaves
  // no deadlock, and nothing here waits long enough for a lock wait timeout), both operations
  // succeed, and the end state is consistent. What breaking it takes: a removal and an expiry
  // that take two locks in opposite orders (`lockForRemoval` locking the thread before its
  // conversation, as before notes/0121) deadlock when their lock phases overlap, which the
  // database reports (PostgreSQL 40P01, MariaDB 1213) and `writeTransaction` retries: only the
  // log of lock conflicts shows it. Whether a round overlaps is up to the scheduler, so this case
  // catches that break on some runs only (seen on PostgreSQL and on MariaDB, not on every run);
  // the next case forces the overlap. The end-state checks fail for any removal or expiry that
  // loses or keeps rows it should not. On SQLite (one writer) it checks the end state only.
  it.skipIf(!available.includes(name))(
    'deleteThread and eraseThread beside expire over a conversation with alternatives and a chain of forks: no deadlock, and the end state is consistent',
    async () => {
      const harness = await newHarness(name);
      const keys = createMemoryKeyProvider();
      const one = watchedStore(harness, { encryption: { keys } });
      const two = watchedStore(harness, { encryption: { keys } });
      // Which thread goes, with which expiry (of the whole store, or of the owner the removed
      // thread reads): an active alternative (its conversation's row is written too), a whole
      // conversation with its alternatives, the leaf of a chain of plain forks.
      const targets = [
        { target: 'v2', expiry: 'chat', gone: ['v2'] },
        { target: 'chat', expiry: undefined, gone: ['chat', 'v1', 'v2'] },
        { target: 'c', expiry: 'a', gone: ['c'] },
        { target: 'v2', expiry: undefined, gone: ['v2'] },
      ] as const;
      let round = 0;
      for (const { target, expiry, gone } of targets) {
        for (const removal of ['deleteThread', 'eraseThread'] as const) {
          for (const [removeAfter, expireAfter] of [
            [0, 0],
            [0, 3],
            [3, 0],
          ] as const) {
            const r = `r${round++}`;
            const made = await conversationAndChain(one.store, r);
            const oldBefore = new Map<string, number>();
            for (const id of made.all) oldBefore.set(id, await oldTurns(one.store, id));
            // Alternate which store removes and which expires.
            const [remover, expirer] = round % 2 === 0 ? [one, two] : [two, one];
            const [removed, result] = await Promise.all([
              ticks(removeAfter).then(() => remover.store[removal](`${r}${target}`)),
              ticks(expireAfter).then(() =>
                expirer.store.expire(
                  expiry === undefined
                    ? { before: OLD }
                    : { before: OLD, threadId: `${r}${expiry}` },
                ),
              ),
            ]);
            expect(removed).toBe(true);
            expect(result.leftWhole).toEqual([]);
            const goneIds = gone.map((g) => `${r}${g}`);
            for (const id of goneIds) await checkGone(harness, one.store, id);
            for (const id of made.all.filter((t) => !goneIds.includes(t))) {
              const { left } = await checkSurvivor(one.store, id, oldBefore.get(id) ?? 0);
              // An expiry of the whole store leaves no old turn anywhere.
              if (expiry === undefined) expect({ id, left }).toEqual({ id, left: 0 });
            }
          }
        }
      }
      expect({ conflicts: [...one.conflicts, ...two.conflicts] }).toEqual({ conflicts: [] });
      await one.store.close();
      await two.store.close();
    },
    240_000,
  );

  // (1), the interleaving made certain: the expiry of a conversation is held right after it took
  // its first lock, a removal of an alternative (the active one: its conversation's row is written
  // too) or of the whole conversation starts and is seen waiting for a lock, then the expiry goes
  // on. Both must succeed with no lock conflict met. Fails, on every run, when `lockForRemoval`
  // locks the thread before its conversation (as before notes/0121: the removal of the
  // alternative holds it while it waits for the conversation, which the expiry holds while it
  // waits for the alternative; seen as 40P01 twice on PostgreSQL and 1213 twice on MariaDB), and
  // when `expireLocked` locks the readers before the owner (`[...expected, self]` for
  // `lockOrder(...)`: the removal of the conversation then holds it and waits for an
  // alternative the expiry holds).
  // Declared only where rows are locked (SQLite has one writer: nothing waits for a row lock).
  if (rowLocks) {
    it.skipIf(!available.includes(name))(
      'a removal that starts while an expiry holds the conversation waits for it: no deadlock',
      async () => {
        const harness = await newHarness(name);
        const expirer = watchedStore(harness);
        const remover = watchedStore(harness);
        let round = 0;
        for (const removal of ['deleteThread', 'eraseThread'] as const) {
          for (const target of ['v2', 'chat'] as const) {
            const r = `h${round++}`;
            const made = await conversationAndChain(remover.store, r);
            const held = expirer.gate.hold(lockQuery);
            const expiring = expirer.store.expire({ before: OLD, threadId: `${r}chat` });
            await held.reached;
            const removing = remover.store[removal](`${r}${target}`);
            await settledOrWaiting(harness, removing);
            held.release();
            const [result, removed] = await Promise.all([expiring, removing]);
            expect(removed).toBe(true);
            expect(result).toMatchObject({ threads: 1, turns: 2 });
            const goneIds = target === 'chat' ? made.conversation : [`${r}v2`];
            for (const id of goneIds) await checkGone(harness, remover.store, id);
            if (target === 'v2') {
              await checkSurvivor(remover.store, `${r}chat`, 2);
              await checkSurvivor(remover.store, `${r}v1`, 2);
            }
          }
        }
        expect({ conflicts: [...expirer.conflicts, ...remover.conflicts] }).toEqual({
          conflicts: [],
        });
        await expirer.store.close();
        await remover.store.close();
      },
      120_000,
    );
  }

  // (2) A fork made while an expiry of its owner runs, between the expiry's look for the threads
  // that read the owner's rows and its locks: the expiry finds the new reader under its locks and
  // starts over (`ReadersChanged`), so that it holds the new fork's lock too while it cuts the
  // rows the fork reads. The expiry is held at the end of that look (its last query, which finds
  // no more forks; the new fork, of a reader, is made then) and again at its first sentinel
  // write, every lock taken. Fails, on PostgreSQL and MariaDB, when the `ReadersChanged` check in
  // expire.ts is removed: the new fork is then not locked while the rows it reads are cut
  // (`lockedNow` is false; checked). On SQLite (one writer, whose lock the expiry holds whole)
  // it checks the end state only, which that break does not change: the new fork reads
  // sentinels where the rows were, its history state (folded before) is gone, and a fork of the
  // owner made once the expiry holds its lock, at a seq being cut, waits for it and is then
  // refused (`invalid-option`) rather than made over a removed row (fails if `forkThread` did not
  // look for the row under the lock).
  for (const via of ['forkThread', 'addAlternative'] as const) {
    it.skipIf(!available.includes(name))(
      `a fork made by ${via} while an expiry of its owner looks for readers makes it start over, holding the new fork's lock`,
      async () => {
        const harness = await newHarness(name);
        const expirer = watchedStore(harness);
        const { store } = watchedStore(harness);
        // p: three old turns and a fresh one; b reads p's first turn, has an old turn and a fresh one.
        await store.appendTurn('p', qa('p0', 'old p 0'), at(0));
        await store.appendTurn('p', qa('p1', 'old p 1'), at(0));
        await store.appendTurn('p', qa('p1b', 'old p 1b'), at(0));
        await store.appendTurn('p', qa('p2', 'fresh p 2'), at(9));
        if (via === 'forkThread') await store.forkThread('p', { atSeq: 2, newThreadId: 'b' });
        else await store.addAlternative('p', { turnId: 'p1', newThreadId: 'b' });
        await store.appendTurn('b', qa('b0', 'old b 0'), at(0));
        await store.appendTurn('b', qa('b1', 'fresh b 1'), at(9));

        const first = expirer.gate.hold(readersFound);
        const expiring = expirer.store.expire({ before: OLD, threadId: 'p' });
        await first.reached;
        // The new fork reads p's first turn through b, and b's old turn.
        if (via === 'forkThread') await store.forkThread('b', { atSeq: 4, newThreadId: 'c' });
        else await store.addAlternative('p', { turnId: 'b1', newThreadId: 'c' });
        // It has a history state (on a row of its own), folding p's first turn.
        await store.appendTurn('c', qa('c0', 'fresh c 0'), at(9));
        expect(await store.writeHistorySnapshot('c')).toBe(6);
        const second = expirer.gate.hold(sentinelUpdate);
        first.release();
        await second.reached;
        if (rowLocks) {
          expect(await lockedNow(harness, 'b')).toBe(true);
          expect(await lockedNow(harness, 'c')).toBe(true);
        }
        // A fork of p at seq 4 (the end of a turn being cut, no fork's point) waits for p's lock,
        // then finds the row gone.
        const late = store.forkThread('p', { atSeq: 4, newThreadId: 'late' });
        late.catch(() => {});
        if (rowLocks) await settledOrWaiting(harness, late);
        second.release();
        expect(await expiring).toMatchObject({ threads: 1, turns: 3 });
        await expect(late).rejects.toMatchObject({ code: 'invalid-option' });
        const shown = async (threadId: string) =>
          (await store.getRows(threadId)).map((r) => [r.seq, r.turnId, leftOut(r) || textOf(r)]);
        expect(await shown('c')).toEqual([
          [2, 'expired-2', 1],
          [3, 'b0', 'old b 0'],
          [4, 'b0', 'answer to old b 0'],
          [5, 'c0', 'fresh c 0'],
          [6, 'c0', 'answer to fresh c 0'],
        ]);
        expect(await shown('p')).toEqual([
          [2, 'expired-2', 1],
          [6, 'expired-6', 2],
          [7, 'p2', 'fresh p 2'],
          [8, 'p2', 'answer to fresh p 2'],
        ]);
        const states = await sql<{ n: number | string }>`select count(*) as n from ${sql.table(
          `${harness.prefix}history_states`,
        )} where thread_id = 'c'`.execute(harness.raw);
        expect(Number(states.rows[0]?.n)).toBe(0);
        expect(JSON.stringify((await store.getHistory('c')).messages)).not.toContain('old p');
        await checkSurvivor(store, 'p', 3);
        await checkSurvivor(store, 'b', 2);
        await checkSurvivor(store, 'c', 2);
        await expirer.store.close();
        await store.close();
      },
      60_000,
    );
  }

  // (3) A history state folded from a read that an expiry overtook is not stored: the state
  // writer is held between its read and its transaction (at its fetch of the thread's key, the
  // one step between them: an encrypted store), an expiry of the thread, or of the thread its
  // fork reads, commits meanwhile, then the writer goes on. It must find the thread's update time
  // moved and write nothing. Fails when the `updated_at` check in write-state.ts is removed: the
  // fold ends with the same row (the expiry removes none at the end) so nothing else stops it, the
  // state is stored, and the history read through it shows the removed turn again.
  for (const which of ['a fork of the thread expired', 'the thread expired'] as const) {
    it.skipIf(!available.includes(name))(
      `a history state of ${which}, read before the expiry and written after it, is not stored`,
      async () => {
        const harness = await newHarness(name);
        const keys = heldKeys(createMemoryKeyProvider(), 'newest');
        const { store } = watchedStore(harness, {
          encryption: { keys: keys.provider },
          snapshotMinRows: 1000,
        });
        await store.appendTurn('p', qa('p0', 'old p 0'), at(0));
        await store.appendTurn('p', qa('p1', 'fresh p 1'), at(9));
        await store.forkThread('p', { atSeq: 4, newThreadId: 'f' });
        await store.appendTurn('f', qa('f0', 'fresh f 0'), at(9));
        const target = which === 'the thread expired' ? 'p' : 'f';
        const hold = keys.hold();
        const writing = store.writeHistorySnapshot(target);
        await hold.fetched;
        expect(await store.expire({ before: OLD })).toMatchObject({ threads: 1, turns: 1 });
        hold.release();
        expect(await writing).toBeUndefined();
        const states = await sql<{ n: number | string }>`select count(*) as n from ${sql.table(
          `${harness.prefix}history_states`,
        )} where thread_id = ${target}`.execute(harness.raw);
        expect(Number(states.rows[0]?.n)).toBe(0);
        expect(JSON.stringify((await store.getHistory(target)).messages)).not.toContain('old p');
        await checkSurvivor(store, target, 1);
        // A state written now, from a read after the expiry, is stored.
        expect(await store.writeHistorySnapshot(target)).toBe(target === 'p' ? 4 : 6);
        expect(JSON.stringify((await store.getHistory(target)).messages)).not.toContain('old p');
        await store.close();
      },
      60_000,
    );
  }
});
