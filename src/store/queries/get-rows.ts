import { readOptions } from '../../errors/invalid-option.js';
import type { ChunkRow } from '../../schema/chunk-row.js';
import { decodeRows } from '../codec.js';
import type { StoreContext } from '../context.js';
import { threadNotFound, wrapStoreErrors } from '../store-errors.js';
import { corruptRowPolicy } from '../store-options.js';
import { selectThread } from '../threads.js';
import type { GetRowsOptions } from '../types.js';
import { checkSeq, checkThreadId, MAX_SEQ } from '../validate.js';

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
    // One prepared keyset read; on the store's own SQLite connection the rows come as arrays.
    const records = await ctx.statements.rowsAfter.rows(ctx.direct, ctx.db, [threadId, afterSeq]);
    if (records.length === 0 && (await selectThread(ctx, ctx.db, threadId, false)) === undefined) {
      throw threadNotFound(threadId);
    }
    return decodeRows(threadId, records, policy);
  });
}
