import { readOptions } from '../../errors/invalid-option.js';
import type { ChunkRow } from '../../schema/chunk-row.js';
import { asString, decodeRows, storedIso } from '../codec.js';
import type { StoreContext } from '../context.js';
import { openRecords } from '../encryption/store-cipher.js';
import { type PageRow, pageTurnStatus } from '../statements.js';
import { threadNotFound, wrapStoreErrors } from '../store-errors.js';
import { corruptRowPolicy } from '../store-options.js';
import type { ForwardChunkPage, GetChunksAfterOptions, ThreadStart } from '../types.js';
import { checkLimit, checkSeq, checkThreadId, MAX_SEQ } from '../validate.js';
import { type PathPageRow, pathRowsAfter, readOrigin, type ThreadOriginRead } from './path-rows.js';
import { pathStart } from './path-start.js';
import { readPage } from './read-page.js';
import { sentinelTurnId } from './sentinel.js';

/**
 * `ChunkStore.getChunksAfter`: `getChunks` turned forwards — one keyset query
 * (`seq > after ORDER BY seq LIMIT n` on the primary key) that reads the thread's next seq in
 * the same statement. A thread's newest row sits at its total (the seq before its next), so rows
 * newer than the page exist exactly when the page's newest seq is below it.
 *
 * When the thread's own rows do not start right after `afterSeq` (or none is found), the
 * thread's row is read: a fork's page starts in the stretches of other threads its path reads
 * and goes on with its own rows.
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
    const read = await readPage(ctx, 'after', [threadId, threadId, afterSeq, limit]);
    let records: PathPageRow[] = read.records;
    // Opened before a fork's shared rows join them: those come opened, and open only once.
    await openRecords(ctx.cipher, records);
    let turnStatus = read.turnStatus;
    let total: number | undefined;
    const firstOwn = read.records[0];
    let start = firstOwn === undefined ? undefined : threadStartOf(firstOwn);
    let thread: ThreadOriginRead | undefined;
    if (firstOwn === undefined || Number(firstOwn.seq) !== afterSeq + 1) {
      thread = await readOrigin(ctx, ctx.db, threadId);
      if (thread === undefined) throw threadNotFound(threadId);
      total = thread.nextSeq - 1;
      const { ancestors } = thread.origin;
      if (ancestors.length > 0) {
        const shared = await pathRowsAfter(ctx, ancestors, afterSeq, limit);
        records = [...shared, ...records].slice(0, limit);
        turnStatus = pageTurnStatus(records);
      }
    }
    // Once retention cut a fork's or a thread's path, its start is the newest sentinel the path
    // starts with (notes/0121); before, the thread's own first row.
    if (records.length > 0 && (start === undefined || !plainStart(start))) {
      thread ??= await readOrigin(ctx, ctx.db, threadId);
      if (thread === undefined) throw threadNotFound(threadId);
      if (start !== undefined || thread.origin.ancestors.length > 0) {
        start = (await pathStart(ctx.db, threadId, thread.origin)) ?? start;
      }
    }
    const last = records[records.length - 1];
    if (last === undefined) {
      return { chunks: [], total: total ?? 0, newestSeq: null, hasMore: false };
    }
    total ??= Number(last.thread_next_seq) - 1;
    const chunks: ChunkRow[] = decodeRows(threadId, records, policy);
    const newestSeq = Number(last.seq);
    const page: ForwardChunkPage = {
      chunks,
      total,
      newestSeq,
      hasMore: newestSeq < total,
      ...(start === undefined ? {} : { threadStart: start }),
    };
    return turnStatus === undefined ? page : { ...page, turnStatus };
  });
}

/**
 * Whether a thread that starts with this row starts at seq 1 with no sentinel: a plain start.
 * The row's role is not read here: a client's system turn named like the sentinel is sent on to
 * `pathStart`, which tells it apart.
 */
function plainStart(start: ThreadStart): boolean {
  return start.seq === 1 && start.turnId !== sentinelTurnId(1);
}

/** The thread's oldest own row, as a forward page row carries it. */
function threadStartOf(row: PageRow): ThreadStart {
  return {
    seq: Number(row.first_seq),
    turnId: asString(row.first_turn_id),
    createdAt: storedIso(row.first_created_at) ?? '',
  };
}
