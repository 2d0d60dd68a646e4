import type { Kysely } from 'kysely';
import type { ChunkRowDraft } from '../schema/chunk-row.js';
import { ROW_COLUMNS, ROW_FORMAT_VERSION, type SelectedRow, type StoredRecord } from './codec.js';
import type { StoreDialectAdapter } from './dialects/adapter.js';
import { ARRAY_ROWS_MARK } from './open-sqlite.js';
import { PreparedQuery } from './prepared.js';
import type { ChunkRecord, StoreTables } from './tables.js';
import { type SelectedThread, THREAD_COLUMNS } from './threads.js';

/** Rows per prepared multi-row insert variant; larger batches are built as they come. */
const PREPARED_INSERT_ROWS = 64;

/** The columns of an inserted row, in order: the thread, then the columns a row is read with. */
export const INSERT_COLUMNS: ReadonlyArray<keyof ChunkRecord> = ['thread_id', ...ROW_COLUMNS];

/**
 * A page row: a row and the thread's next seq, read in the same statement; an array in that
 * column order on the SQLite connection the store opened itself (see {@link ARRAY_ROWS_MARK}).
 */
export type PageRow = (SelectedRow & { readonly thread_next_seq: unknown }) | readonly unknown[];

/** A page row as an object, whichever way the driver gave it. */
export function pageRowObject(row: PageRow): SelectedRow & { readonly thread_next_seq: unknown } {
  if (!Array.isArray(row)) return row as SelectedRow & { readonly thread_next_seq: unknown };
  return {
    seq: row[0],
    turn_id: row[1],
    step: row[2],
    role: row[3],
    type: row[4],
    data: row[5],
    created_at: row[6],
    version: row[7],
    thread_next_seq: row[8],
  };
}

/** The queries on the hot paths (appendTurn, getChunks), prepared once per store. */
export interface StoreStatements {
  /** `[threadId]` → the thread, locked for the transaction where the dialect locks rows. */
  readonly lockThread: PreparedQuery<SelectedThread>;
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
  /** `[threadId, threadId, after, limit]` → the oldest rows above `after`, ascending. */
  readonly pageAfter: PreparedQuery<PageRow>;
  /** `[threadId, afterSeq]` → the rows above `afterSeq`, ascending (arrays where possible). */
  readonly rowsAfter: PreparedQuery<StoredRecord>;
  /** `[threadId, turnId]` → one row (its seq) when the turn is stored, none otherwise. */
  readonly turnExists: PreparedQuery<{ readonly seq: unknown }>;
  /** Inserts a turn's rows with seqs from `first`; `data` holds each draft's serialized data. */
  insertRows(
    db: Kysely<StoreTables>,
    threadId: string,
    turnId: string,
    first: number,
    drafts: readonly ChunkRowDraft[],
    data: readonly string[],
    now: number,
  ): Promise<void>;
}

/** Prepares the store's hot queries on its real table names. */
export function createStatements(
  adapter: StoreDialectAdapter,
  threads: 'threads',
  chunks: 'chunks',
  arrayRows: boolean,
): StoreStatements {
  // A keyset page on the primary key, with the thread's next seq read in the same statement:
  // backwards from the end or from `before` (descending), or forwards from `after` (ascending).
  const page = (bound: 'none' | 'before' | 'after') =>
    new PreparedQuery<PageRow>(
      (db, arg) =>
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
          .where('thread_id', '=', arg<string>(1))
          .$if(bound === 'before', (qb) => qb.where('seq', '<', arg<number>(2)))
          .$if(bound === 'after', (qb) => qb.where('seq', '>', arg<number>(2)))
          .orderBy('seq', bound === 'after' ? 'asc' : 'desc')
          .limit(arg<number>(bound === 'none' ? 2 : 3)),
      arrayRows ? ARRAY_ROWS_MARK : '',
    );
  const inserts = new Map<number, PreparedQuery<unknown>>();
  const insertOf = (n: number) => {
    let prepared = inserts.get(n);
    if (prepared === undefined) {
      prepared = new PreparedQuery((db, arg) =>
        db.insertInto(chunks).values(
          Array.from({ length: n }, (_, r) => {
            const row: Record<string, unknown> = {};
            INSERT_COLUMNS.forEach((column, c) => {
              row[column] = arg(r * INSERT_COLUMNS.length + c);
            });
            return row as unknown as ChunkRecord;
          }),
        ),
      );
      inserts.set(n, prepared);
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
    turnExists: new PreparedQuery((db, arg) =>
      db
        .selectFrom(chunks)
        .select('seq')
        .where('thread_id', '=', arg<string>(0))
        .where('turn_id', '=', arg<string>(1))
        .limit(1),
    ),
    rowsAfter: new PreparedQuery<StoredRecord>(
      (db, arg) =>
        db
          .selectFrom(chunks)
          .select(ROW_COLUMNS)
          .where('thread_id', '=', arg<string>(0))
          .where('seq', '>', arg<number>(1))
          .orderBy('seq'),
      arrayRows ? ARRAY_ROWS_MARK : '',
    ),
    pageTail: page('none'),
    pageBefore: page('before'),
    pageAfter: page('after'),
    async insertRows(db, threadId, turnId, first, drafts, data, now) {
      for (let start = 0; start < drafts.length; start += rowsPerInsert) {
        const end = Math.min(drafts.length, start + rowsPerInsert);
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
            created_at: now,
            version: ROW_FORMAT_VERSION,
          });
        }
        if (records.length <= PREPARED_INSERT_ROWS) {
          // Parameters in INSERT_COLUMNS order, row after row.
          const args = records.flatMap((record) => INSERT_COLUMNS.map((column) => record[column]));
          await insertOf(records.length).execute(db, args);
        } else {
          await db.insertInto(chunks).values(records).execute();
        }
      }
    },
  };
}
