import type { InsertQueryBuilder, Kysely, QueryCreator, QueryResult } from 'kysely';
import { ChunklogError } from '../errors/chunklog-error.js';
import type { ChunkRowDraft } from '../schema/chunk-row.js';
import { TURN_STATUSES, type TurnStatus, TurnStatusSchema } from '../schema/turn-status.js';
import { asString, ROW_COLUMNS, ROW_FORMAT_VERSION, type SelectedRow } from './codec.js';
import type { StoreDialectAdapter } from './dialects/adapter.js';
import { PreparedQuery, preparedPerCount } from './prepared.js';
import type { ChunkRecord, StoreTables, TurnRecord, UsageRecord } from './tables.js';
import { type SelectedThread, THREAD_COLUMNS } from './threads.js';
import { MAX_SEQ } from './validate.js';

/** The statuses of a turn that is not `completed`. */
const OPEN_STATUSES: readonly TurnStatus[] = TURN_STATUSES.filter((s) => s !== 'completed');

/**
 * The statuses of a page's turns that are not `completed`, by turn id, from its rows'
 * `turn_status` (undefined when every turn is completed).
 */
export function pageTurnStatus(
  records: ReadonlyArray<{ readonly turn_id: unknown; readonly turn_status: unknown }>,
): Record<string, TurnStatus> | undefined {
  let statuses: Record<string, TurnStatus> | undefined;
  for (const record of records) {
    const status = record.turn_status;
    if (status === null || status === undefined) continue;
    const parsed = TurnStatusSchema.safeParse(asString(status));
    if (!parsed.success) continue;
    statuses ??= {};
    statuses[asString(record.turn_id)] = parsed.data;
  }
  return statuses;
}

/**
 * The statuses of turns read from the turns table (`turn_id`, `status`), by turn id, the ones
 * `keep` accepts; a status that is not one is left out. Undefined when none is left.
 */
export function turnStatuses(
  records: ReadonlyArray<{ readonly turn_id: unknown; readonly status: unknown }>,
  keep?: (turnId: string) => boolean,
): Record<string, TurnStatus> | undefined {
  let statuses: Record<string, TurnStatus> | undefined;
  for (const record of records) {
    const turnId = asString(record.turn_id);
    if (keep !== undefined && !keep(turnId)) continue;
    const parsed = TurnStatusSchema.safeParse(asString(record.status));
    if (!parsed.success) continue;
    statuses ??= {};
    statuses[turnId] = parsed.data;
  }
  return statuses;
}

/** Rows per prepared multi-row insert variant; larger batches are built as they come. */
const PREPARED_INSERT_ROWS = 64;

/** The columns of an inserted row, in order: the thread, then the columns a row is read with. */
export const INSERT_COLUMNS: ReadonlyArray<keyof ChunkRecord> = ROW_COLUMNS;

/** The columns a step's usage is read with, in order. */
export const USAGE_READ_COLUMNS: ReadonlyArray<keyof UsageRecord> = [
  'turn_id',
  'step',
  'model_id',
  'finish_reason',
  'input_tokens',
  'output_tokens',
  'reasoning_tokens',
  'cache_read_tokens',
  'cache_write_tokens',
  'total_tokens',
  'duration_ms',
];

/** The columns of a usage row, in the order `insertUsage` binds them. */
const USAGE_COLUMNS = [
  'thread_id',
  ...USAGE_READ_COLUMNS,
  'created_at',
] as const satisfies ReadonlyArray<keyof UsageRecord>;

/**
 * A usage insert that keeps the steps recorded already (the usage primary key is the thread,
 * the turn and the step), as the dialect says it.
 */
function keepingRecordedSteps(
  insert: InsertQueryBuilder<StoreTables, 'usage', unknown>,
  adapter: StoreDialectAdapter,
): InsertQueryBuilder<StoreTables, 'usage', unknown> {
  return adapter.insertIgnore === 'on-conflict-do-nothing'
    ? insert.onConflict((oc) => oc.columns(['thread_id', 'turn_id', 'step']).doNothing())
    : insert.onDuplicateKeyUpdate((eb) => ({ step: eb.ref('step') }));
}

/** A page row: a row, the thread's next seq and its turn's status, read in the same statement. */
export type PageRow = SelectedRow & {
  readonly thread_next_seq: unknown;
  /** The status of the row's turn when it is not `completed`, else null. */
  readonly turn_status: unknown;
  /** The thread's oldest own row (forward pages only, see `ForwardChunkPage.threadStart`). */
  readonly first_seq?: unknown;
  readonly first_turn_id?: unknown;
  readonly first_created_at?: unknown;
};

/** The queries on the hot paths (appendTurn, getChunks), prepared once per store. */
export interface StoreStatements {
  /** `[threadId]` → the thread, locked for the transaction where the dialect locks rows. */
  readonly lockThread: PreparedQuery<SelectedThread>;
  /**
   * `[threadId]` → what the thread is in its conversation: `conversation_id` (on an alternative)
   * and `active_id` (on a conversation whose active path is another thread); no row when the
   * thread does not exist. Read before every turn (`activePath`).
   */
  readonly conversationOf: PreparedQuery<{
    readonly conversation_id: unknown;
    readonly active_id: unknown;
  }>;
  /**
   * `[threadId, turnId, threadId]` → the thread, and `turn_first`: the first seq of the turn when
   * it is stored (for dialects where {@link StoreDialectAdapter.checkTurnWithLock}).
   */
  readonly threadAndTurn: PreparedQuery<SelectedThread & { readonly turn_first: unknown }>;
  /** `[threadId, turnId]` → the turn's stored rows, in seq order. */
  readonly turnRows: PreparedQuery<SelectedRow>;
  /** `[nextSeq, updatedAt, threadId]`. */
  readonly advanceThread: PreparedQuery<unknown>;
  /** `[threadId, threadId, limit]` → the newest rows, descending, with the next seq. */
  readonly pageTail: PreparedQuery<PageRow>;
  /** `[threadId, threadId, before, limit]` → the newest rows below `before`, descending. */
  readonly pageBefore: PreparedQuery<PageRow>;
  /**
   * `[threadId, threadId, after, limit]` → the oldest rows above `after`, ascending, with the
   * thread's oldest own row (`first_seq`, `first_turn_id`, `first_created_at`).
   */
  readonly pageAfter: PreparedQuery<PageRow>;
  /** `[threadId, afterSeq]` → the rows above `afterSeq`, ascending. */
  readonly rowsAfter: PreparedQuery<SelectedRow>;
  /** `[threadId, turnId]` → one row (its seq) when the turn is stored, none otherwise. */
  readonly turnExists: PreparedQuery<{ readonly seq: unknown }>;
  /**
   * `[count, updatedAt, threadId]` → the thread's `next_seq` after moving it `count` past where
   * it was (so the rows start at `next_seq - count`), the row locked for the transaction. Only
   * where {@link StoreDialectAdapter.updateReturning}; no row when the thread does not exist.
   */
  readonly advanceThreadBy: PreparedQuery<AdvancedThread>;
  /**
   * `[next, status, updatedAt, threadId, turnId, first]`: moves a running turn whose rows end at
   * `first` (its `next_seq`) to `next`, with `status`. Updates nothing otherwise: a turn that is
   * missing, not running, or not last in its thread (its rows would no longer be contiguous).
   */
  readonly advanceTurn: PreparedQuery<unknown>;
  /**
   * `[threadId, newestSeq, oldestSeq]` → the turns of that seq range that are not completed:
   * `turn_id`, `status` (a page's `turnStatus`).
   */
  readonly openTurns: PreparedQuery<{ readonly turn_id: unknown; readonly status: unknown }>;
  /** `[next, status, updatedAt, threadId, turnId]`: sets a running turn's status, no rows added. */
  readonly endTurn: PreparedQuery<unknown>;
  /**
   * `[next, updatedAt, threadId, threadId, turnId, first]`: advances the thread to `next` unless
   * rows of the turn are stored below `first` (a turn stored before: nothing is updated).
   */
  readonly advanceThreadIfNew: PreparedQuery<unknown>;
  /** Inserts a turn's rows with seqs from `rows.first`. */
  insertRows(db: Kysely<StoreTables>, rows: TurnRows): Promise<void>;
  /**
   * Inserts usage rows in one statement (prepared, for the few steps of a turn); a step already
   * recorded for the turn is kept as it is (a retry is safe).
   */
  insertUsage(db: Kysely<StoreTables>, records: readonly UsageRecord[]): Promise<unknown>;
  /**
   * Where {@link StoreDialectAdapter.writableCte} and the rows fit one prepared insert: inserts
   * the rows and, in the same statement, either advances the turn as {@link advanceTurn} does
   * (`then.advanceTurn`: its arguments; the result's `numAffectedRows` tells whether it matched)
   * or reads the first seq of the turn's rows stored before this statement (`then: 'checkTurn'`:
   * one row, `turn_first`, null for a new turn), and with `then.beginTurn` (the values of the
   * turn's row, in {@link TURN_COLUMNS} order) also inserts the turn's row unless one exists
   * (`begun`: 1 when it was inserted, 0 when it existed). Undefined when the dialect or the row
   * count does not allow it: the caller sends the statements one by one.
   */
  insertRowsThen(
    db: Kysely<StoreTables>,
    rows: TurnRows,
    then:
      | { readonly advanceTurn: readonly unknown[] }
      | 'checkTurn'
      | { readonly beginTurn: readonly unknown[] },
  ): Promise<QueryResult<InsertThenRow>> | undefined;
}

/** What `advanceThreadBy` returns: the thread's new next seq, and its origin's columns. */
export type AdvancedThread = { readonly next_seq: unknown } & Pick<
  SelectedThread,
  'id' | 'parent_id' | 'fork_seq' | 'fork_path' | 'key_version'
>;

/** A turn's rows as `insertRows` and `insertRowsThen` write them: checked drafts and their data. */
export interface TurnRows {
  readonly threadId: string;
  readonly turnId: string;
  /** The seq of the first row; the others follow it. */
  readonly first: number;
  readonly drafts: readonly ChunkRowDraft[];
  /** Each draft's data, serialized (and sealed, when the store encrypts). */
  readonly data: readonly string[];
  /** The rows' `created_at` (ms). */
  readonly at: number;
}

/** The row a check made with the insert returns (see `insertRowsThen`). */
export interface InsertThenRow {
  readonly turn_first?: unknown;
  readonly begun?: unknown;
}

/** The columns of a turn's row: as it is read, and as `insertRowsThen` inserts it (`then.beginTurn`). */
export const TURN_COLUMNS = [
  'thread_id',
  'turn_id',
  'status',
  'first_seq',
  'next_seq',
  'created_at',
  'updated_at',
  'holder',
] as const;

/**
 * Checks that the rows leave the thread's next seq within `MAX_SEQ`, the largest a seq column
 * holds on PostgreSQL and MySQL (which refuse such a write themselves); SQLite would store rows
 * above it, out of every page's reach.
 *
 * @throws {ChunklogError} `store-failed` naming the thread and the limit
 */
function checkRoom({ threadId, first, drafts }: TurnRows): void {
  if (first + drafts.length <= MAX_SEQ) return;
  throw new ChunklogError(
    'store-failed',
    `Thread ${JSON.stringify(threadId)} has no room for ${drafts.length} rows from seq ${first}: its next seq would pass ${MAX_SEQ}, the largest a thread holds.`,
    { threadId, value: first },
  );
}

/** A turn's rows as insert parameters, in {@link INSERT_COLUMNS} order, row after row. */
function rowArgs(rows: TurnRows, start: number, end: number): unknown[] {
  const { threadId, turnId, first, drafts, data, at } = rows;
  const args: unknown[] = [];
  for (let i = start; i < end; i++) {
    const d = drafts[i] as ChunkRowDraft;
    // INSERT_COLUMNS: thread_id, seq, turn_id, step, role, type, data, created_at, version.
    args.push(threadId, first + i, turnId, d.step, d.role, d.type, data[i], at, ROW_FORMAT_VERSION);
  }
  return args;
}

/** Prepares the store's hot queries (on its logical table names: see `TableNamesPlugin`). */
export function createStatements(adapter: StoreDialectAdapter): StoreStatements {
  const threads = 'threads';
  const chunks = 'chunks';
  const turns = 'turns';
  // A keyset page on the primary key, with the thread's next seq read in the same statement:
  // backwards from the end or from `before` (descending), or forwards from `after` (ascending).
  // Each row also carries its turn's status when that is not `completed` (the page's
  // `turnStatus`): a primary-key lookup per row in the same statement, not a second query. A
  // forward page also reads the thread's oldest row (primary-key probes).
  const page = (bound: 'none' | 'before' | 'after') =>
    new PreparedQuery<PageRow>((db, arg) =>
      db
        .selectFrom(chunks)
        .select(ROW_COLUMNS)
        .select((eb) =>
          eb
            .selectFrom(threads)
            .select('next_seq')
            .where('id', '=', arg<string>(0))
            .as('thread_next_seq'),
        )
        .select((eb) =>
          eb
            .selectFrom(turns)
            .select('status')
            .whereRef('thread_id', '=', `${chunks}.thread_id` as 'chunks.thread_id')
            .whereRef('turn_id', '=', `${chunks}.turn_id` as 'chunks.turn_id')
            .where('status', '<>', 'completed')
            .as('turn_status'),
        )
        .$if(bound === 'after', (qb) =>
          qb.select((eb) =>
            (['seq', 'turn_id', 'created_at'] as const).map((column) =>
              eb
                .selectFrom(chunks)
                .select(column)
                .where('thread_id', '=', arg<string>(0))
                .orderBy('seq')
                .limit(1)
                .as(`first_${column}`),
            ),
          ),
        )
        .where('thread_id', '=', arg<string>(1))
        .$if(bound === 'before', (qb) => qb.where('seq', '<', arg<number>(2)))
        .$if(bound === 'after', (qb) => qb.where('seq', '>', arg<number>(2)))
        .orderBy('seq', bound === 'after' ? 'asc' : 'desc')
        .limit(arg<number>(bound === 'none' ? 2 : 3)),
    );
  // The values of `n` inserted rows of `columns`, parameters 0 to n × columns − 1.
  const rowsOf = <R>(columns: readonly string[], n: number, arg: <T>(index: number) => T) =>
    Array.from({ length: n }, (_, r) => {
      const row: Record<string, unknown> = {};
      columns.forEach((column, c) => {
        row[column] = arg(r * columns.length + c);
      });
      return row as unknown as R;
    });
  const valuesOf = (n: number, arg: <T>(index: number) => T) =>
    rowsOf<ChunkRecord>(INSERT_COLUMNS, n, arg);
  const usageInsertOf = preparedPerCount((n, db, arg) =>
    keepingRecordedSteps(
      db.insertInto('usage').values(rowsOf<UsageRecord>(USAGE_COLUMNS, n, arg)),
      adapter,
    ),
  );
  const insertOf = preparedPerCount((n, db, arg) => db.insertInto(chunks).values(valuesOf(n, arg)));
  // The turn's conditional advance, its parameters from `at` on (see advanceTurn).
  const advanceTurnFrom = (
    db: QueryCreator<StoreTables>,
    arg: <T>(index: number) => T,
    at: number,
  ) =>
    db
      .updateTable(turns)
      .set({
        next_seq: arg<number>(at),
        status: arg<string>(at + 1),
        updated_at: arg<number>(at + 2),
      })
      .where('thread_id', '=', arg<string>(at + 3))
      .where('turn_id', '=', arg<string>(at + 4))
      .where('status', '=', 'running')
      .where('next_seq', '=', arg<number>(at + 5));
  // PostgreSQL: the insert as a WITH of the turn's advance or of the turn-id check (with the
  // turn's row inserted too when the turn begins).
  type Then = 'advanceTurn' | 'checkTurn' | 'beginTurn';
  const insertsThen = new Map<string, PreparedQuery<InsertThenRow>>();
  const cteOf = (n: number, then: Then) => {
    const key = `${then}:${n}`;
    let prepared = insertsThen.get(key);
    if (prepared === undefined) {
      const at = n * INSERT_COLUMNS.length;
      prepared = new PreparedQuery<InsertThenRow>((db, arg) => {
        const withInsert = db.with('inserted', (qc) =>
          qc.insertInto(chunks).values(valuesOf(n, arg)).returning('seq'),
        );
        if (then === 'advanceTurn') {
          // The CTE's name is not among the store's tables: the advance itself does not read it.
          return advanceTurnFrom(
            withInsert as unknown as QueryCreator<StoreTables>,
            arg,
            at,
          ) as never;
        }
        // The main query reads the snapshot the statement started with: it does not see the
        // rows its WITH inserts, only what was stored before.
        if (then === 'checkTurn') {
          return withInsert
            .selectFrom(chunks)
            .select((eb) => eb.fn.min('seq').as('turn_first'))
            .where('thread_id', '=', arg<string>(at))
            .where('turn_id', '=', arg<string>(at + 1)) as never;
        }
        const turnRow: Record<string, unknown> = {};
        TURN_COLUMNS.forEach((column, c) => {
          turnRow[column] = arg(at + c);
        });
        const check = at + TURN_COLUMNS.length;
        return withInsert
          .with('begun', (qc) =>
            qc
              .insertInto(turns)
              .values(turnRow as unknown as TurnRecord)
              .onConflict((oc) => oc.columns(['thread_id', 'turn_id']).doNothing())
              .returning('turn_id'),
          )
          .selectFrom(chunks)
          .select((eb) => eb.fn.min('seq').as('turn_first'))
          .select((eb) => eb.selectFrom('begun').select(eb.fn.countAll().as('n')).as('begun'))
          .where('thread_id', '=', arg<string>(check))
          .where('turn_id', '=', arg<string>(check + 1)) as never;
      });
      insertsThen.set(key, prepared);
    }
    return prepared;
  };
  const rowsPerInsert = Math.min(500, Math.floor(adapter.maxParameters / INSERT_COLUMNS.length));

  return {
    lockThread: new PreparedQuery((db, arg) =>
      db
        .selectFrom(threads)
        .select(THREAD_COLUMNS)
        .where('id', '=', arg<string>(0))
        .$if(adapter.selectForUpdate, (qb) => qb.forUpdate()),
    ),
    conversationOf: new PreparedQuery((db, arg) =>
      db
        .selectFrom(threads)
        .select(['conversation_id', 'active_id'])
        .where('id', '=', arg<string>(0)),
    ),
    threadAndTurn: new PreparedQuery((db, arg) =>
      db
        .selectFrom(threads)
        .select(THREAD_COLUMNS)
        .select((eb) =>
          eb
            .selectFrom(chunks)
            .select((e) => e.fn.min('seq').as('first'))
            .where('thread_id', '=', arg<string>(0))
            .where('turn_id', '=', arg<string>(1))
            .as('turn_first'),
        )
        .where('id', '=', arg<string>(2)),
    ),
    turnRows: new PreparedQuery((db, arg) =>
      db
        .selectFrom(chunks)
        .select(ROW_COLUMNS)
        .where('thread_id', '=', arg<string>(0))
        .where('turn_id', '=', arg<string>(1))
        .orderBy('seq'),
    ),
    advanceThread: new PreparedQuery((db, arg) =>
      db
        .updateTable(threads)
        .set({ next_seq: arg<number>(0), updated_at: arg<number>(1) })
        .where('id', '=', arg<string>(2)),
    ),
    advanceThreadBy: new PreparedQuery((db, arg) =>
      db
        .updateTable(threads)
        .set((eb) => ({
          next_seq: eb('next_seq', '+', arg<number>(0)),
          updated_at: arg<number>(1),
        }))
        .where('id', '=', arg<string>(2))
        .returning(['next_seq', 'id', 'parent_id', 'fork_seq', 'fork_path', 'key_version']),
    ),
    advanceTurn: new PreparedQuery((db, arg) => advanceTurnFrom(db, arg, 0)),
    openTurns: new PreparedQuery((db, arg) =>
      db
        .selectFrom(turns)
        .select(['turn_id', 'status'])
        .where('thread_id', '=', arg<string>(0))
        // The statuses by name, so that the `(thread_id, status)` index (migration 0004) serves.
        .where('status', 'in', OPEN_STATUSES)
        .where('first_seq', '<=', arg<number>(1))
        .where('next_seq', '>', arg<number>(2)),
    ),
    advanceThreadIfNew: new PreparedQuery((db, arg) =>
      db
        .updateTable(threads)
        .set({ next_seq: arg<number>(0), updated_at: arg<number>(1) })
        .where('id', '=', arg<string>(2))
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom(chunks)
                .select('seq')
                .where('thread_id', '=', arg<string>(3))
                .where('turn_id', '=', arg<string>(4))
                .where('seq', '<', arg<number>(5)),
            ),
          ),
        ),
    ),
    endTurn: new PreparedQuery((db, arg) =>
      db
        .updateTable(turns)
        .set({ next_seq: arg<number>(0), status: arg<string>(1), updated_at: arg<number>(2) })
        .where('thread_id', '=', arg<string>(3))
        .where('turn_id', '=', arg<string>(4))
        .where('status', '=', 'running'),
    ),
    turnExists: new PreparedQuery((db, arg) =>
      db
        .selectFrom(chunks)
        .select('seq')
        .where('thread_id', '=', arg<string>(0))
        .where('turn_id', '=', arg<string>(1))
        .limit(1),
    ),
    rowsAfter: new PreparedQuery((db, arg) =>
      db
        .selectFrom(chunks)
        .select(ROW_COLUMNS)
        .where('thread_id', '=', arg<string>(0))
        .where('seq', '>', arg<number>(1))
        .orderBy('seq'),
    ),
    pageTail: page('none'),
    pageBefore: page('before'),
    pageAfter: page('after'),
    async insertRows(db, rows) {
      checkRoom(rows);
      const { threadId, turnId, first, drafts, data, at } = rows;
      for (let start = 0; start < drafts.length; start += rowsPerInsert) {
        const end = Math.min(drafts.length, start + rowsPerInsert);
        if (end - start <= PREPARED_INSERT_ROWS) {
          const args = rowArgs(rows, start, end);
          await insertOf(end - start).execute(db, args);
          continue;
        }
        const records: ChunkRecord[] = [];
        for (let i = start; i < end; i++) {
          const d = drafts[i] as ChunkRowDraft;
          records.push({
            thread_id: threadId,
            seq: first + i,
            turn_id: turnId,
            step: d.step,
            role: d.role,
            type: d.type,
            data: data[i],
            created_at: at,
            version: ROW_FORMAT_VERSION,
          });
        }
        await db.insertInto(chunks).values(records).execute();
      }
    },
    insertUsage(db, records) {
      if (records.length === 0) return Promise.resolve();
      if (records.length > PREPARED_INSERT_ROWS) {
        return keepingRecordedSteps(
          db.insertInto('usage').values(records as UsageRecord[]),
          adapter,
        ).execute();
      }
      const args: unknown[] = [];
      for (const record of records) for (const column of USAGE_COLUMNS) args.push(record[column]);
      return usageInsertOf(records.length).execute(db, args);
    },
    insertRowsThen(db, rows, then) {
      const { threadId, turnId, drafts } = rows;
      if (!adapter.writableCte || drafts.length === 0 || drafts.length > PREPARED_INSERT_ROWS) {
        return undefined;
      }
      checkRoom(rows);
      const args = rowArgs(rows, 0, drafts.length);
      if (then === 'checkTurn') {
        args.push(threadId, turnId);
        return cteOf(drafts.length, 'checkTurn').execute(db, args);
      }
      if ('beginTurn' in then) {
        args.push(...then.beginTurn, threadId, turnId);
        return cteOf(drafts.length, 'beginTurn').execute(db, args);
      }
      args.push(...then.advanceTurn);
      return cteOf(drafts.length, 'advanceTurn').execute(db, args);
    },
  };
}
