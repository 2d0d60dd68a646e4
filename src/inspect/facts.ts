// What the inspector shows about a thread and a turn beyond its rows. Each fact reads today's
// store API; the ones the store does not hold yet return undefined, and the pages show "—".
// MERGE: the `context` track adds a thread owner and title and per-step usage to the store, the
// `durable` track a turn status: fill in threadOwner, stepUsage and turnStatus from them here.
import type { ChunkRow } from '../schema/chunk-row.js';
import type { Thread } from '../store/types.js';

/** The thread's title: `metadata.title` when it is a string. */
export function threadTitle(thread: Thread): string | undefined {
  const title = thread.metadata?.title;
  return typeof title === 'string' ? title : undefined;
}

/** The thread's owner: `metadata.owner` (or `userId`) until the store has an owner column. */
export function threadOwner(thread: Thread): string | undefined {
  const owner = thread.metadata?.owner ?? thread.metadata?.userId;
  return typeof owner === 'string' ? owner : undefined;
}

/** The turn's status (`running`, `completed`, `failed`, `cancelled`, `interrupted`), when stored. */
export function turnStatus(rows: readonly ChunkRow[]): string | undefined {
  // Until the store records it: a cancelled or failed turn says so in its rows.
  if (rows.some((row) => row.type === 'system' && row.data.kind === 'cancelled'))
    return 'cancelled';
  if (rows.some((row) => row.type === 'error')) return 'failed';
  return undefined;
}

/** Token usage of one step of a turn, when the store holds it. */
export function stepUsage(_rows: readonly ChunkRow[], _step: number): string | undefined {
  return undefined;
}

/** When the turn was stored (its rows' `createdAt`), as the store holds it. */
export function turnTimes(rows: readonly ChunkRow[]): {
  first?: string | undefined;
  last?: string | undefined;
} {
  const times = rows.map((row) => row.createdAt).filter((t): t is string => t !== undefined);
  return { first: times[0], last: times.at(-1) };
}
