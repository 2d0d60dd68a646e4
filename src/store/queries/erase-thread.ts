import type { StoreContext } from '../context.js';
import { wrapStoreErrors } from '../store-errors.js';
import { selectThread } from '../threads.js';
import { writeTransaction } from '../transaction.js';
import { checkThreadId } from '../validate.js';

/**
 * `ChunkStore.eraseThread`: destroys the thread's keys first (from then on no copy of its
 * encrypted rows, in the database, its WAL or a backup, can be decrypted), then deletes
 * everything the store holds of it: rows, history states and snapshots, usage, turns, lease and
 * the thread row, in one transaction.
 *
 * @returns whether the thread existed
 */
export function eraseThread(ctx: StoreContext, threadId: string): Promise<boolean> {
  checkThreadId(threadId);
  return wrapStoreErrors('eraseThread', threadId, async () => {
    await ctx.cipher?.keys.destroyKey(threadId);
    return await writeTransaction(
      ctx,
      async (trx) => {
        const existed = (await selectThread(ctx, trx, threadId, true)) !== undefined;
        for (const table of [
          'chunks',
          'usage',
          'snapshots',
          'historyStates',
          'turns',
          'leases',
        ] as const) {
          await trx.deleteFrom(table).where('thread_id', '=', threadId).execute();
        }
        await trx.deleteFrom('threads').where('id', '=', threadId).execute();
        return existed;
      },
      { what: 'eraseThread', threadId },
    );
  });
}
