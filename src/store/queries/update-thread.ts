import { readOptions } from '../../errors/invalid-option.js';
import { storedJson } from '../codec.js';
import type { StoreContext } from '../context.js';
import { checkNotBehind } from '../encryption/store-cipher.js';
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
    const json =
      metadata === undefined || metadata === null
        ? metadata
        : storedJson(metadata, ctx.jsonRefuses);
    return await writeTransaction(
      ctx,
      async (trx) => {
        const thread = await selectThread(ctx, trx, threadId, true);
        if (thread === undefined) throw threadNotFound(threadId);
        // Sealed under the lock, with the key the provider has now: a key fetched before it may
        // be one that a rotation or an erasure (of the thread's earlier life) destroyed since,
        // and a thread that does not exist gets no key (notes/0109).
        const stored = await storedThreadColumns(ctx, threadId, json, title);
        if (stored.version !== undefined) {
          checkNotBehind(threadId, stored.version, thread.key_version);
        }
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
