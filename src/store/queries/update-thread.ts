import { readOptions } from '../../errors/invalid-option.js';
import type { StoreContext } from '../context.js';
import { rotatedPast } from '../encryption/store-cipher.js';
import { threadNotFound, wrapStoreErrors } from '../store-errors.js';
import { checkClearable, checkOwnerId, checkTitle } from '../thread-meta.js';
import { checkMetadata, openThread, selectThread, storedThreadColumns } from '../threads.js';
import { writeTransaction } from '../transaction.js';
import type { Thread, UpdateThreadOptions } from '../types.js';
import { checkThreadId } from '../validate.js';

/** `ChunkStore.updateThread`: one UPDATE of the given columns under the thread's lock. */
export function updateThread(
  ctx: StoreContext,
  threadId: string,
  changes: UpdateThreadOptions,
): Promise<Thread> {
  checkThreadId(threadId);
  const o = readOptions(changes, 'updateThread', ['metadata', 'ownerId', 'title']);
  const metadata = checkClearable(o.metadata, checkMetadata);
  const ownerId = checkClearable(o.ownerId, checkOwnerId);
  const title = checkClearable(o.title, checkTitle);
  return wrapStoreErrors('updateThread', threadId, async () => {
    const json = metadata === undefined || metadata === null ? metadata : JSON.stringify(metadata);
    const sealed = await storedThreadColumns(ctx, threadId, json, title);
    return await writeTransaction(
      ctx,
      async (trx) => {
        const thread = await selectThread(ctx, trx, threadId, true);
        if (thread === undefined) throw threadNotFound(threadId);
        // A key rotation moved the thread past the key the values were sealed with (fetched
        // before the lock): seal them again with the newest (notes/0095).
        const stored =
          sealed.version !== undefined && rotatedPast(thread.key_version, sealed.version)
            ? await storedThreadColumns(ctx, threadId, json, title)
            : sealed;
        const set = {
          ...(metadata === undefined ? {} : { metadata: stored.metadata ?? null }),
          ...(ownerId === undefined ? {} : { owner_id: ownerId }),
          ...(title === undefined ? {} : { title: stored.title ?? null }),
        };
        if (Object.keys(set).length > 0) {
          await trx.updateTable('threads').set(set).where('id', '=', threadId).execute();
        }
        const updated = await selectThread(ctx, trx, threadId, false);
        if (updated === undefined) throw threadNotFound(threadId);
        return await openThread(ctx, updated);
      },
      { what: 'updateThread', threadId },
    );
  });
}
