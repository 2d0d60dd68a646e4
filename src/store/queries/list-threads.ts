import { ChunklogError } from '../../errors/chunklog-error.js';
import { readOptions } from '../../errors/invalid-option.js';
import type { StoreContext } from '../context.js';
import { wrapStoreErrors } from '../store-errors.js';
import { checkOwnerId } from '../thread-meta.js';
import { openThread, THREAD_COLUMNS } from '../threads.js';
import type { ListThreadsOptions, ThreadPage } from '../types.js';
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
 * `ChunkStore.listThreads`: keyset by last activity, `(updated_at, id) < cursor ORDER BY
 * updated_at DESC, id DESC`, on the `(updated_at, id)` index, or with an owner id on the
 * `(owner_id, updated_at, id)` index; the forks of a thread on the `(parent_id, fork_seq)` index.
 */
export function listThreads(ctx: StoreContext, options?: ListThreadsOptions): Promise<ThreadPage> {
  const o = readOptions(options, 'listThreads', ['limit', 'before', 'ownerId', 'forkOf']);
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
    const threads = await Promise.all(page.map((record) => openThread(ctx, record)));
    const last = threads[threads.length - 1];
    const lastRecord = page[page.length - 1];
    return {
      threads,
      hasMore,
      nextBefore:
        hasMore && last !== undefined && lastRecord !== undefined
          ? encodeCursor(lastRecord.updated_at, last.id)
          : null,
    };
  });
}
