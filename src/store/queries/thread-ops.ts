import { ChunklogError } from '../../errors/chunklog-error.js';
import { readOptions } from '../../errors/invalid-option.js';
import type { JSONObject } from '../../schema/json.js';
import type { StoreContext } from '../context.js';
import { forgetStates } from '../history/write-state.js';
import { threadNotFound, wrapStoreErrors } from '../store-errors.js';
import { checkOwnerId, checkTitle } from '../thread-meta.js';
import { checkMetadata, insertThreadIfAbsent, openThread, selectThread } from '../threads.js';
import { writeTransaction } from '../transaction.js';
import type { CreateThreadOptions, Thread } from '../types.js';
import { checkFirstSeq, checkThreadId, newThreadId } from '../validate.js';
import { lockForRemoval } from './conversation-members.js';
import { refuseIfForked } from './fork-guard.js';

/** The `thread-exists` error for `threadId`. */
export function threadExists(threadId: string): ChunklogError {
  return new ChunklogError('thread-exists', `Thread ${JSON.stringify(threadId)} already exists.`, {
    threadId,
  });
}

/** `ChunkStore.createThread`: see there. */
export function createThread(
  ctx: StoreContext,
  threadId: string | undefined,
  options?: CreateThreadOptions,
): Promise<Thread> {
  const id = newThreadId(threadId, 'threadId');
  const o = readOptions(options, 'createThread', ['metadata', 'ownerId', 'title', 'firstSeq']);
  const metadata: JSONObject | undefined = checkMetadata(o.metadata);
  const ownerId = o.ownerId === undefined ? undefined : checkOwnerId(o.ownerId);
  const title = o.title === undefined ? undefined : checkTitle(o.title);
  const firstSeq = o.firstSeq === undefined ? 1 : checkFirstSeq(o.firstSeq);
  return wrapStoreErrors('createThread', id, () =>
    writeTransaction(
      ctx,
      async (trx) => {
        if ((await selectThread(ctx, trx, id, true)) !== undefined) throw threadExists(id);
        await insertThreadIfAbsent(ctx, trx, {
          id,
          now: ctx.now(),
          nextSeq: firstSeq,
          metadata,
          ownerId,
          title,
        });
        const created = await selectThread(ctx, trx, id, false);
        if (created === undefined) throw new Error('the new thread row is missing');
        return await openThread(ctx, created);
      },
      { what: 'createThread', threadId: id },
    ),
  );
}

/** `ChunkStore.getThread`: see there. */
export function getThread(ctx: StoreContext, threadId: string): Promise<Thread> {
  checkThreadId(threadId);
  return wrapStoreErrors('getThread', threadId, async () => {
    const thread = await selectThread(ctx, ctx.db, threadId, false);
    if (thread === undefined) throw threadNotFound(threadId);
    return await openThread(ctx, thread);
  });
}

/**
 * `ChunkStore.deleteThread`: the thread's rows, then the thread, under the thread's lock (and its
 * conversation's, and its alternatives', taken by `lockForRemoval`); refused while forks read its
 * rows by reference (`thread-has-forks`).
 */
export function deleteThread(ctx: StoreContext, threadId: string): Promise<boolean> {
  checkThreadId(threadId);
  return wrapStoreErrors('deleteThread', threadId, () =>
    writeTransaction(
      ctx,
      async (trx) => {
        const alternatives = await lockForRemoval(ctx, trx, threadId);
        if (alternatives === undefined) return false;
        // A conversation goes with its alternatives, each after those forked from it.
        for (const id of [...alternatives, threadId]) {
          if (id !== threadId) forgetStates(ctx, id);
          await refuseIfForked(trx, 'deleteThread', id, undefined);
          await trx.deleteFrom('chunks').where('thread_id', '=', id).execute();
          // Also by foreign key; explicit for a SQLite connection without foreign keys on.
          await trx.deleteFrom('usage').where('thread_id', '=', id).execute();
          await trx.deleteFrom('turns').where('thread_id', '=', id).execute();
          await trx.deleteFrom('snapshots').where('thread_id', '=', id).execute();
          await trx.deleteFrom('historyStates').where('thread_id', '=', id).execute();
          await trx.deleteFrom('threads').where('id', '=', id).execute();
        }
        return true;
      },
      { what: 'deleteThread', threadId },
    ),
  );
}
