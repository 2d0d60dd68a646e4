import { ChunklogError } from '../errors/chunklog-error.js';
import type { ChunkRow } from '../schema/chunk-row.js';
import { previewValue } from '../schema/parse.js';

/**
 * Merges pages of stored rows into one list: each `seq` once (the first copy met wins; stored
 * rows never change, so copies are equal), in ascending `seq`. Pages may overlap and come in any
 * order.
 *
 * @param pages - pages of rows of one thread (for example successive `getChunks` results)
 * @returns the rows of all pages, deduplicated by `seq`, oldest first
 * @throws {ChunklogError} `invalid-row` when a page is not an array or a row has no integer
 *   `seq` (`path` is `[page, row]`); the rows are not checked further: validate a page from
 *   outside with `parseChunkPage`, and {@link groupRowsToMessages} checks the rows it groups
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
  for (let p = 0; p < pages.length; p++) {
    const page = pages[p];
    if (!Array.isArray(page)) invalidRow([p], 'a page must be an array of rows', page);
    for (let r = 0; r < page.length; r++) {
      const row = page[r] as R;
      if (typeof row !== 'object' || row === null || !Number.isInteger(row.seq)) {
        invalidRow([p, r], 'a row needs an integer `seq`', row);
      }
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

function invalidRow(path: number[], reason: string, value: unknown): never {
  throw new ChunklogError(
    'invalid-row',
    `mergeRowsBySeq: ${reason} (pages[${path.join('][')}]: ${previewValue(value)})`,
    { path, value },
  );
}
