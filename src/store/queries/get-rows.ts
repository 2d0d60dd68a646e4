import { readOptions } from '../../errors/invalid-option.js';
import type { ChunkRow } from '../../schema/chunk-row.js';
import { RowDecoder } from '../codec.js';
import type { StoreContext } from '../context.js';
import { threadNotFound, wrapStoreErrors } from '../store-errors.js';
import { corruptRowPolicy } from '../store-options.js';
import { selectThread } from '../threads.js';
import type { GetRowsOptions } from '../types.js';
import { checkSeq, checkThreadId, MAX_SEQ } from '../validate.js';

/** How many rows a direct read hands to the decoder at a time. */
const DECODE_BATCH = 1000;

/** `ChunkStore.getRows`: the thread's rows after `afterSeq`, ascending, in one query. */
export function getRows(
  ctx: StoreContext,
  threadId: string,
  options?: GetRowsOptions,
): Promise<ChunkRow[]> {
  checkThreadId(threadId);
  const o = readOptions(options, 'getRows', ['afterSeq', 'onCorruptRow']);
  const afterSeq = Math.min(checkSeq(o.afterSeq ?? 0, 'afterSeq', 0), MAX_SEQ);
  const policy = corruptRowPolicy(o.onCorruptRow, ctx.onCorruptRow);
  return wrapStoreErrors('getRows', threadId, async () => {
    // One prepared keyset read. On the store's own SQLite connection the rows come as arrays
    // and are decoded a batch at a time as they are read: a whole thread's driver rows are never
    // all alive at once (on a long thread, keeping them made the garbage collector's copying the
    // largest cost of the read).
    const rows: ChunkRow[] = [];
    const decoder = new RowDecoder(threadId, policy);
    let read = 0;
    await ctx.statements.rowsAfter.eachBatch(
      ctx.direct,
      ctx.db,
      [threadId, afterSeq],
      DECODE_BATCH,
      (records) => {
        read += records.length;
        decoder.decode(records, rows);
      },
    );
    if (read === 0 && (await selectThread(ctx, ctx.db, threadId, false)) === undefined) {
      throw threadNotFound(threadId);
    }
    return rows;
  });
}
