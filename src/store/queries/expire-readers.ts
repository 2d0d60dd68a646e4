import type { Kysely } from 'kysely';
import { asString } from '../codec.js';
import { type PathSegment, type ThreadOrigin, threadOrigin } from '../fork-path.js';
import type { StoreTables } from '../tables.js';
import { compareCodeUnits } from '../validate.js';

/** A thread as the lock order sees it: its conversation and its depth in a chain of forks. */
export interface LockedThread {
  readonly id: string;
  /** The conversation it belongs to: `conversation_id` for an alternative, else its own id. */
  readonly conversation: string;
  /** How many stretches of other threads its path reads (0 for a plain thread). */
  readonly depth: number;
}

/** A thread whose path reads rows of another thread (the owner), with the stretches it reads. */
export interface ForkReader extends LockedThread {
  /** The stretches of the owner's rows its path reads (usually one). */
  readonly stretches: readonly PathSegment[];
}

/** The columns a reader is read with. */
const READER_COLUMNS = ['id', 'parent_id', 'fork_seq', 'fork_path', 'conversation_id'] as const;

/** A thread row as {@link lockedThread} reads it. */
type ReaderRow = {
  readonly id: unknown;
  readonly parent_id: unknown;
  readonly fork_seq: unknown;
  readonly fork_path: unknown;
  readonly conversation_id: unknown;
};

/** The lock-order view of a thread row. */
export function lockedThread(
  row: ReaderRow,
  origin: ThreadOrigin = threadOrigin(row),
): LockedThread {
  const id = asString(row.id);
  return {
    id,
    conversation:
      row.conversation_id === null || row.conversation_id === undefined
        ? id
        : asString(row.conversation_id),
    depth: origin.ancestors.length,
  };
}

/**
 * Every thread whose path reads rows of `ownerId`: its forks (at a seq above 0), their forks,
 * and so on, those that read none of the owner's rows left out (a fork made before notes/0110
 * may name a parent it does not read). A fork's path is a prefix of its source's, so a thread
 * that reads none of the owner's rows has no fork that does: the search stops there. One query
 * per generation, on the `threads (parent_id, fork_seq)` index.
 */
export async function forkReaders(db: Kysely<StoreTables>, ownerId: string): Promise<ForkReader[]> {
  const readers: ForkReader[] = [];
  const seen = new Set<string>([ownerId]);
  for (let frontier = [ownerId]; frontier.length > 0; ) {
    const rows = await db
      .selectFrom('threads')
      .select(READER_COLUMNS)
      .where('parent_id', 'in', frontier)
      .where('fork_seq', '>', 0)
      .orderBy('id')
      .execute();
    frontier = [];
    for (const row of rows) {
      const origin = threadOrigin(row);
      const id = asString(row.id);
      const stretches = origin.ancestors.filter((s) => s.threadId === ownerId);
      if (seen.has(id) || stretches.length === 0) continue;
      seen.add(id);
      readers.push({ ...lockedThread(row, origin), stretches });
      frontier.push(id);
    }
  }
  return readers;
}

/**
 * The order in which a transaction that locks several threads takes their locks, the same for
 * every such transaction so that no two wait for each other (notes/0121): conversation by
 * conversation (by id); in a conversation its own thread first, then its alternatives deepest
 * first (a fork before the thread it forks: its path reads more stretches), then by id.
 * `deleteThread`, `eraseThread` and `expire` take their locks in this order (`addAlternative`
 * takes the conversation's, then one alternative's: this order too).
 */
export function lockOrder<T extends LockedThread>(threads: readonly T[]): T[] {
  return [...threads].sort(
    (a, b) =>
      compareCodeUnits(a.conversation, b.conversation) ||
      Number(b.id === b.conversation) - Number(a.id === a.conversation) ||
      b.depth - a.depth ||
      compareCodeUnits(a.id, b.id),
  );
}
