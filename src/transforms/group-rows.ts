import type { ChatMessage } from '../schema/chat-message.js';
import { checkList } from '../schema/check-list.js';
import { isExactRow } from './exact-row.js';
import { MessageFold } from './message-fold.js';
import { type GroupableRow, groupableRowMini } from './row-input.js';

/**
 * Groups rows back into chat messages: the inverse of {@link explodeTurn}. Rows are taken in the
 * given order (sort pages with {@link mergeRowsBySeq} first); a row whose `seq` was already seen
 * is dropped, rows without a `seq` (drafts, live entries) are all kept.
 *
 * - One message per turn and role, in order of first appearance, with the stable id
 *   `${turnId}:${role}`. Consecutive system-only turns coalesce into one system message that
 *   keeps the first turn's id.
 * - `tool_call` rows rebuild their tool-batch (`data.index` 0 starts a new batch); a
 *   `tool_result` row joins its call in the same turn, wherever that call is; a result whose call
 *   row is absent (on an older page) becomes a placeholder entry with `orphan: true` in the
 *   assistant message, replaced by the real call once the older page is merged in.
 * - A `steering` row (role `user`) joins the assistant message in place.
 *
 * `rows` are validated first (a page may come from outside: an HTTP response, a file), so a
 * malformed row is reported by position; on schema-valid rows it never throws. See
 * `docs/rows.md`.
 *
 * @param rows - rows of one thread: stored rows, drafts or live entries
 * @returns the messages, oldest first
 * @throws {ChunklogError} `invalid-row` when `rows` is not an array of valid rows (`path` starts
 *   with the index)
 *
 * @example
 * ```ts
 * const page = await store.getChunks(threadId, { limit: 50 });
 * const messages = groupRowsToMessages(page.chunks);
 * // messages[i].id is `${turnId}:${role}`: a stable React/Svelte key
 * ```
 */
export function groupRowsToMessages(rows: readonly GroupableRow[]): ChatMessage[] {
  // Rows checked by hand as valid are grouped as they are; zod checks the others (and words the
  // error), without its intersection merging on every row of a valid page.
  if (Array.isArray(rows) && rows.every(isExactRow)) return groupRows(rows);
  return groupRows(
    checkList<GroupableRow>(rows, {
      schema: groupableRowMini,
      code: 'invalid-row',
      where: 'groupRowsToMessages',
      argument: 'rows',
      what: 'row',
    }),
  );
}

/** The numeric seqs of `rows` before index `end`. */
function seqsBefore(rows: readonly GroupableRow[], end: number): Set<number> {
  const seqs = new Set<number>();
  for (let i = 0; i < end; i++) {
    const seq = (rows[i] as GroupableRow).seq;
    if (typeof seq === 'number') seqs.add(seq);
  }
  return seqs;
}

/**
 * {@link groupRowsToMessages} without its checks, for rows chunklog validated or made itself (the
 * store's decoded rows, the window's log) on paths where a check per call would cost.
 */
export function groupRows(rows: readonly GroupableRow[]): ChatMessage[] {
  const fold = new MessageFold();
  // Rows usually come in ascending seq: then a seq above every one seen is new. Only when one
  // comes out of order is a set of the seqs seen so far built (from the rows before it) and
  // consulted from then on.
  let highest = -Infinity;
  let seen: Set<number> | undefined;
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i] as GroupableRow;
    const seq = row.seq;
    if (typeof seq === 'number') {
      if (seen === undefined && seq > highest) {
        highest = seq;
      } else {
        seen ??= seqsBefore(rows, i);
        if (seen.has(seq)) continue;
        seen.add(seq);
      }
    }
    fold.add(row);
  }
  return fold.messages();
}
