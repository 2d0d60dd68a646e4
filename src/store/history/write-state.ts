import type { StoreContext } from '../context.js';
import { rotatedPast } from '../encryption/store-cipher.js';
import { writeTransaction } from '../transaction.js';
import { readHistory } from './read-history.js';
import { encodeState, statesAvailable } from './state-codec.js';

/**
 * Whether a thread whose newest history state folds its rows up to `stateSeq` should get a new
 * one now that its last row is `lastSeq`: once `minRows` rows follow the state, and a quarter of
 * the state's own length, so that writing states costs a constant share of the writes however
 * long the thread grows.
 */
export function stateDue(stateSeq: number, lastSeq: number, minRows: number): boolean {
  return lastSeq - stateSeq >= Math.max(minRows, Math.floor(stateSeq / 4));
}

/**
 * Writes a new history state of the thread when one is due (see {@link stateDue}), or whenever
 * it has rows past its newest state with `force`: the thread is read through the one history
 * read, and the fold stored in a write transaction that holds the thread's lock, only while the
 * thread's last row is still the one the fold ended with and its update time the one read
 * before the fold (an expiry moves it, of a fork's parent too); older states are removed with it. A
 * read that skipped a corrupt row writes nothing.
 *
 * @param ctx - the store
 * @param threadId - the thread (checked)
 * @param force - write even when the threshold is not reached
 * @returns the seq of the state written, or undefined when none was
 */
export async function writeHistoryState(
  ctx: StoreContext,
  threadId: string,
  force: boolean,
): Promise<number | undefined> {
  const minRows = ctx.snapshotMinRows;
  if (minRows === false || !statesAvailable()) return undefined;
  // The thread's update time before the read: a change made meanwhile that the rows written do
  // not show (an expiry of rows a fork reads of another thread, notes/0121) moves it.
  const stamp = await updateStamp(ctx, threadId);
  const history = await readHistory(ctx, threadId, 'skip');
  const { fold } = history;
  // A fork that read from a state of a thread it reads has none of its own yet.
  const stateSeq = history.ownState ? history.stateSeq : 0;
  const last = fold.last;
  if (history.rowsSkipped > 0 || last === null) return undefined;
  if (last.seq <= stateSeq || (!force && !stateDue(stateSeq, last.seq, minRows))) {
    return undefined;
  }
  const state = fold.state();
  const cipher = ctx.cipher;
  const key = cipher === undefined ? undefined : await cipher.writeKey(threadId);
  const seal =
    cipher === undefined || key === undefined
      ? undefined
      : cipher.stateSealer(key, threadId, state.seq);
  const records = encodeState(threadId, state, ctx.now(), seal);
  if (records === undefined) return undefined;
  const states = 'historyStates';
  const written = await writeTransaction(
    ctx,
    async (trx) => {
      const thread = await ctx.statements.lockThread.execute(trx, [threadId]);
      const nextSeq = Number(thread.rows[0]?.next_seq ?? 0);
      // The fold ends with the thread's last row, as stored now (not one of a truncated past).
      if (nextSeq !== last.seq + 1) return false;
      // The thread (or the rows its path reads of others) changed since the read.
      if (String(thread.rows[0]?.updated_at) !== stamp) return false;
      // A key rotation moved the thread past the key the state was sealed with: a state is
      // derived, so it is not written rather than sealed again (notes/0095).
      if (key !== undefined && rotatedPast(thread.rows[0]?.key_version, key.version)) {
        return false;
      }
      const row = await trx
        .selectFrom('chunks')
        .select(['turn_id', 'created_at'])
        .where('thread_id', '=', threadId)
        .where('seq', '=', last.seq)
        .executeTakeFirst();
      if (
        row === undefined ||
        String(row.turn_id) !== last.turnId ||
        new Date(Number(row.created_at)).toISOString() !== last.createdAt
      ) {
        return false;
      }
      await trx.deleteFrom(states).where('thread_id', '=', threadId).execute();
      for (const record of records) await trx.insertInto(states).values(record).execute();
      return true;
    },
    { what: 'writeHistoryState', threadId },
  );
  return written ? last.seq : undefined;
}

/** The thread's update time as stored (a string, to compare whatever the driver returns). */
async function updateStamp(ctx: StoreContext, threadId: string): Promise<string> {
  const row = await ctx.db
    .selectFrom('threads')
    .select('updated_at')
    .where('id', '=', threadId)
    .executeTakeFirst();
  return String(row?.updated_at);
}

/** How many threads' newest state seq a store remembers (to skip asking on every write). */
const REMEMBERED = 1000;

/** The newest state seq of each thread a store wrote to, as it last knew it. */
const knownStates = new WeakMap<StoreContext, Map<string, number>>();

/**
 * After a write that stored rows up to `lastSeq`: writes a history state when one is due. A
 * thread shorter than `snapshotMinRows` costs nothing; a longer one a lookup of its newest state
 * now and then. Never fails the write it follows: an error is dropped (the next write tries
 * again).
 *
 * @param ctx - the store
 * @param threadId - the thread written
 * @param lastSeq - the seq of the last row written
 */
export async function afterWrite(
  ctx: StoreContext,
  threadId: string,
  lastSeq: number,
): Promise<void> {
  const minRows = ctx.snapshotMinRows;
  if (minRows === false || lastSeq < minRows) return;
  let known = knownStates.get(ctx);
  if (known === undefined) {
    known = new Map();
    knownStates.set(ctx, known);
  }
  try {
    let stateSeq = known.get(threadId);
    if (stateSeq !== undefined && !stateDue(stateSeq, lastSeq, minRows)) return;
    if (stateSeq === undefined) {
      const states = 'historyStates';
      const newest = await ctx.db
        .selectFrom(states)
        .select((eb) => eb.fn.max('at_seq').as('s'))
        .where('thread_id', '=', threadId)
        .executeTakeFirst();
      stateSeq = Number(newest?.s ?? 0);
      remember(known, threadId, stateSeq);
      if (!stateDue(stateSeq, lastSeq, minRows)) return;
    }
    const written = await writeHistoryState(ctx, threadId, false);
    if (written !== undefined) remember(known, threadId, written);
  } catch {
    // A state is only a faster read: the write it follows stands, and the next one tries again.
    known.delete(threadId);
  }
}

function remember(known: Map<string, number>, threadId: string, seq: number): void {
  known.delete(threadId);
  known.set(threadId, seq);
  if (known.size > REMEMBERED) known.delete(known.keys().next().value as string);
}

/** Forgets what a store knew of a thread's states (a truncation or deletion removed them). */
export function forgetStates(ctx: StoreContext, threadId: string): void {
  knownStates.get(ctx)?.delete(threadId);
}

/** Forgets what a store knew of every thread's states (an expiry removed some). */
export function forgetAllStates(ctx: StoreContext): void {
  knownStates.get(ctx)?.clear();
}
