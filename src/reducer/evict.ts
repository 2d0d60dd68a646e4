import { draftOf, seal } from './turn-state.js';
import type { TurnState } from './types.js';

/**
 * Drops up to `count` leading chunks to bound memory, never the open chunk nor any after it.
 * Pure. Their memory is freed once no older state holds them (the buffer is compacted when the
 * dropped prefix outgrows the rest). A later result, progress or approval for a call in a
 * dropped batch becomes an orphan entry.
 *
 * @param state - the state
 * @param count - how many leading chunks to drop at most
 * @returns the state without them (`evicted` grows by the number dropped)
 *
 * @example
 * ```ts
 * const smaller = evictLeadingChunks(state, state.chunkCount - 50);
 * smaller.chunkAt(0); // chunk number smaller.evicted of the turn
 * ```
 */
export function evictLeadingChunks(state: TurnState, count: number): TurnState {
  const limit = state.openIndex ?? state.chunkCount;
  const drop = Math.min(limit, Math.max(0, Math.floor(Number.isNaN(count) ? 0 : count)));
  if (drop === 0) return state;
  const d = draftOf(state);
  const committed = d.len - d.start;
  d.evicted += drop;
  if (drop <= committed) {
    d.start += drop;
  } else {
    d.start = d.len;
    d.tail = undefined;
    d.tailBare = false;
  }
  if (d.start > 0 && d.start >= d.len - d.start) {
    d.buf = d.buf.slice(d.start, d.len);
    d.len -= d.start;
    d.start = 0;
  }
  return seal(d);
}
