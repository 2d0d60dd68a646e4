import { readOptions } from '../../errors/invalid-option.js';
import type { ChunkRow } from '../../schema/chunk-row.js';
import { decodeRows } from '../codec.js';
import type { StoreContext } from '../context.js';
import { openRecords } from '../encryption/store-cipher.js';
import { pageTurnStatus } from '../statements.js';
import { threadNotFound, wrapStoreErrors } from '../store-errors.js';
import { corruptRowPolicy } from '../store-options.js';
import type { ChunkPage, CorruptRowPolicy, GetChunksOptions } from '../types.js';
import { checkLimit, checkSeq, checkThreadId, MAX_SEQ } from '../validate.js';
import { forkSeqHint, type PathPageRow, pathRowsBefore, readOrigin } from './path-rows.js';
import { readPage } from './read-page.js';

/**
 * `ChunkStore.getChunks`: one keyset query (`seq < before ORDER BY seq DESC LIMIT n` on the
 * primary key) that also reads the thread's next seq in the same statement, so `total` comes
 * from the same snapshot as the rows and costs no `COUNT(*)`. Seqs are dense from 1 along a
 * thread's path, so rows older than the page exist exactly when its oldest seq is above 1.
 *
 * A fork's own rows are the newest of its path: a full page of them, or a page that reaches seq
 * 1, is the answer. Only a page that falls short above seq 1 (or finds nothing) reads the
 * thread's row, and for a fork goes on into the stretches of other threads its path reads.
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
    const hint = forkSeqHint(ctx, threadId);
    if (hint !== undefined && before !== undefined && before <= hint + 1) {
      const shared = await sharedPage(ctx, threadId, before, limit, policy);
      if (shared !== undefined) return shared;
    }
    const read =
      before === undefined
        ? await readPage(ctx, 'none', [threadId, threadId, limit])
        : await readPage(ctx, 'before', [threadId, threadId, before, limit]);
    const records: PathPageRow[] = read.records;
    // Opened before a fork's shared rows join them: those come opened, and open only once.
    await openRecords(ctx.cipher, records);
    let turnStatus = read.turnStatus;
    let total: number | undefined;
    const oldestOwn = records[records.length - 1];
    if (records.length < limit && (oldestOwn === undefined || Number(oldestOwn.seq) > 1)) {
      const thread = await readOrigin(ctx, ctx.db, threadId);
      if (thread === undefined) throw threadNotFound(threadId);
      total = thread.nextSeq - 1;
      const { ancestors, forkSeq } = thread.origin;
      if (ancestors.length > 0) {
        const below = Math.min(before ?? Number.POSITIVE_INFINITY, forkSeq + 1);
        const shared = await pathRowsBefore(ctx, ancestors, below, limit - records.length);
        const sharedStatus = pageTurnStatus(shared);
        if (sharedStatus !== undefined) turnStatus = { ...sharedStatus, ...turnStatus };
        records.push(...shared);
      }
    }
    const last = records[records.length - 1];
    if (last === undefined) {
      return { chunks: [], total: total ?? 0, oldestSeq: null, hasMore: false };
    }
    total ??= Number(last.thread_next_seq) - 1;
    records.reverse();
    const chunks: ChunkRow[] = decodeRows(threadId, records, policy);
    const oldestSeq = Number(last.seq);
    const page: ChunkPage = {
      chunks,
      total,
      oldestSeq,
      // A short page reached the path's first row (seq 1, or the first after an expiry).
      hasMore: oldestSeq > 1 && records.length === limit,
    };
    return turnStatus === undefined ? page : { ...page, turnStatus };
  });
}

/**
 * A page of a fork that lies wholly below its fork seq (its own rows are all newer), read from
 * the fork's row and its stretches; undefined when the fork's row says otherwise (it is no longer
 * a fork, or its fork seq moved), and the caller reads the usual way.
 *
 * @throws {ChunklogError} `thread-not-found`
 */
async function sharedPage(
  ctx: StoreContext,
  threadId: string,
  before: number,
  limit: number,
  policy: CorruptRowPolicy,
): Promise<ChunkPage | undefined> {
  const thread = await readOrigin(ctx, ctx.db, threadId);
  if (thread === undefined) throw threadNotFound(threadId);
  const { ancestors, forkSeq } = thread.origin;
  if (ancestors.length === 0 || before > forkSeq + 1) return undefined;
  const records = await pathRowsBefore(ctx, ancestors, before, limit);
  const total = thread.nextSeq - 1;
  const last = records[records.length - 1];
  if (last === undefined) return { chunks: [], total, oldestSeq: null, hasMore: false };
  const turnStatus = pageTurnStatus(records);
  records.reverse();
  const oldestSeq = Number(last.seq);
  const chunks = decodeRows(threadId, records, policy);
  const page: ChunkPage = { chunks, total, oldestSeq, hasMore: oldestSeq > 1 };
  return turnStatus === undefined ? page : { ...page, turnStatus };
}
