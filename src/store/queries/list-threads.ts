import { ChunklogError } from '../../errors/chunklog-error.js';
import { readOptions } from '../../errors/invalid-option.js';
import { asString } from '../codec.js';
import type { StoreContext } from '../context.js';
import { wrapStoreErrors } from '../store-errors.js';
import { corruptRowPolicy } from '../store-options.js';
import { checkOwnerId } from '../thread-meta.js';
import { openThread, type SelectedThread, THREAD_COLUMNS } from '../threads.js';
import type {
  CorruptRowPolicy,
  ListThreadsOptions,
  SkippedThread,
  Thread,
  ThreadPage,
} from '../types.js';
import { checkLimit, checkThreadId } from '../validate.js';

interface Cursor {
  readonly updatedAt: number;
  readonly id: string;
}

function encodeCursor(updatedAt: unknown, id: string): string {
  return `${Number(updatedAt)}:${id}`;
}

function decodeCursor(before: unknown): Cursor {
  const colon = typeof before === 'string' ? before.indexOf(':') : -1;
  const updatedAt = colon > 0 ? Number((before as string).slice(0, colon)) : Number.NaN;
  if (!Number.isSafeInteger(updatedAt)) {
    throw new ChunklogError(
      'invalid-option',
      'before must be the nextBefore of a previous listThreads page.',
      { option: 'before', value: before },
    );
  }
  return { updatedAt, id: (before as string).slice(colon + 1) };
}

/**
 * A listed thread row, opened; under the `skip` policy, a row that does not read (`corrupt-row`:
 * a title or metadata whose key is gone, a time that is no time) is the thread skipped, with
 * its error, as the other reads leave out a corrupt row.
 */
async function readThread(
  ctx: StoreContext,
  record: SelectedThread,
  policy: CorruptRowPolicy,
): Promise<Thread | SkippedThread> {
  try {
    return await openThread(ctx, record);
  } catch (error) {
    if (policy !== 'skip' || !ChunklogError.hasCode(error, 'corrupt-row')) throw error;
    return { threadId: asString(record.id), error };
  }
}

/**
 * `ChunkStore.listThreads`: keyset by last activity, `(updated_at, id) < cursor ORDER BY
 * updated_at DESC, id DESC`, on the `(updated_at, id)` index, or with an owner id on the
 * `(owner_id, updated_at, id)` index; the forks of a thread on the `(parent_id, fork_seq)` index.
 */
export function listThreads(ctx: StoreContext, options?: ListThreadsOptions): Promise<ThreadPage> {
  const o = readOptions(options, 'listThreads', [
    'limit',
    'before',
    'ownerId',
    'forkOf',
    'onCorruptRow',
  ]);
  const policy = corruptRowPolicy(o.onCorruptRow, ctx.onCorruptRow);
  const limit = checkLimit(o.limit);
  const ownerId = o.ownerId === undefined ? undefined : checkOwnerId(o.ownerId);
  const forkOf = o.forkOf === undefined ? undefined : checkThreadId(o.forkOf, 'forkOf');
  const cursor = o.before === undefined ? undefined : decodeCursor(o.before);
  return wrapStoreErrors('listThreads', undefined, async () => {
    const records = await ctx.db
      .selectFrom('threads')
      .select(THREAD_COLUMNS)
      // Conversations, not their alternatives.
      .where('conversation_id', 'is', null)
      .$if(ownerId !== undefined, (qb) => qb.where('owner_id', '=', ownerId as string))
      .$if(forkOf !== undefined, (qb) => qb.where('parent_id', '=', forkOf as string))
      .$if(cursor !== undefined, (qb) =>
        qb.where((eb) => {
          const { updatedAt, id } = cursor as Cursor;
          return eb.or([
            eb('updated_at', '<', updatedAt),
            eb.and([eb('updated_at', '=', updatedAt), eb('id', '<', id)]),
          ]);
        }),
      )
      .orderBy('updated_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit + 1)
      .execute();
    const hasMore = records.length > limit;
    const page = hasMore ? records.slice(0, limit) : records;
    const read = await Promise.all(page.map((record) => readThread(ctx, record, policy)));
    const threads = read.filter((thread): thread is Thread => !('error' in thread));
    const skipped = read.filter((thread): thread is SkippedThread => 'error' in thread);
    // The cursor is the last row read, listed or skipped: paging carries on past a skipped one.
    const lastRecord = page[page.length - 1];
    return {
      threads,
      hasMore,
      nextBefore:
        hasMore && lastRecord !== undefined
          ? encodeCursor(lastRecord.updated_at, asString(lastRecord.id))
          : null,
      ...(skipped.length > 0 ? { skipped } : {}),
    };
  });
}
