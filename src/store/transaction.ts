import { CompiledQuery, type Kysely, sql } from 'kysely';
import type { StoreContext } from './context.js';
import type { StoreTables } from './tables.js';

const MAX_ATTEMPTS = 8;

/** Whether a failed write transaction can simply be run again (it was rolled back whole). */
function isRetryable(error: unknown): boolean {
  const e = error as { code?: unknown; errno?: unknown } | null;
  if (e === null || typeof e !== 'object') return false;
  // SQLite: the write lock was not free within the busy timeout.
  if (e.code === 'SQLITE_BUSY' || e.code === 'SQLITE_BUSY_SNAPSHOT') return true;
  // PostgreSQL: deadlock detected, serialization failure.
  if (e.code === '40P01' || e.code === '40001') return true;
  // MySQL/MariaDB: deadlock, lock wait timeout.
  if (e.errno === 1213 || e.errno === 1205) return true;
  return false;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs `work` in one write transaction that holds the thread's lock from its first statement:
 * on SQLite a `BEGIN IMMEDIATE` on the reserved connection (the file's write lock is taken up
 * front, see {@link beginImmediate}), elsewhere a `READ COMMITTED` transaction in which
 * `work` locks the thread row with `SELECT … FOR UPDATE`. A deadlock or a busy database rolls
 * the whole transaction back, and it is tried again (a few times, with a jittered backoff).
 */
export async function writeTransaction<T>(
  ctx: StoreContext,
  work: (trx: Kysely<StoreTables>) => Promise<T>,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await runOnce(ctx, work);
    } catch (error) {
      if (attempt >= MAX_ATTEMPTS || !isRetryable(error)) throw error;
      await sleep(Math.random() * 10 * 2 ** Math.min(attempt, 6));
    }
  }
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
async function beginImmediate(ctx: StoreContext, conn: Kysely<StoreTables>): Promise<void> {
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
    const deadline = Date.now() + Math.max(previous, SQLITE_LOCK_WAIT_MS);
    for (let attempt = 0; ; attempt++) {
      try {
        await conn.executeQuery(BEGIN_IMMEDIATE);
        return;
      } catch (error) {
        const code = (error as { code?: unknown } | null)?.code;
        if (code !== 'SQLITE_BUSY' || Date.now() >= deadline) throw error;
        await sleep(1 + Math.random() * Math.min(50, 2 ** attempt));
      }
    }
  } finally {
    await conn.executeQuery(restoreBusyTimeout(previous));
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

function runOnce<T>(ctx: StoreContext, work: (trx: Kysely<StoreTables>) => Promise<T>): Promise<T> {
  if (ctx.adapter.beginImmediate) {
    return ctx.db.connection().execute(async (conn) => {
      await beginImmediate(ctx, conn);
      try {
        const result = await work(conn);
        await conn.executeQuery(COMMIT);
        return result;
      } catch (error) {
        try {
          await conn.executeQuery(ROLLBACK);
        } catch {
          // SQLite may have rolled back already (for example after SQLITE_FULL).
        }
        throw error;
      }
    });
  }
  const builder = ctx.db.transaction();
  const isolation = ctx.adapter.writeIsolation;
  return (isolation === undefined ? builder : builder.setIsolationLevel(isolation)).execute(work);
}
