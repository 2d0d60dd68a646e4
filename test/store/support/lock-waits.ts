// Waiting for a row lock, as the race tests see it from outside: whether a statement on a
// harness's tables waits for a lock now, and a wait until an operation settles or does.
import { sql } from 'kysely';
import type { DialectHarness } from './dialects.js';

/** Which MariaDB statements count as waiting (it does not always list a row-lock wait as one). */
export interface LockWaitOptions {
  /**
   * Only a `FOR UPDATE` counts: a locking read of one row waits in the optimizer (state
   * "Statistics") and is not listed as a lock wait. Default: any statement on the tables.
   */
  readonly forUpdateOnly?: boolean;
}

/**
 * Whether a statement on the harness's tables waits for a row lock now: on PostgreSQL one
 * waiting for a lock; on MariaDB one in progress for 100 ms or more (nothing else runs on the
 * tables while a case holds its statement, and one that does not wait takes a millisecond). A
 * slower statement only makes a case weaker, never wrong: the rows are checked either way.
 */
export async function waitsForLock(
  harness: DialectHarness,
  options: LockWaitOptions = {},
): Promise<boolean> {
  const like = `%${harness.prefix}%`;
  const query =
    harness.name === 'postgres'
      ? sql<{ n: number | string }>`select count(*) as n from pg_stat_activity
          where wait_event_type = 'Lock' and query like ${like}`
      : sql<{ n: number | string }>`select count(*) as n from information_schema.processlist
          where command = 'Query' and time_ms >= 100
          and info like ${options.forUpdateOnly ? `${like}for update%` : like}`;
  const { rows } = await query.execute(harness.raw);
  return Number(rows[0]?.n) > 0;
}

/** Resolves once `op` settled or waits for a row lock (polled; no time is asserted). */
export async function settledOrWaiting(
  harness: DialectHarness,
  op: Promise<unknown>,
  options: LockWaitOptions = {},
): Promise<void> {
  let settled = false;
  const done = () => {
    settled = true;
  };
  op.then(done, done);
  while (!settled && !(await waitsForLock(harness, options))) {
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
