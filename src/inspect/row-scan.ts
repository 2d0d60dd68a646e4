// A page of a thread's rows, newest page first, by keyset on seq. With a filter, rows are read
// backwards 500 at a time until a page of matches is found or `scanLimit` rows were read; the
// page then says which seqs it looked through, and "older" goes on below them.
import type { ChunkRow } from '../schema/chunk-row.js';
import type { TurnStatus } from '../schema/turn-status.js';
import { isEmptyFilter, matchesFilter, type RowFilter } from './filters.js';
import type { InspectedStore } from './reads.js';

/** What a rows page shows. */
export interface RowsRead {
  /** The rows, ascending. */
  readonly rows: readonly ChunkRow[];
  /** Rows in the thread. */
  readonly total: number;
  /** The `before` of the next older page, when there are older rows. */
  readonly nextBefore: number | undefined;
  /** Filtered: the seqs looked through (lowest, highest) and how many rows were read. */
  readonly scanned:
    | { readonly from: number; readonly to: number; readonly rows: number }
    | undefined;
  /** The status of a row's turn, as the pages read said. */
  readonly statusOf: (turnId: string) => TurnStatus;
}

/** Options of {@link readRows}. */
export interface ReadRowsOptions {
  readonly filter: RowFilter;
  readonly before: number | undefined;
  readonly limit: number;
  readonly scanLimit: number;
}

/**
 * Reads a page of rows, filtered or not.
 *
 * @param store - the store
 * @param threadId - the thread
 * @param options - the filter, the cursor and the bounds
 * @returns the page
 */
export async function readRows(
  store: InspectedStore,
  threadId: string,
  options: ReadRowsOptions,
): Promise<RowsRead> {
  const statuses: Record<string, TurnStatus> = {};
  const statusOf = (turnId: string): TurnStatus => statuses[turnId] ?? 'completed';
  const { filter, limit } = options;
  if (isEmptyFilter(filter)) {
    const page = await store.getChunks(threadId, {
      limit,
      ...(options.before !== undefined ? { before: options.before } : {}),
    });
    Object.assign(statuses, page.turnStatus);
    const nextBefore = page.hasMore && page.oldestSeq !== null ? page.oldestSeq : undefined;
    return { rows: page.chunks, total: page.total, nextBefore, scanned: undefined, statusOf };
  }
  const matches: ChunkRow[] = []; // newest first
  let before = options.before;
  let total = 0;
  let read = 0;
  let highest: number | undefined;
  let lowest: number | undefined;
  let more = true;
  while (matches.length < limit && read < options.scanLimit && more) {
    const page = await store.getChunks(threadId, {
      limit: Math.min(500, options.scanLimit - read),
      ...(before !== undefined ? { before } : {}),
    });
    Object.assign(statuses, page.turnStatus);
    total = page.total;
    read += page.chunks.length;
    highest ??= page.chunks.at(-1)?.seq;
    for (let i = page.chunks.length - 1; i >= 0 && matches.length < limit; i--) {
      const row = page.chunks[i] as ChunkRow;
      lowest = row.seq;
      if (matchesFilter(row, filter, statusOf)) matches.push(row);
    }
    more = page.hasMore || (lowest !== undefined && lowest > (page.oldestSeq ?? 0));
    before = lowest;
    if (page.chunks.length === 0) break;
  }
  return {
    rows: matches.reverse(),
    total,
    nextBefore: more && lowest !== undefined && lowest > 1 ? lowest : undefined,
    scanned:
      highest === undefined || lowest === undefined
        ? undefined
        : { from: lowest, to: highest, rows: read },
    statusOf,
  };
}
