// Which of the forks a page lists fork at a given seq of the path it shows: what a retention
// sentinel at a fork point stands for (notes/0121). Read from the forks the page already has
// (paths.ts), never by another query: with more forks than listed, it can only say so.
import type { Thread } from '../store/types.js';
import type { ThreadPaths } from './paths.js';

/** The listed forks at one seq of the path shown (see {@link forksAtSeq}). */
export interface ForksAtSeq {
  /** The listed forks whose fork point is the row at that seq of the path shown. */
  readonly threads: readonly Thread[];
  /** How many forks the page lists. */
  readonly listed: number;
  /** Whether the page lists only some of the forks, so others may fork at that seq too. */
  readonly more: boolean;
}

/**
 * The last seq of the page thread's own rows that the path shown reads: all of them when the
 * path is the thread; for an alternative of a conversation, where its chain of versions
 * (`forkOf`, through the conversation's `versions`) leaves the conversation's rows; 0 when it
 * reads none, or the store cannot say.
 */
function threadRowsShownUpTo({ thread, path, alternatives }: ThreadPaths): number {
  if (path.id === thread.id) return Number.POSITIVE_INFINITY;
  const forkOfVersion = (id: string) =>
    alternatives?.versions?.find((v) => v.threadId === id)?.forkOf;
  const seen = new Set<string>();
  let upTo = Number.POSITIVE_INFINITY;
  for (let fork = path.forkOf; fork !== undefined; fork = forkOfVersion(fork.threadId)) {
    upTo = Math.min(upTo, fork.atSeq);
    if (fork.threadId === thread.id) return upTo;
    if (seen.has(fork.threadId)) break;
    seen.add(fork.threadId);
  }
  return 0;
}

/**
 * The forks the page lists (of its thread, and of the path shown) whose fork point is the row at
 * `seq` of the path shown. A fork is listed under the thread whose own row its fork point is, so
 * a fork of the thread counts only where the path shown reads the thread's own rows.
 *
 * @param paths - the page's thread, path shown and forks
 * @param seq - a seq of the path shown
 * @returns the forks at `seq`, and whether the page lists only some forks
 */
export function forksAtSeq(paths: ThreadPaths, seq: number): ForksAtSeq {
  const forks = paths.forks;
  if (forks === undefined) return { threads: [], listed: 0, more: false };
  const threadUpTo = threadRowsShownUpTo(paths);
  const threads = forks.threads.filter(
    ({ forkOf }) =>
      forkOf?.atSeq === seq &&
      (forkOf.threadId === paths.path.id ||
        (forkOf.threadId === paths.thread.id && seq <= threadUpTo)),
  );
  return { threads, listed: forks.threads.length, more: forks.hasMore };
}
