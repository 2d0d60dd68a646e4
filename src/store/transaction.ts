import {
  CompiledQuery,
  type ControlConnectionProvider,
  type DatabaseConnection,
  type Kysely,
  sql,
} from 'kysely';
import { type Backoff, backoffDelay, sleep } from '../errors/backoff.js';
import { ChunklogError } from '../errors/chunklog-error.js';
import type { StoreContext } from './context.js';
import { Deadline, DeadlineReached, storeTimeout } from './deadline.js';
import {
  isConnectionLost,
  isLockConflict,
  LOST_CONNECTION_ATTEMPTS,
  retryDelay,
} from './faults.js';
import type { StoreTables } from './tables.js';

/** Attempts of a transaction rolled back by a lock conflict. */
const MAX_ATTEMPTS = 8;

/** The wait between two tries at SQLite's write lock: 2 ms, doubling to 50 ms, jittered. */
const BUSY_BACKOFF: Backoff = { initialMs: 2, maxMs: 50, jitter: true };

/** Options of {@link writeTransaction}. */
export interface WriteOptions {
  /** The operation, for error messages (`appendTurn`). */
  readonly what: string;
  /** The thread written, for error messages. */
  readonly threadId?: string | undefined;
  /**
   * Whether `work` can be run again after its COMMIT was sent and the answer lost: `work`
   * finds what the lost attempt stored and stores nothing twice (appendTurn, by turn id). The
   * retry then tells whether the first attempt was applied.
   */
  readonly idempotent?: boolean | undefined;
}

/**
 * Thrown by a transaction's `work` to roll it back and hand a decision to the caller (for
 * example "this turn is stored already: read it instead"). It is not a failure: it is passed on
 * as it is, never retried nor reported as an unknown outcome.
 */
export class RollbackDecision extends Error {}

/** What one attempt got to, for deciding what its failure means. */
interface Attempt {
  /** Whether COMMIT was sent: from then on a lost connection leaves the outcome unknown. */
  commitSent: boolean;
  /** The attempt's connection, to end its session on the server when the deadline passes. */
  connection: DatabaseConnection | undefined;
}

/**
 * Runs `work` in one write transaction that holds the thread's lock from its first statement:
 * on SQLite a `BEGIN IMMEDIATE` on the reserved connection (the file's write lock is taken up
 * front, see {@link beginImmediate}), elsewhere a `READ COMMITTED` transaction in which
 * `work` locks the thread row with `SELECT … FOR UPDATE`.
 *
 * What a failure means, and what is done about it:
 * - a lock conflict (deadlock, busy database) rolled the transaction back whole: it is tried
 *   again, a few times, with a jittered backoff;
 * - a lost connection before COMMIT was sent: the server rolls the transaction back; it is
 *   tried again on another connection (a database restart leaves stale pooled connections);
 * - a lost connection after COMMIT was sent: the outcome is unknown. An `idempotent` write is
 *   run again, which finds what was stored; any other fails with `store-failed` saying so;
 * - the store's `timeoutMs` passes: `store-timeout`. The transaction is not committed after
 *   that (its COMMIT is refused if it had not been sent) and its session on the server is
 *   ended, so that the thread's lock does not stay with a stalled connection.
 *
 * @throws {ChunklogError} `store-timeout`; `store-failed` for a lost COMMIT answer that could
 *   not be settled; the driver's error otherwise (the caller wraps it)
 */
export async function writeTransaction<T>(
  ctx: StoreContext,
  work: (trx: Kysely<StoreTables>) => Promise<T>,
  options: WriteOptions = { what: 'write' },
): Promise<T> {
  const deadline = new Deadline(ctx.timeoutMs);
  const timedOut = () => storeTimeout(options.what, options.threadId, ctx.timeoutMs, true);
  // Whether an attempt lost its connection after sending COMMIT: until an attempt succeeds,
  // whether that one was applied stays unknown.
  let uncertain = false;
  try {
    for (let attempt = 1; ; attempt++) {
      const state: Attempt = { commitSent: false, connection: undefined };
      try {
        return await deadline.race(runOnce(ctx, work, state, deadline));
      } catch (error) {
        if (error instanceof DeadlineReached) {
          endSession(ctx, state);
          throw timedOut();
        }
        if (ChunklogError.isInstance(error) || error instanceof RollbackDecision) throw error;
        const lost = isConnectionLost(error);
        uncertain ||= lost && state.commitSent;
        const again = isLockConflict(error)
          ? attempt < MAX_ATTEMPTS
          : lost && attempt < LOST_CONNECTION_ATTEMPTS && (!uncertain || options.idempotent);
        if (!again) throw uncertain ? outcomeUnknown(options, error) : error;
        try {
          await deadline.race(sleep(retryDelay(attempt, lost)));
        } catch {
          throw uncertain ? outcomeUnknown(options, error) : timedOut();
        }
      }
    }
  } finally {
    deadline.clear();
  }
}

/** The error of a write whose COMMIT was sent and whose answer was lost. */
function outcomeUnknown(options: WriteOptions, cause: unknown): ChunklogError {
  const where =
    options.threadId === undefined ? '' : ` on thread ${JSON.stringify(options.threadId)}`;
  const reason = cause instanceof Error ? cause.message : String(cause);
  const retry = options.idempotent
    ? ' The turn is stored whole or not at all: appendTurn with the same turn id stores it exactly once (or hasTurn tells).'
    : '';
  return new ChunklogError(
    'store-failed',
    `${options.what}${where} failed: the connection was lost while its COMMIT was on its way (${reason}), and the database could not be reached again to tell whether it was applied.${retry}`,
    { cause, threadId: options.threadId },
  );
}

/**
 * Ends the session of a stalled attempt on the server (PostgreSQL's `pg_terminate_backend`,
 * MySQL's `KILL`, over another connection), so that its transaction is rolled back and the
 * thread's lock released now rather than when the server notices the connection is gone.
 * Best effort, in the background: the caller already has its `store-timeout`.
 */
function endSession(ctx: StoreContext, state: Attempt): void {
  const connection = state.connection;
  if (connection?.killSession === undefined) return;
  const control: ControlConnectionProvider = (consumer) =>
    ctx.db.getExecutor().provideConnection(consumer);
  const kill = connection.killSession(control).catch(() => {});
  const limit = new Deadline(Math.min(ctx.timeoutMs, 10_000));
  void limit
    .race(kill)
    .catch(() => {})
    .finally(() => limit.clear());
}

/** How long a writer waits for SQLite's write lock before giving up, in milliseconds. */
const SQLITE_LOCK_WAIT_MS = 10_000;

/**
 * `BEGIN IMMEDIATE` without blocking the event loop: better-sqlite3 is synchronous, so its busy
 * handler would freeze the whole process while another connection (in this process or another)
 * holds the write lock, and the holder in this process could not finish. The connection's busy
 * timeout is set to 0 for the `BEGIN` and restored after it; a busy database is retried with
 * asynchronous, jittered sleeps.
 */
async function beginImmediate(
  ctx: StoreContext,
  conn: Kysely<StoreTables>,
  deadline: Deadline,
): Promise<void> {
  if (ctx.ownSqliteBusyMs !== undefined) {
    // The store's own connection runs with busy timeout 0 already: no pragma per transaction.
    await beginRetrying(conn, deadline, Math.max(ctx.ownSqliteBusyMs, SQLITE_LOCK_WAIT_MS));
    return;
  }
  // The connection's own busy timeout, read once per store: it is restored after the BEGIN.
  let previous = busyTimeouts.get(ctx);
  if (previous === undefined) {
    const rows = (await sql`pragma busy_timeout`.execute(conn)).rows as Array<
      Record<string, unknown>
    >;
    previous = Math.max(0, Math.trunc(Number(Object.values(rows[0] ?? {})[0] ?? 0)) || 0);
    busyTimeouts.set(ctx, previous);
  }
  await conn.executeQuery(NO_BUSY_TIMEOUT);
  try {
    await beginRetrying(conn, deadline, Math.max(previous, SQLITE_LOCK_WAIT_MS));
  } finally {
    await conn.executeQuery(restoreBusyTimeout(previous));
  }
}

/**
 * `BEGIN IMMEDIATE` on a connection whose busy timeout is 0, retried with asynchronous, jittered
 * sleeps while the database is busy, for up to `waitMs`.
 */
async function beginRetrying(
  conn: Kysely<StoreTables>,
  deadline: Deadline,
  waitMs: number,
): Promise<void> {
  const lockDeadline = Date.now() + waitMs;
  for (let attempt = 0; ; attempt++) {
    try {
      await conn.executeQuery(BEGIN_IMMEDIATE);
      return;
    } catch (error) {
      const code = (error as { code?: unknown } | null)?.code;
      if (code !== 'SQLITE_BUSY' || Date.now() >= lockDeadline || deadline.expired) throw error;
      await sleep(backoffDelay(BUSY_BACKOFF, attempt));
    }
  }
}

/** The busy timeout of each store's SQLite connection, as read on its first write. */
const busyTimeouts = new WeakMap<StoreContext, number>();

// SQLite's transaction statements, compiled once.
const BEGIN_IMMEDIATE = CompiledQuery.raw('begin immediate');
const COMMIT = CompiledQuery.raw('commit');
const ROLLBACK = CompiledQuery.raw('rollback');
const NO_BUSY_TIMEOUT = CompiledQuery.raw('pragma busy_timeout = 0');
const restores = new Map<number, CompiledQuery>();
function restoreBusyTimeout(ms: number): CompiledQuery {
  let query = restores.get(ms);
  if (query === undefined) {
    query = CompiledQuery.raw(`pragma busy_timeout = ${ms}`);
    restores.set(ms, query);
  }
  return query;
}

function runOnce<T>(
  ctx: StoreContext,
  work: (trx: Kysely<StoreTables>) => Promise<T>,
  state: Attempt,
  deadline: Deadline,
): Promise<T> {
  if (ctx.adapter.beginImmediate) {
    return byHand(ctx, work, state, deadline, (conn) => beginImmediate(ctx, conn, deadline));
  }
  const begin = ctx.adapter.beginWithTimeouts;
  if (begin !== undefined) {
    // By hand too, so that the BEGIN carries the server-side timeouts in the same round trip.
    return byHand(ctx, work, state, deadline, async (conn) => {
      await watchConnection(conn, state);
      await conn.executeQuery(begin(ctx.timeoutMs));
    });
  }
  const builder = ctx.db.transaction();
  const isolation = ctx.adapter.writeIsolation;
  return (isolation === undefined ? builder : builder.setIsolationLevel(isolation)).execute(
    async (trx) => {
      await watchConnection(trx, state);
      const result = await work(trx);
      if (deadline.expired) throw new DeadlineReached();
      // Kysely sends COMMIT as soon as this returns.
      state.commitSent = true;
      return result;
    },
  );
}

/**
 * Runs `work` in a transaction sent by hand on a reserved connection: `begin`, then COMMIT, or
 * ROLLBACK on any failure.
 */
function byHand<T>(
  ctx: StoreContext,
  work: (trx: Kysely<StoreTables>) => Promise<T>,
  state: Attempt,
  deadline: Deadline,
  begin: (conn: Kysely<StoreTables>) => Promise<void>,
): Promise<T> {
  return ctx.db.connection().execute(async (conn) => {
    await begin(conn);
    try {
      const result = await work(conn);
      // Past the deadline the caller has its store-timeout: this transaction must not commit.
      if (deadline.expired) throw new DeadlineReached();
      state.commitSent = true;
      const { rows } = await conn.executeQuery(COMMIT);
      // PostgreSQL answers COMMIT with a ROLLBACK tag when an earlier statement had failed.
      if ((rows[0] as { command?: unknown } | undefined)?.command === 'ROLLBACK') {
        throw new Error('the transaction was rolled back at COMMIT: an earlier statement failed');
      }
      return result;
    } catch (error) {
      try {
        await conn.executeQuery(ROLLBACK);
      } catch {
        // Rolled back already (SQLite after SQLITE_FULL), or the connection is gone: the server
        // rolls the transaction back, and the pool drops a client it can no longer query.
      }
      throw error;
    }
  });
}

/** Keeps the attempt's raw connection, to end its session on the server if it stalls. */
async function watchConnection(db: Kysely<StoreTables>, state: Attempt): Promise<void> {
  const connection = await db.getExecutor().provideConnection(async (c) => c);
  await connection.collectSessionInfo?.();
  state.connection = connection;
}
