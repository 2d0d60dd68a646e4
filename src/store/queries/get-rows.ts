import { readOptions } from '../../errors/invalid-option.js';
import type { ChunkRow } from '../../schema/chunk-row.js';
import { decodeRows, type SelectedRow } from '../codec.js';
import type { StoreContext } from '../context.js';
import { openRecords } from '../encryption/store-cipher.js';
import { threadNotFound, wrapStoreErrors } from '../store-errors.js';
import { corruptRowPolicy } from '../store-options.js';
import type { CorruptRowPolicy, GetRowsOptions } from '../types.js';
import { checkSeq, checkThreadId, MAX_SEQ } from '../validate.js';
import { pathRowsAll, readOrigin } from './path-rows.js';

/**
 * `ChunkStore.getRows`: the thread's rows after `afterSeq`, ascending, in one statement (one
 * more per stretch of another thread a fork's path reads).
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
 * The thread's rows after `afterSeq` along its path, ascending, decoded under `policy` (driver
 * errors are not wrapped: the caller names its operation). When its own rows do not start right
 * after `afterSeq`, the thread's row is read, and a fork's shared rows are read before its own.
 *
 * @throws {ChunklogError} `thread-not-found` when no row was read and the thread does not exist
 */
export async function rowsAfter(
  ctx: StoreContext,
  threadId: string,
  afterSeq: number,
  policy: CorruptRowPolicy,
): Promise<ChunkRow[]> {
  let records: readonly SelectedRow[] = (
    await ctx.statements.rowsAfter.execute(ctx.db, [threadId, afterSeq])
  ).rows;
  // Opened before a fork's shared rows join them: those come opened, and open only once.
  await openRecords(ctx.cipher, records);
  const first = records[0];
  if (first === undefined || Number(first.seq) !== afterSeq + 1) {
    const thread = await readOrigin(ctx, ctx.db, threadId);
    if (thread === undefined) throw threadNotFound(threadId);
    const { ancestors } = thread.origin;
    if (ancestors.length > 0) {
      const shared = await pathRowsAll(ctx, ctx.db, ancestors, afterSeq);
      records = shared.length === 0 ? records : [...shared, ...records];
    }
  }
  return decodeRows(threadId, records, policy);
}
