// Which path of a thread its pages show, and where the thread sits among forks and alternatives.
// A conversation's pages show its active path (`activePath`) unless `?path=` names the
// conversation itself or one of its alternatives; an alternative's or a fork's pages show its own
// path. A store not migrated to 0007 has no alternatives: every thread then shows its own path.
import { ChunklogError } from '../errors/chunklog-error.js';
import type { Alternatives, Thread } from '../store/types.js';
import { type InspectedStore, orUndefined } from './reads.js';

/** A thread, the path its pages show, and its conversation's branch points. */
export interface ThreadPaths {
  /** The thread asked for. */
  readonly thread: Thread;
  /** The thread whose rows are shown: `thread`, or for a conversation its active path. */
  readonly path: Thread;
  /** The conversation's active path (its own id, or an alternative's); `thread.id` for others. */
  readonly active: string;
  /**
   * The branch points of the conversation the thread is (or is an alternative of); undefined when
   * the store cannot say (not migrated to 0007).
   */
  readonly alternatives: Alternatives | undefined;
  /** Whether links must name the path (`?path=`): the thread is a conversation with versions. */
  readonly pinned: boolean;
  /**
   * The forks made of the thread and, when another path is shown, of that path: most recently
   * active first, at most {@link FORKS_SHOWN}; undefined when the store cannot say (before 0006).
   */
  readonly forks: ForkList | undefined;
}

/** The forks of a page's thread and path (see {@link ThreadPaths.forks}). */
export interface ForkList {
  readonly threads: readonly Thread[];
  /** Whether more forks exist than are listed. */
  readonly hasMore: boolean;
}

/** How many forks of each thread a page lists. */
export const FORKS_SHOWN = 50;

async function forksOf(
  store: InspectedStore,
  ids: readonly string[],
): Promise<ForkList | undefined> {
  const pages = await orUndefined(
    Promise.all(
      ids.map((forkOf) => store.listThreads({ forkOf, limit: FORKS_SHOWN, onCorruptRow: 'skip' })),
    ),
  );
  if (pages === undefined) return undefined;
  return {
    threads: pages.flatMap((page) => page.threads),
    hasMore: pages.some((page) => page.hasMore),
  };
}

function notAPath(thread: Thread, requested: string): never {
  throw new ChunklogError(
    'invalid-option',
    `path must be ${JSON.stringify(thread.id)} or one of its alternatives (got ${JSON.stringify(requested.slice(0, 80))})`,
    { option: 'path', value: requested },
  );
}

/**
 * Reads a thread and the path its pages show.
 *
 * @param store - the store
 * @param threadId - the thread of the page
 * @param requested - the `path` query value, if any
 * @returns the thread, the path shown and the conversation's branch points
 * @throws {ChunklogError} `thread-not-found`; `invalid-option` when `requested` is not the thread
 *   or one of its alternatives
 */
export async function readPaths(
  store: InspectedStore,
  threadId: string,
  requested: string | undefined,
): Promise<ThreadPaths> {
  const thread = await store.getThread(threadId);
  if (thread.alternativeOf !== undefined) {
    if (requested !== undefined && requested !== thread.id) notAPath(thread, requested);
    const alternatives = await orUndefined(store.getAlternatives(thread.alternativeOf));
    const forks = await forksOf(store, [thread.id]);
    return { thread, path: thread, active: thread.id, alternatives, pinned: false, forks };
  }
  const active = (await orUndefined(store.activePath(thread.id))) ?? thread.id;
  const alternatives = await orUndefined(store.getAlternatives(thread.id));
  const pinned = active !== thread.id || (alternatives?.versions?.length ?? 1) > 1;
  const shown = requested ?? active;
  if (shown === thread.id) {
    const forks = await forksOf(store, [thread.id]);
    return { thread, path: thread, active, alternatives, pinned, forks };
  }
  const path = await orUndefined(store.getThread(shown));
  if (path?.alternativeOf !== thread.id) notAPath(thread, shown);
  const forks = await forksOf(store, [thread.id, path.id]);
  return { thread, path, active, alternatives, pinned, forks };
}
