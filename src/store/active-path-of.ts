import { ChunklogError } from '../errors/chunklog-error.js';
import type { ChunkStore } from './types.js';

/**
 * The path a turn or a request reads and writes of a conversation: `store.activePath(id)` (one
 * indexed read), or the thread itself for a store without alternatives (a store of your own that
 * does not implement `activePath`) or a thread not created yet.
 *
 * @param store - a store, with or without `activePath`
 * @param threadId - the conversation
 * @returns the thread id of its active path
 * @throws what `activePath` throws, but `thread-not-found`
 */
export async function activePathOf(
  store: { readonly activePath?: ChunkStore['activePath'] | undefined },
  threadId: string,
): Promise<string> {
  if (typeof store.activePath !== 'function') return threadId;
  try {
    return await store.activePath(threadId);
  } catch (error) {
    if (ChunklogError.hasCode(error, 'thread-not-found')) return threadId;
    throw error;
  }
}
