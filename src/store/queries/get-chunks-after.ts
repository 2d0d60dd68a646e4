import { readOptions } from '../../errors/invalid-option.js';
import type { ChunkRow } from '../../schema/chunk-row.js';
import { decodeRows } from '../codec.js';
import type { StoreContext } from '../context.js';
import { openRecords } from '../encryption/store-cipher.js';
import { threadNotFound, wrapStoreErrors } from '../store-errors.js';
import { corruptRowPolicy } from '../store-options.js';
import { selectThread } from '../threads.js';
import type { ForwardChunkPage, GetChunksAfterOptions } from '../types.js';
import { checkLimit, checkSeq, checkThreadId, MAX_SEQ } from '../validate.js';
import { readPage } from './read-page.js';

/**
 * `ChunkStore.getChunksAfter`: `getChunks` turned forwards — one keyset query
 * (`seq > after ORDER BY seq LIMIT n` on the primary key) that reads the thread's next seq in
 * the same statement. Seqs are dense from 1, so rows newer than the page exist exactly when its
 * newest seq is below the thread's total.
 */
export function getChunksAfter(
  ctx: StoreContext,
  threadId: string,
  options?: GetChunksAfterOptions,
): Promise<ForwardChunkPage> {
  checkThreadId(threadId);
  const o = readOptions(options, 'getChunksAfter', ['limit', 'afterSeq', 'onCorruptRow']);
  const limit = checkLimit(o.limit);
  // Beyond any seq: an empty page (and a bound the integer column can take).
  const afterSeq = Math.min(checkSeq(o.afterSeq ?? 0, 'afterSeq', 0), MAX_SEQ);
  const policy = corruptRowPolicy(o.onCorruptRow, ctx.onCorruptRow);
  return wrapStoreErrors('getChunksAfter', threadId, async () => {
    const { records, turnStatus } = await readPage(ctx, 'after', [
      threadId,
      threadId,
      afterSeq,
      limit,
    ]);
    const newest = records[records.length - 1];
    const last = newest;
    if (last === undefined || last.thread_next_seq === null) {
      const thread = await selectThread(ctx, ctx.db, threadId, false);
      if (thread === undefined) throw threadNotFound(threadId);
      return { chunks: [], total: Number(thread.next_seq) - 1, newestSeq: null, hasMore: false };
    }
    await openRecords(ctx.cipher, records);
    const chunks: ChunkRow[] = decodeRows(threadId, records, policy);
    const total = Number(last.thread_next_seq) - 1;
    const newestSeq = Number(last.seq);
    const page: ForwardChunkPage = { chunks, total, newestSeq, hasMore: newestSeq < total };
    return turnStatus === undefined ? page : { ...page, turnStatus };
  });
}
