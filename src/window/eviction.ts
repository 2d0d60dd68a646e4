import { evictPendingRows } from './pending-segment.js';
import { evictTurnRows } from './turn-segment.js';
import { logLength, type Segment, type WindowState } from './window-state.js';

/** What {@link evictToLimit} did. */
export interface Eviction {
  readonly state: WindowState;
  /** How many log entries were dropped. */
  readonly dropped: number;
}

/**
 * Rolling eviction (invariant 7): while the log is over `limit`, drop the oldest stored row, then
 * the oldest entries after it in log order (a pending message's rows, a live turn's leading
 * chunks), and stop at the open chunk, which is never dropped.
 *
 * @param state - the state
 * @param limit - the most entries the log may hold (the open chunk aside)
 * @returns the new state (the same object when nothing was dropped) and the count dropped
 */
export function evictToLimit(state: WindowState, limit: number): Eviction {
  let over = logLength(state) - limit;
  if (over <= 0) return { state, dropped: 0 };
  let dropped = 0;
  const fromSealed = Math.min(over, state.sealed.entries.length);
  const sealed = state.sealed.evictFront(fromSealed);
  over -= fromSealed;
  dropped += fromSealed;
  let segments: Segment[] | undefined;
  for (let i = 0; i < state.segments.length && over > 0; i++) {
    const segment = state.segments[i] as Segment;
    let next: Segment;
    let gone: number;
    let blocked = false;
    if (segment.kind === 'pending') {
      const result = evictPendingRows(segment, over);
      next = result.segment;
      gone = result.dropped;
    } else {
      const result = evictTurnRows(segment, over);
      next = result.segment;
      gone = result.dropped;
      blocked = result.blocked;
    }
    if (next !== segment) {
      segments ??= state.segments.slice();
      segments[i] = next;
    }
    over -= gone;
    dropped += gone;
    if (blocked) break;
  }
  if (dropped === 0) return { state, dropped: 0 };
  const kept = segments === undefined ? state.segments : segments.filter((s, i) => !spent(s, i));
  return { state: { ...state, sealed, segments: kept }, dropped };

  /** An ended turn or a bound pending message that eviction just emptied: nothing left of it. */
  function spent(segment: Segment, i: number): boolean {
    if (segment === state.segments[i]) return false;
    return segment.kind === 'turn'
      ? segment.closed && segment.rowCount === 0
      : segment.turnId !== null && segment.entries.length === 0;
  }
}
