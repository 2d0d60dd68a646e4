import { readOptions } from '../../errors/invalid-option.js';
import type { ChunkRow } from '../../schema/chunk-row.js';
import { decodeRows } from '../codec.js';
import type { StoreContext } from '../context.js';
import { openRecords } from '../encryption/store-cipher.js';
import { threadNotFound, wrapStoreErrors } from '../store-errors.js';
import { corruptRowPolicy } from '../store-options.js';
import { selectThread } from '../threads.js';
import type { CorruptRowPolicy, GetRowsOptions } from '../types.js';
import { checkSeq, checkThreadId, MAX_SEQ } from '../validate.js';

/**
 * `ChunkStore.getRows`: the thread's rows after `afterSeq`, ascending, in one statement.
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
 * The thread's rows after `afterSeq`, ascending, in one statement, decoded under `policy`
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
  const records = (await ctx.statements.rowsAfter.execute(ctx.db, [threadId, afterSeq])).rows;
  if (records.length === 0 && (await selectThread(ctx, ctx.db, threadId, false)) === undefined) {
    throw threadNotFound(threadId);
  }
  await openRecords(ctx.cipher, records);
  return decodeRows(threadId, records, policy);
}
