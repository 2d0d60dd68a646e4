// What a search reads of a thread: its path and, for a conversation, each of its alternatives'
// own rows (those after its fork seq; the rows before are read through the conversation or
// another version, and are searched there). `listThreads` lists no alternative, so without them a
// row only a version holds (an edited prompt, a regenerated answer) would never be found.
import type { Thread } from '../store/types.js';
import { type InspectedStore, orUndefined } from './reads.js';

/** One path a search reads of a thread, newest rows first. */
export interface SearchedPath {
  /** The thread whose path is read: the thread searched, or one of its alternatives. */
  readonly threadId: string;
  /** Whether it is an alternative of the thread searched (its hits are shown as that version's). */
  readonly alternative: boolean;
  /** Only rows above this seq: an alternative's fork seq; 0 for the thread's whole path. */
  readonly above: number;
  /** The seq of its newest row as `getAlternatives` said, bounding its first page; else undefined. */
  readonly total: number | undefined;
}

/**
 * The paths a search reads of `thread`: the thread's own, then, for a conversation, its
 * alternatives' own rows in the order they were made (`getAlternatives`' `versions`: one read). A
 * store that cannot list alternatives (before 0007) gives the thread's path alone.
 *
 * @param store - the store
 * @param thread - a thread a search reaches
 * @returns the paths, the thread's own first
 */
export async function searchedPaths(
  store: InspectedStore,
  thread: Thread,
): Promise<SearchedPath[]> {
  const own: SearchedPath = { threadId: thread.id, alternative: false, above: 0, total: undefined };
  if (thread.alternativeOf !== undefined) return [own];
  const alternatives = await orUndefined(store.getAlternatives(thread.id));
  // `versions` is new in 0115: a store answering without it lists none.
  const versions = (alternatives?.versions ?? []).filter((v) => v.threadId !== thread.id);
  return [
    own,
    ...versions.map((v) => ({
      threadId: v.threadId,
      alternative: true,
      above: v.forkOf?.atSeq ?? 0,
      total: v.total,
    })),
  ];
}
