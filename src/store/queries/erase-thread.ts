import type { StoreContext } from '../context.js';
import { forgetStates } from '../history/write-state.js';
import { wrapStoreErrors } from '../store-errors.js';
import { writeTransaction } from '../transaction.js';
import { checkThreadId } from '../validate.js';
import { lockForRemoval } from './conversation-members.js';
import { refuseIfForked } from './fork-guard.js';

/**
 * `ChunkStore.eraseThread`: under the thread's lock, refuses a thread whose forks read its rows
 * by reference (`thread-has-forks`: erase them first; no fork can be made meanwhile, a fork is
 * made under the same lock), a conversation's versions included, before anything is deleted;
 * then deletes everything the store holds of it: rows, history states and snapshots, usage,
 * turns, lease and the thread row, and destroys its keys (from then on no copy of its encrypted
 * rows, in the database, its WAL or a backup, can be decrypted), in the same transaction.
 *
 * @returns whether the thread existed
 * @throws {ChunklogError} `thread-has-forks`, naming the forks
 */
export function eraseThread(ctx: StoreContext, threadId: string): Promise<boolean> {
  checkThreadId(threadId);
  return wrapStoreErrors('eraseThread', threadId, async () => {
    return await writeTransaction(
      ctx,
      async (trx) => {
        // A conversation is erased with its alternatives, each after those forked from it.
        const locked = await lockForRemoval(ctx, trx, threadId);
        const existed = locked !== undefined;
        const erased = [...(locked ?? []), threadId];
        // Every thread is locked and checked before anything is deleted or any key destroyed: a
        // refusal must leave every key (a destroyed key is not rolled back with the transaction).
        for (const id of erased) {
          if (existed) await refuseIfForked(trx, 'eraseThread', id, undefined, erased);
        }
        for (const id of erased) {
          if (id !== threadId) forgetStates(ctx, id);
          for (const table of [
            'chunks',
            'usage',
            'snapshots',
            'historyStates',
            'turns',
            'leases',
          ] as const) {
            await trx.deleteFrom(table).where('thread_id', '=', id).execute();
          }
          await trx.deleteFrom('threads').where('id', '=', id).execute();
        }
        // Last, so that a failure to delete leaves the keys; destroying a key twice (a retried
        // transaction) is no error.
        for (const id of erased) await ctx.cipher?.keys.destroyKey(id);
        return existed;
      },
      { what: 'eraseThread', threadId },
    );
  });
}
