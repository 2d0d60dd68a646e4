import type { MessageFoldState } from '../../transforms/message-fold.js';
import type { StoreContext } from '../context.js';
import { PreparedQuery } from '../prepared.js';
import { decodeState, type StoredStatePart } from './state-codec.js';
import { endsWith, type StateMark } from './state-mark.js';

/**
 * What {@link readMarkedState} found: the state, `'replaced'` when the parts stored at its seq
 * are not the ones the mark names (written again since the mark was read), or `'unusable'` when
 * they do not decode or the state no longer ends with the row at its seq.
 */
export type MarkedState = MessageFoldState | 'replaced' | 'unusable';

/** `[threadId, atSeq]` → the state's parts, in order; compiled once per store. */
const partsQueries = new WeakMap<StoreContext, PreparedQuery<StoredStatePart>>();

function partsQuery(ctx: StoreContext): PreparedQuery<StoredStatePart> {
  let q = partsQueries.get(ctx);
  if (q === undefined) {
    q = new PreparedQuery((db, arg) =>
      db
        .selectFrom('historyStates')
        .select(['part', 'parts', 'format', 'digest', 'data'])
        .where('thread_id', '=', arg<string>(0))
        .where('at_seq', '=', arg<number>(1))
        .orderBy('part'),
    );
    partsQueries.set(ctx, q);
  }
  return q;
}

/**
 * Reads the history state of `threadId` that `mark` names (its seq and digest) and checks it: its
 * parts must still carry the digest, decode (an encrypted state opens with the key of the thread
 * that wrote it), and the state must still end with the row the mark found at its seq (a writer
 * that knows nothing of states may have truncated the thread and written again). It never writes.
 *
 * @param ctx - the store
 * @param threadId - the thread whose state it is
 * @param mark - the state's seq and digest, and the turn id and creation time of the row at that
 *   seq, as the caller read them
 * @returns the state, or why it cannot be used
 */
export async function readMarkedState(
  ctx: StoreContext,
  threadId: string,
  mark: StateMark,
): Promise<MarkedState> {
  const atSeq = Number(mark.state_seq);
  const digest = String(mark.state_digest);
  const parts = (await partsQuery(ctx).execute(ctx.db, [threadId, atSeq])).rows;
  if (parts.length === 0 || parts[0]?.digest !== digest) return 'replaced';
  const opener = await ctx.cipher?.stateOpener(threadId, atSeq, parts);
  const state = decodeState(threadId, atSeq, digest, parts, opener);
  if (state === undefined || !endsWith(state, mark)) return 'unusable';
  return state;
}
