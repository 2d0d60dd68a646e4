import type { ChunkRow, ChunkRowDraft } from '../schema/chunk-row.js';

/**
 * A stored row held by a window: the row itself plus a render key. Its `id` is `#${seq}`.
 *
 * @example
 * ```ts
 * const entry: SealedEntry = { ...row, id: `#${row.seq}`, live: false, pending: false };
 * ```
 */
export type SealedEntry = ChunkRow & {
  /** `#${seq}`: unique in the thread. */
  readonly id: string;
  readonly live: false;
  readonly pending: false;
};

/**
 * A row that is not stored yet: a row of the live turn, exploded with `explodeTurn`, or a row of
 * an optimistic user message (`pending: true`). It has no `seq`.
 *
 * Ids: `${turnId}:${i}` for the live turn, where `i` is the row's position in the whole turn's
 * rows (rows evicted from the front still count, so ids do not move when the window evicts);
 * `${pendingId}:${i}` for a pending user message.
 *
 * @example
 * ```ts
 * if (entry.live) console.log(entry.id, entry.seq); // 'turn-7:3' null
 * ```
 */
export type LiveEntry = ChunkRowDraft & {
  readonly id: string;
  readonly seq: null;
  readonly live: true;
  /** True for a row of an optimistic user message (see `addPendingUserMessage`). */
  readonly pending: boolean;
};

/**
 * One entry of a window's flat `log`: a stored row or a row not stored yet. `groupRowsToMessages`
 * accepts entries as they are.
 *
 * @example
 * ```ts
 * for (const entry of window.log) render(entry.id, entry.type, entry.data, entry.live);
 * ```
 */
export type LogEntry = SealedEntry | LiveEntry;

/**
 * Wraps a stored row as a {@link SealedEntry}.
 *
 * @param row - a stored row
 * @returns the entry
 */
export function sealedEntry(row: ChunkRow): SealedEntry {
  return { ...row, id: `#${row.seq}`, live: false, pending: false };
}

/**
 * Wraps a row draft as a {@link LiveEntry}.
 *
 * @param draft - the row
 * @param id - its id
 * @param pending - whether it belongs to an optimistic user message
 * @returns the entry
 */
export function liveEntry(draft: ChunkRowDraft, id: string, pending: boolean): LiveEntry {
  return { ...draft, id, seq: null, live: true, pending };
}
