// The status bar's words for a chat window's memory, shared by the browser examples (web-chat,
// react-chat): how many rows the page holds against its limit, and how many the thread has
// stored. Browser-safe: it only reads a snapshot.
import type { ChunkWindowSnapshot } from 'chunklog/window';

/** What the numbers mean, for the status bar's tooltip. */
export const WINDOW_STATS_LEGEND =
  'A row is one entry of the stored log: a message is one or more rows (its text, a thinking ' +
  'block, each tool call and its result). "In memory" counts the rows this page holds: stored ' +
  'rows plus the running turn, which is not stored until it ends. At the bottom, the page drops ' +
  'its oldest rows past the limit; while you scroll up to read, it keeps them and loads older ' +
  'pages. "Stored" is every row of the thread in the database.';

/**
 * `18 rows in memory (limit 40) · 18 stored`, with what the user can do about it: scroll up for
 * older rows, or that the limit waits while they read.
 */
export function describeWindow(
  snapshot: Pick<ChunkWindowSnapshot, 'log' | 'total' | 'hasOlder' | 'scrolledUp'>,
  limit: number,
): string {
  const held = snapshot.log.length;
  const memory =
    snapshot.scrolledUp && held > limit
      ? `${held} rows in memory (limit ${limit}, back to it at the bottom)`
      : `${held} rows in memory (limit ${limit})`;
  const older = snapshot.hasOlder ? ' · scroll up for older' : '';
  return `${memory} · ${snapshot.total} stored in the thread${older}`;
}
