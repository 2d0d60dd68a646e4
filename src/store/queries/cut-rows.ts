import type { Kysely } from 'kysely';
import type { StoreTables, ThreadRecord } from '../tables.js';

/**
 * Which of a thread's rows a cut removes: those after seq `after` (`truncateAfter`), or those
 * before seq `before` (retention, which keeps the row at `before` as the sentinel of the whole
 * turns it removes: that row ends the last of them), but for the seqs in `keep` (the sentinels
 * at the rows where forks stop reading the thread, notes/0121).
 */
export type Cut =
  | { readonly after: number }
  | { readonly before: number; readonly keep?: readonly number[] | undefined };

/** What a cut sets on the thread row: its update time, and whatever else the caller moves. */
export type ThreadAfterCut = Pick<ThreadRecord, 'updated_at'> &
  Partial<Pick<ThreadRecord, 'next_seq' | 'fork_seq' | 'fork_path'>>;

/**
 * Deletes a thread's rows on one side of a cut with the history states and snapshots that no
 * longer tell its history, and sets `thread` on its row, in the caller's transaction (which
 * holds the thread's lock). A cut after a seq drops the states and snapshots that end past it;
 * a cut before a seq drops all of the thread's (a state folds the thread from its first row).
 * The status rows (`turns`) of the turns cut go too, so a running turn cut away is no longer
 * running, nor found interrupted: after seq `after`, those that start after it, and a turn cut in
 * two ends at the cut; before seq `before`, those that start at or before it.
 *
 * @param trx - the caller's write transaction
 * @param threadId - the thread
 * @param cut - which rows go
 * @param thread - what to set on the thread row
 * @returns how many rows were deleted
 */
export async function cutRows(
  trx: Kysely<StoreTables>,
  threadId: string,
  cut: Cut,
  thread: ThreadAfterCut,
): Promise<number> {
  const rows = trx.deleteFrom('chunks').where('thread_id', '=', threadId);
  const deleted = await ('after' in cut
    ? rows.where('seq', '>', cut.after)
    : rows
        .where('seq', '<', cut.before)
        .$if((cut.keep?.length ?? 0) > 0, (qb) => qb.where('seq', 'not in', cut.keep ?? []))
  ).executeTakeFirst();
  const states = trx.deleteFrom('historyStates').where('thread_id', '=', threadId);
  const snapshots = trx.deleteFrom('snapshots').where('thread_id', '=', threadId);
  if ('after' in cut) {
    await states.where('at_seq', '>', cut.after).execute();
    await snapshots.where('last_seq', '>', cut.after).execute();
  } else {
    await states.execute();
    await snapshots.execute();
  }
  const turns = trx.deleteFrom('turns').where('thread_id', '=', threadId);
  if ('after' in cut) {
    await turns.where('first_seq', '>', cut.after).execute();
    await trx
      .updateTable('turns')
      .set({ next_seq: cut.after + 1 })
      .where('thread_id', '=', threadId)
      .where('next_seq', '>', cut.after + 1)
      .execute();
  } else {
    await turns.where('first_seq', '<=', cut.before).execute();
  }
  await trx.updateTable('threads').set(thread).where('id', '=', threadId).execute();
  return Number(deleted.numDeletedRows);
}
