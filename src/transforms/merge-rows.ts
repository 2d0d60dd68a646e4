import type { ChunkRow } from '../schema/chunk-row.js';

/**
 * Merges pages of stored rows into one list: each `seq` once (the first copy met wins; stored
 * rows never change, so copies are equal), in ascending `seq`. Pages may overlap and come in any
 * order.
 *
 * @param pages - pages of rows of one thread (for example successive `getChunks` results)
 * @returns the rows of all pages, deduplicated by `seq`, oldest first
 *
 * @example
 * ```ts
 * const rows = mergeRowsBySeq(loaded, olderPage.chunks);
 * const messages = groupRowsToMessages(rows);
 * ```
 */
export function mergeRowsBySeq<R extends ChunkRow>(...pages: ReadonlyArray<readonly R[]>): R[] {
  const bySeq = new Map<number, R>();
  let sorted = true;
  let previous = -Infinity;
  for (const page of pages) {
    for (const row of page) {
      if (bySeq.has(row.seq)) continue;
      bySeq.set(row.seq, row);
      if (row.seq < previous) sorted = false;
      previous = row.seq;
    }
  }
  const rows = [...bySeq.values()];
  if (!sorted) rows.sort((a, b) => a.seq - b.seq);
  return rows;
}
