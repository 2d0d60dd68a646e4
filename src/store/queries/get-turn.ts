import { readOptions } from '../../errors/invalid-option.js';
import type { ChunkRow } from '../../schema/chunk-row.js';
import { decodeRows } from '../codec.js';
import type { StoreContext } from '../context.js';
import { openRecords } from '../encryption/store-cipher.js';
import { threadNotFound, wrapStoreErrors } from '../store-errors.js';
import { corruptRowPolicy } from '../store-options.js';
import type { ReadOptions } from '../types.js';
import { checkThreadId, checkTurnId } from '../validate.js';
import { pathTurnRows, readOrigin } from './path-rows.js';

/**
 * `ChunkStore.getTurn`: the turn's rows by the `(thread_id, turn_id, seq)` index, the same
 * prepared query `appendTurn` answers a repeated turn with. Only when no row is found does a
 * second query tell a missing thread (`thread-not-found`) from a missing turn (null), and look
 * for the turn in the stretches of other threads a fork's path reads.
 */
export function getTurn(
  ctx: StoreContext,
  threadId: string,
  turnId: string,
  options?: ReadOptions,
): Promise<ChunkRow[] | null> {
  checkThreadId(threadId);
  checkTurnId(turnId);
  const o = readOptions(options, 'getTurn', ['onCorruptRow']);
  const policy = corruptRowPolicy(o.onCorruptRow, ctx.onCorruptRow);
  return wrapStoreErrors('getTurn', threadId, async () => {
    const records = (await ctx.statements.turnRows.execute(ctx.db, [threadId, turnId])).rows;
    if (records.length > 0) {
      await openRecords(ctx.cipher, records);
      return decodeRows(threadId, records, policy);
    }
    const thread = await readOrigin(ctx, ctx.db, threadId);
    if (thread === undefined) throw threadNotFound(threadId);
    const shared = await pathTurnRows(ctx, ctx.db, thread.origin.ancestors, turnId);
    return shared === undefined ? null : decodeRows(threadId, shared.rows, policy);
  });
}

/**
 * `ChunkStore.hasTurn`: one index probe; false for a thread that does not exist. A miss reads the
 * thread's row, and a fork's shared stretches.
 */
export function hasTurn(ctx: StoreContext, threadId: string, turnId: string): Promise<boolean> {
  checkThreadId(threadId);
  checkTurnId(turnId);
  return wrapStoreErrors('hasTurn', threadId, async () => {
    const found = await ctx.statements.turnExists.execute(ctx.db, [threadId, turnId]);
    if (found.rows.length > 0) return true;
    const thread = await readOrigin(ctx, ctx.db, threadId);
    if (thread === undefined || thread.origin.ancestors.length === 0) return false;
    return (await pathTurnRows(ctx, ctx.db, thread.origin.ancestors, turnId)) !== undefined;
  });
}
