import { readOptions } from '../../errors/invalid-option.js';
import type { ChunkRow } from '../../schema/chunk-row.js';
import { decodeRows } from '../codec.js';
import type { StoreContext } from '../context.js';
import { openRecords } from '../encryption/store-cipher.js';
import { threadNotFound, wrapStoreErrors } from '../store-errors.js';
import { corruptRowPolicy } from '../store-options.js';
import { selectThread } from '../threads.js';
import type { ChunkPage, GetChunksOptions } from '../types.js';
import { checkLimit, checkSeq, checkThreadId, MAX_SEQ } from '../validate.js';
import { readPage } from './read-page.js';

/**
 * `ChunkStore.getChunks`: one keyset query (`seq < before ORDER BY seq DESC LIMIT n` on the
 * primary key) that also reads the thread's next seq in the same statement, so `total` comes
 * from the same snapshot as the rows and costs no `COUNT(*)`. Seqs are dense from 1, so rows
 * older than the page exist exactly when its oldest seq is above 1.
 */
export function getChunks(
  ctx: StoreContext,
  threadId: string,
  options?: GetChunksOptions,
): Promise<ChunkPage> {
  checkThreadId(threadId);
  const o = readOptions(options, 'getChunks', ['limit', 'before', 'onCorruptRow']);
  const limit = checkLimit(o.limit);
  const asked = o.before === undefined ? undefined : checkSeq(o.before, 'before', 0);
  // Beyond any seq: the same page as no `before` (and a bound the integer column can take).
  const before = asked !== undefined && asked > MAX_SEQ ? undefined : asked;
  const policy = corruptRowPolicy(o.onCorruptRow, ctx.onCorruptRow);
  return wrapStoreErrors('getChunks', threadId, async () => {
    const { records, turnStatus } =
      before === undefined
        ? await readPage(ctx, 'none', [threadId, threadId, limit])
        : await readPage(ctx, 'before', [threadId, threadId, before, limit]);
    const oldest = records[records.length - 1];
    const last = oldest;
    if (last === undefined || last.thread_next_seq === null) {
      const thread = await selectThread(ctx, ctx.db, threadId, false);
      if (thread === undefined) throw threadNotFound(threadId);
      return { chunks: [], total: Number(thread.next_seq) - 1, oldestSeq: null, hasMore: false };
    }
    records.reverse();
    await openRecords(ctx.cipher, records);
    const chunks: ChunkRow[] = decodeRows(threadId, records, policy);
    const oldestSeq = Number(last.seq);
    const page: ChunkPage = {
      chunks,
      total: Number(last.thread_next_seq) - 1,
      oldestSeq,
      // A short page reached the thread's first row (seq 1, or the first after an expiry).
      hasMore: oldestSeq > 1 && records.length === limit,
    };
    return turnStatus === undefined ? page : { ...page, turnStatus };
  });
}
