import type { Kysely } from 'kysely';
import { decodeRows, ROW_COLUMNS, type SelectedRow } from './codec.js';
import type { StoreContext } from './context.js';
import {
  type HistoryFound,
  type HistoryPlan,
  joinsCleanly,
  nodeCrypto,
  planHistory,
  type RowMark,
  SNAPSHOT_COLUMNS,
  type SnapshotRecord,
  usableSnapshots,
} from './history-snapshots.js';
import { isMissingSchema } from './not-migrated.js';
import { PreparedQuery } from './prepared.js';
import type { DecodedRows } from './queries/get-rows.js';
import type { StoreTables } from './tables.js';
import { type SelectedThread, selectThread } from './threads.js';
import { writeTransaction } from './transaction.js';
import type { CorruptRowPolicy, HistoryRead } from './types.js';

// History snapshots through the application's Kysely (PostgreSQL, MySQL/MariaDB, a SQLite Kysely):
// the same snapshots and rules as on the store's own SQLite connection (history-snapshots.ts).
// A thread without snapshots is read in one statement (its rows and version), one with
// snapshots in one REPEATABLE READ transaction (notes/0078, 0079). Snapshots are written afterwards,
// in a write transaction that holds the thread's lock and writes only if the thread is as the read
// saw it.

/** A history read through Kysely: what it gives, or `'no-thread'`. */
export type PooledHistory =
  | { readonly history: HistoryRead; readonly read: number }
  | 'no-thread'
  | undefined;

/** Thrown inside the read transaction to roll it back when the snapshots table is missing. */
class NotMigrated extends Error {}

/**
 * Reads a thread for a cold rebuild through the store's Kysely, in one snapshot of the database:
 * the messages of its older turns from the history snapshots, and the rows after them (a
 * `REPEATABLE READ` transaction); without snapshots, its rows (one statement, which also reads
 * the thread's version). What it gives always groups to what grouping all the thread's rows
 * gives. When at least `snapshotMinRows` rows of whole turns follow the snapshots, it then writes
 * more (and replaces those it could not use) in a write transaction that locks the thread and
 * writes nothing when the thread's `next_seq` or `updated_at` moved since the read: every write of
 * rows moves them. A failed write is dropped: the read has its answer already.
 *
 * @param ctx - the store (not on its own SQLite connection: see `readHistoryDirect` there)
 * @param threadId - the thread
 * @param policy - what a corrupt row does (a read that skipped one writes no snapshot)
 * @returns the read; `'no-thread'` when the thread does not exist; undefined when snapshots are
 *   not used here (turned off, no `node:crypto`, or the table is missing: read rows instead)
 */
export async function readHistoryPooled(
  ctx: StoreContext,
  threadId: string,
  policy: CorruptRowPolicy,
): Promise<PooledHistory> {
  const minRows = ctx.snapshotMinRows;
  const c = nodeCrypto();
  if (ctx.direct !== undefined || minRows === false || c === undefined) return undefined;
  // First one statement, outside any transaction: the thread's rows with its version, unless it
  // has snapshots. One statement sees one snapshot of the database, so a thread without snapshots
  // (every short thread, and a long one until its first whole-thread read) costs what reading its
  // rows costs, and the version a snapshot write checks is the one its rows were read at.
  let plain: Plain;
  try {
    plain = await rowsUnlessSnapshots(ctx, threadId, policy);
  } catch (error) {
    if (isMissingSchema(error)) return undefined;
    throw error;
  }
  let found: Awaited<ReturnType<typeof readInTransaction>>;
  if (plain.thread !== undefined) {
    found = {
      read: { usable: undefined, stale: false, rows: plain.rows, migrated: true, minRows },
      thread: plain.thread,
    };
  } else {
    // No row: a missing or empty thread (a new chat's first read), or one with snapshots.
    const head = await threadHead(ctx, threadId);
    if (head === undefined) return 'no-thread';
    if (!head.hasSnapshots && Number(head.next_seq) === 1) {
      return { history: { messages: [], turnIds: [], rows: [] }, read: 0 };
    }
    // Snapshots, or rows stored since the first statement: one snapshot of the database.
    found = await readInTransaction(ctx, c, threadId, policy, minRows);
  }
  if (found === 'not-migrated') return undefined;
  if (found === undefined) return 'no-thread';
  // Grouped and serialized after the read's transaction has ended, not while it holds a connection.
  const plan = planHistory(ctx, c, threadId, found.read);
  if (plan.deleteAll || plan.inserts.length > 0)
    await writeSnapshots(ctx, threadId, plan, found.thread);
  return { history: plan.history, read: plan.read };
}

/** The version a snapshot write compares under the thread's lock: every write of rows moves it. */
type ThreadVersion = Pick<SelectedThread, 'next_seq' | 'updated_at'>;

/** A row with the version of its thread, read in the same statement. */
type VersionedRecord = SelectedRow & {
  readonly thread_next_seq: unknown;
  readonly thread_updated_at: unknown;
};

/** The rows of a thread without snapshots, and the thread's version (undefined: no row read). */
interface Plain {
  readonly rows: DecodedRows;
  readonly thread: ThreadVersion | undefined;
}

/** `[threadId]` → the thread's rows and version, or no row when it has snapshots; per store. */
const plainReads = new WeakMap<StoreContext, PreparedQuery<VersionedRecord>>();

/** The thread's rows, each with the thread's version, when the thread has no snapshot. */
async function rowsUnlessSnapshots(
  ctx: StoreContext,
  threadId: string,
  policy: CorruptRowPolicy,
): Promise<Plain> {
  let query = plainReads.get(ctx);
  if (query === undefined) {
    const threads = ctx.threads;
    query = new PreparedQuery<VersionedRecord>((db, arg) =>
      db
        .selectFrom(ctx.names.chunks as 'chunks')
        .select(ROW_COLUMNS)
        .select((eb) => [
          eb
            .selectFrom(threads)
            .select('next_seq')
            .where('id', '=', arg<string>(0))
            .as('thread_next_seq'),
          eb
            .selectFrom(threads)
            .select('updated_at')
            .where('id', '=', arg<string>(0))
            .as('thread_updated_at'),
        ])
        .where('thread_id', '=', arg<string>(0))
        .where((eb) => eb.not(eb.exists(snapshotOf(ctx, arg<string>(0)))))
        .orderBy('seq'),
    );
    plainReads.set(ctx, query);
  }
  const records = (await query.execute(ctx.db, [threadId])).rows;
  const first = records[0];
  return {
    rows: { rows: decodeRows(threadId, records, policy), read: records.length },
    thread:
      first === undefined
        ? undefined
        : { next_seq: first.thread_next_seq, updated_at: first.thread_updated_at },
  };
}

/** A subquery that finds a snapshot of the thread (for `EXISTS`). */
function snapshotOf(ctx: StoreContext, threadId: string) {
  return ctx.db
    .selectFrom(ctx.names.snapshots as 'snapshots')
    .select('thread_id')
    .where('thread_id', '=', threadId);
}

/** A thread's version and whether it has snapshots. */
interface ThreadHead extends ThreadVersion {
  readonly hasSnapshots: boolean;
}

/** The thread's version and whether it has snapshots, in one statement; undefined: no thread. */
async function threadHead(ctx: StoreContext, threadId: string): Promise<ThreadHead | undefined> {
  const row = await ctx.db
    .selectFrom(ctx.threads)
    .select(['next_seq', 'updated_at'])
    .select((eb) => eb.exists(snapshotOf(ctx, threadId)).as('has_snapshots'))
    .where('id', '=', threadId)
    .executeTakeFirst();
  if (row === undefined) return undefined;
  // PostgreSQL gives a boolean, MySQL and SQLite 0 or 1.
  const has: unknown = row.has_snapshots;
  return {
    next_seq: row.next_seq,
    updated_at: row.updated_at,
    hasSnapshots: has === true || Number(has) === 1,
  };
}

/**
 * A thread with snapshots, read in one REPEATABLE READ transaction (a deferred `BEGIN` on a
 * SQLite Kysely): its version, its snapshots, what checking them needs of the rows, and the
 * rows after the usable ones. `'not-migrated'` when the snapshots table is missing.
 */
async function readInTransaction(
  ctx: StoreContext,
  c: NonNullable<ReturnType<typeof nodeCrypto>>,
  threadId: string,
  policy: CorruptRowPolicy,
  minRows: number,
): Promise<
  { readonly read: HistoryFound; readonly thread: ThreadVersion } | 'not-migrated' | undefined
> {
  try {
    const builder = ctx.db.transaction();
    return await (ctx.adapter.name === 'sqlite'
      ? builder
      : builder.setIsolationLevel('repeatable read')
    ).execute(async (trx) => {
      // The first statement: PostgreSQL and MySQL take the transaction's snapshot here.
      const thread = await selectThread(ctx, trx, threadId, false);
      if (thread === undefined) return undefined;
      let records: SnapshotRecord[];
      try {
        records = await snapshotsOf(ctx, trx, threadId);
      } catch (error) {
        // PostgreSQL has aborted the transaction: roll it back, and read rows instead.
        if (isMissingSchema(error)) throw new NotMigrated();
        throw error;
      }
      let usable =
        records.length === 0
          ? undefined
          : usableSnapshots(c, await probeRows(ctx, trx, threadId, records), threadId, records);
      let stale = records.length > 0 && usable === undefined;
      let rows = await decodedRowsAfter(ctx, trx, threadId, usable?.last ?? 0, policy);
      if (usable !== undefined && !joinsCleanly(usable.bodies, rows.rows)) {
        stale = true;
        usable = undefined;
        rows = await decodedRowsAfter(ctx, trx, threadId, 0, policy);
      }
      return { read: { usable, stale, rows, migrated: true, minRows }, thread };
    });
  } catch (error) {
    if (error instanceof NotMigrated) return 'not-migrated';
    throw error;
  }
}

/** The thread's snapshots, oldest first. */
async function snapshotsOf(
  ctx: StoreContext,
  db: Kysely<StoreTables>,
  threadId: string,
): Promise<SnapshotRecord[]> {
  return await db
    .selectFrom(ctx.names.snapshots as 'snapshots')
    .select(SNAPSHOT_COLUMNS)
    .where('thread_id', '=', threadId)
    .orderBy('first_seq')
    .execute();
}

/**
 * What checking `records` needs of the rows, read in two queries: whether a row precedes the
 * first snapshot, and the rows at each snapshot's last seq.
 */
async function probeRows(
  ctx: StoreContext,
  db: Kysely<StoreTables>,
  threadId: string,
  records: readonly SnapshotRecord[],
): Promise<{ rowBefore(seq: number): boolean; rowAt(seq: number): RowMark | undefined }> {
  const first = Number((records[0] as SnapshotRecord).first_seq);
  const lasts = records.map((r) => Number(r.last_seq)).filter((n) => Number.isSafeInteger(n));
  const before = await db
    .selectFrom(ctx.names.chunks as 'chunks')
    .select('seq')
    .where('thread_id', '=', threadId)
    .where('seq', '<', Number.isSafeInteger(first) ? first : 0)
    .limit(1)
    .execute();
  const at =
    lasts.length === 0
      ? []
      : await db
          .selectFrom(ctx.names.chunks as 'chunks')
          .select(['seq', 'turn_id', 'created_at'])
          .where('thread_id', '=', threadId)
          .where('seq', 'in', lasts)
          .execute();
  const bySeq = new Map<number, RowMark>(at.map((r) => [Number(r.seq), r]));
  return {
    rowBefore: () => before.length > 0,
    rowAt: (seq) => bySeq.get(seq),
  };
}

/** The rows after `afterSeq`, decoded, in the read's transaction. */
async function decodedRowsAfter(
  ctx: StoreContext,
  db: Kysely<StoreTables>,
  threadId: string,
  afterSeq: number,
  policy: CorruptRowPolicy,
): Promise<DecodedRows> {
  const records = (await ctx.statements.rowsAfter.execute(db, [threadId, afterSeq])).rows;
  return { rows: decodeRows(threadId, records, policy), read: records.length };
}

/**
 * Writes what `plan` calls for, if the thread is still as `seen` (its `next_seq` and
 * `updated_at` under its lock): otherwise rows were written, truncated or moved since the read,
 * and the next whole-thread read decides again. Snapshots past the used ones (written meanwhile
 * by another reader of the same rows) are replaced. Errors are dropped.
 */
async function writeSnapshots(
  ctx: StoreContext,
  threadId: string,
  plan: HistoryPlan,
  seen: ThreadVersion,
): Promise<void> {
  const snapshots = ctx.names.snapshots as 'snapshots';
  const from = plan.inserts[0]?.first_seq;
  try {
    await writeTransaction(
      ctx,
      async (trx) => {
        const now = (await ctx.statements.lockThread.execute(trx, [threadId])).rows[0];
        if (
          now === undefined ||
          Number(now.next_seq) !== Number(seen.next_seq) ||
          Number(now.updated_at) !== Number(seen.updated_at)
        ) {
          return;
        }
        if (plan.deleteAll) {
          await trx.deleteFrom(snapshots).where('thread_id', '=', threadId).execute();
        } else if (from !== undefined) {
          await trx
            .deleteFrom(snapshots)
            .where('thread_id', '=', threadId)
            .where('first_seq', '>=', from)
            .execute();
        }
        for (const row of plan.inserts) await trx.insertInto(snapshots).values(row).execute();
      },
      { what: 'getHistory (writing a history snapshot)', threadId },
    );
  } catch {
    // The snapshot is only a faster way to read: the read stands, and a later one writes it.
  }
}
