import { readOptions } from '../../errors/invalid-option.js';
import type { ChunkRow } from '../../schema/chunk-row.js';
import { decodeRows, RowDecoder, type StoredRecord, seqOf } from '../codec.js';
import type { StoreContext } from '../context.js';
import { threadNotFound, wrapStoreErrors } from '../store-errors.js';
import { corruptRowPolicy } from '../store-options.js';
import { selectThread } from '../threads.js';
import type { CorruptRowPolicy, GetRowsOptions } from '../types.js';
import { checkSeq, checkThreadId, MAX_SEQ } from '../validate.js';

/** How many rows a direct read reads, and decodes, at a time. */
const DECODE_BATCH = 1000;

/**
 * `ChunkStore.getRows`: the thread's rows after `afterSeq`, ascending, read in one snapshot (keyset
 * pages on the store's own SQLite connection, one query elsewhere).
 */
export function getRows(
  ctx: StoreContext,
  threadId: string,
  options?: GetRowsOptions,
): Promise<ChunkRow[]> {
  checkThreadId(threadId);
  const o = readOptions(options, 'getRows', ['afterSeq', 'onCorruptRow']);
  const afterSeq = Math.min(checkSeq(o.afterSeq ?? 0, 'afterSeq', 0), MAX_SEQ);
  const policy = corruptRowPolicy(o.onCorruptRow, ctx.onCorruptRow);
  return wrapStoreErrors('getRows', threadId, () => rowsAfter(ctx, threadId, afterSeq, policy));
}

/**
 * The thread's rows after `afterSeq`, ascending, read in one snapshot, decoded under `policy`
 * (driver errors are not wrapped: the caller names its operation).
 *
 * @throws {ChunklogError} `thread-not-found` when no row was read and the thread does not exist
 */
export async function rowsAfter(
  ctx: StoreContext,
  threadId: string,
  afterSeq: number,
  policy: CorruptRowPolicy,
): Promise<ChunkRow[]> {
  let decoded: DecodedRows | undefined;
  // On the store's own SQLite connection: keyset pages of rows as arrays, read in one snapshot
  // and each decoded before the next is read, so that a long thread's driver rows are never
  // all alive at once (keeping them made the garbage collector's copying the largest cost of
  // the read). Elsewhere: one prepared keyset read.
  const direct = ctx.statements.rowsAfterLimit.inSnapshot(ctx.direct, ctx.db, (run) => {
    decoded = decodePages(run, threadId, afterSeq, policy);
  });
  let { rows, read } = decoded ?? { rows: [] as ChunkRow[], read: 0 };
  if (!direct) {
    const records = (await ctx.statements.rowsAfter.execute(ctx.db, [threadId, afterSeq])).rows;
    read = records.length;
    rows = decodeRows(threadId, records, policy);
  }
  if (read === 0 && (await selectThread(ctx, ctx.db, threadId, false)) === undefined) {
    throw threadNotFound(threadId);
  }
  return rows;
}

/** Rows decoded from a read, and how many were read (more when corrupt ones were skipped). */
export interface DecodedRows {
  readonly rows: ChunkRow[];
  readonly read: number;
}

/**
 * Reads and decodes the rows after `afterSeq` by keyset pages of {@link DECODE_BATCH}, `run`
 * giving a page (`[threadId, after, limit]`, as `rowsAfterLimit` takes them) in one snapshot.
 *
 * @param run - runs the page query
 * @param threadId - the thread
 * @param afterSeq - the seq the rows follow
 * @param policy - what a corrupt row does
 */
export function decodePages(
  run: (args: readonly unknown[]) => readonly StoredRecord[],
  threadId: string,
  afterSeq: number,
  policy: CorruptRowPolicy,
): DecodedRows {
  const rows: ChunkRow[] = [];
  const decoder = new RowDecoder(threadId, policy);
  let read = 0;
  for (let after = afterSeq; ; ) {
    const records = run([threadId, after, DECODE_BATCH]);
    read += records.length;
    decoder.decode(records, rows);
    const last = records[records.length - 1];
    if (last === undefined || records.length < DECODE_BATCH) return { rows, read };
    after = Number(seqOf(last));
  }
}
