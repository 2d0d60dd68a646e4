import { type Kysely, sql } from 'kysely';
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
async function beginImmediate(conn: Kysely<StoreTables>): Promise<void> {
  const rows = (await sql`pragma busy_timeout`.execute(conn)).rows as Array<
    Record<string, unknown>
  >;
  const previous = Number(Object.values(rows[0] ?? {})[0] ?? 0);
  await sql.raw('pragma busy_timeout = 0').execute(conn);
  try {
    const deadline = Date.now() + Math.max(previous, SQLITE_LOCK_WAIT_MS);
    for (let attempt = 0; ; attempt++) {
      try {
        await sql`begin immediate`.execute(conn);
        return;
      } catch (error) {
        const code = (error as { code?: unknown } | null)?.code;
        if (code !== 'SQLITE_BUSY' || Date.now() >= deadline) throw error;
        await sleep(1 + Math.random() * Math.min(50, 2 ** attempt));
      }
    }
  } finally {
    await sql.raw(`pragma busy_timeout = ${Math.trunc(previous)}`).execute(conn);
  }
}

function runOnce<T>(ctx: StoreContext, work: (trx: Kysely<StoreTables>) => Promise<T>): Promise<T> {
  if (ctx.adapter.beginImmediate) {
    return ctx.db.connection().execute(async (conn) => {
      await beginImmediate(conn);
      try {
        const result = await work(conn);
        await sql`commit`.execute(conn);
        return result;
      } catch (error) {
        try {
          await sql`rollback`.execute(conn);
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
