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

/** A page's rows as read, newest first: up to one more than the page (see {@link toPage}). */
interface PathRead {
  readonly records: PathPageRow[];
  /** The thread's row count, when the read read its row. */
  readonly total: number | undefined;
}

/**
 * `ChunkStore.getChunks`: one keyset query (`seq < before ORDER BY seq DESC LIMIT n + 1` on the
 * primary key) that also reads the thread's next seq in the same statement, so `total` comes
 * from the same snapshot as the rows and costs no `COUNT(*)`. The row read beyond the page says
 * whether older rows exist (`hasMore`), wherever the path starts: at seq 1, or at an expired
 * thread's sentinel.
 *
 * A fork's own rows are the newest of its path: a page of them that finds the row beyond, or
 * reaches seq 1, is the answer. Only a read that falls short above seq 1 (or finds nothing) reads
 * the thread's row, and for a fork goes on into the stretches of other threads its path reads.
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
    const shared =
      hint !== undefined && before !== undefined && before <= hint + 1
        ? await sharedRead(ctx, threadId, before, limit + 1)
        : undefined;
    const read = shared ?? (await pathRead(ctx, threadId, before, limit + 1));
    return toPage(threadId, read, limit, policy);
  });
}

/**
 * The newest `wanted` rows of the thread's path below `before`: its own rows by keyset, then, when
 * they fall short above seq 1, the thread's row and a fork's stretches of other threads.
 *
 * @throws {ChunklogError} `thread-not-found`
 */
async function pathRead(
  ctx: StoreContext,
  threadId: string,
  before: number | undefined,
  wanted: number,
): Promise<PathRead> {
  const read =
    before === undefined
      ? await readPage(ctx, 'none', [threadId, threadId, wanted])
      : await readPage(ctx, 'before', [threadId, threadId, before, wanted]);
  const records: PathPageRow[] = read.records;
  // Opened before a fork's shared rows join them: those come opened, and open only once.
  await openRecords(ctx.cipher, records);
  const oldestOwn = records[records.length - 1];
  if (records.length === wanted || (oldestOwn !== undefined && Number(oldestOwn.seq) <= 1)) {
    return { records, total: undefined };
  }
  const thread = await readOrigin(ctx, ctx.db, threadId);
  if (thread === undefined) throw threadNotFound(threadId);
  const { ancestors, forkSeq } = thread.origin;
  if (ancestors.length > 0) {
    const below = Math.min(before ?? Number.POSITIVE_INFINITY, forkSeq + 1);
    records.push(...(await pathRowsBefore(ctx, ancestors, below, wanted - records.length)));
  }
  return { records, total: thread.nextSeq - 1 };
}

/**
 * The newest `wanted` rows of a fork's path below `before` when they lie wholly below its fork
 * seq (its own rows are all newer), read from the fork's row and its stretches; undefined when
 * the fork's row says otherwise (it is no longer a fork, or its fork seq moved), and the caller
 * reads the usual way.
 *
 * @throws {ChunklogError} `thread-not-found`
 */
async function sharedRead(
  ctx: StoreContext,
  threadId: string,
  before: number,
  wanted: number,
): Promise<PathRead | undefined> {
  const thread = await readOrigin(ctx, ctx.db, threadId);
  if (thread === undefined) throw threadNotFound(threadId);
  const { ancestors, forkSeq } = thread.origin;
  if (ancestors.length === 0 || before > forkSeq + 1) return undefined;
  const records = await pathRowsBefore(ctx, ancestors, before, wanted);
  return { records, total: thread.nextSeq - 1 };
}

/**
 * The page of a read of up to `limit + 1` rows (newest first, opened): the newest `limit`, and
 * `hasMore` when the row beyond them was found — the one rule of every page, so a page whose
 * oldest row is its path's first (seq 1, or an expired thread's sentinel) says false.
 */
function toPage(
  threadId: string,
  read: PathRead,
  limit: number,
  policy: CorruptRowPolicy,
): ChunkPage {
  const hasMore = read.records.length > limit;
  const records = hasMore ? read.records.slice(0, limit) : read.records;
  const newest = records[0];
  const last = records[records.length - 1];
  if (newest === undefined || last === undefined) {
    return { chunks: [], total: read.total ?? 0, oldestSeq: null, hasMore: false };
  }
  // Without the thread's row read, every row is the thread's own, with its next seq.
  const total = read.total ?? Number(newest.thread_next_seq) - 1;
  const turnStatus = pageTurnStatus(records);
  records.reverse();
  const chunks: ChunkRow[] = decodeRows(threadId, records, policy);
  const page: ChunkPage = { chunks, total, oldestSeq: Number(last.seq), hasMore };
  return turnStatus === undefined ? page : { ...page, turnStatus };
}
