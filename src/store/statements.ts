import type { Kysely } from 'kysely';
import { ROW_COLUMNS, type SelectedRow } from './codec.js';
import type { StoreDialectAdapter } from './dialects/adapter.js';
import { ARRAY_ROWS_MARK } from './open-sqlite.js';
import { PreparedQuery } from './prepared.js';
import type { ChunkRecord, StoreTables } from './tables.js';
import { type SelectedThread, THREAD_COLUMNS } from './threads.js';

/** Rows per prepared multi-row insert variant; larger batches are built as they come. */
const PREPARED_INSERT_ROWS = 64;

/** The columns of an inserted row, in order. */
export const INSERT_COLUMNS: ReadonlyArray<keyof ChunkRecord> = [
  'thread_id',
  'seq',
  'turn_id',
  'step',
  'role',
  'type',
  'data',
  'created_at',
  'version',
];

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
  /** `[threadId, turnId]` → the turn's stored rows, in seq order. */
  readonly turnRows: PreparedQuery<SelectedRow>;
  /** `[nextSeq, updatedAt, threadId]`. */
  readonly advanceThread: PreparedQuery<unknown>;
  /** `[threadId, threadId, limit]` → the newest rows, descending, with the next seq. */
  readonly pageTail: PreparedQuery<PageRow>;
  /** `[threadId, threadId, before, limit]` → the newest rows below `before`, descending. */
  readonly pageBefore: PreparedQuery<PageRow>;
  /** Inserts `records`. */
  insertRows(db: Kysely<StoreTables>, records: readonly ChunkRecord[]): Promise<unknown>;
}

/** Prepares the store's hot queries on its real table names. */
export function createStatements(
  adapter: StoreDialectAdapter,
  threads: 'threads',
  chunks: 'chunks',
  arrayRows: boolean,
): StoreStatements {
  const page = (withBefore: boolean) =>
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
          .$if(withBefore, (qb) => qb.where('seq', '<', arg<number>(2)))
          .orderBy('seq', 'desc')
          .limit(arg<number>(withBefore ? 3 : 2)),
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
    pageTail: page(false),
    pageBefore: page(true),
    async insertRows(db, records) {
      for (let start = 0; start < records.length; start += rowsPerInsert) {
        const batch = records.slice(start, start + rowsPerInsert);
        if (batch.length <= PREPARED_INSERT_ROWS) {
          const args: unknown[] = [];
          for (const record of batch)
            for (const column of INSERT_COLUMNS) args.push(record[column]);
          await insertOf(batch.length).execute(db, args);
        } else {
          await db.insertInto(chunks).values(batch).execute();
        }
      }
    },
  };
}
