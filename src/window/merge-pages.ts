import type { ChunkRow } from '../schema/chunk-row.js';
import type { ChunkPage } from './page.js';
import { type EventTarget, type Segment, targetTurn, type WindowState } from './window-state.js';

function turnIdsOf(rows: readonly ChunkRow[]): ReadonlySet<string> {
  const ids = new Set<string>();
  for (const row of rows) ids.add(row.turnId);
  return ids;
}

/**
 * Drops the segments that stored rows now stand for: live turns whose id the rows carry or whose
 * key is in `replaced`, and pending messages bound to a dropped turn, naming a stored turn, or
 * (unbound) sent before a dropped turn started.
 */
function dropStoredSegments(
  state: WindowState,
  stored: ReadonlySet<string>,
  replaced: ReadonlySet<number>,
): WindowState {
  const dropped = new Set<number>();
  let latestDropped = -1;
  for (const segment of state.segments) {
    if (segment.kind !== 'turn') continue;
    if (replaced.has(segment.key) || (!segment.provisional && stored.has(segment.turnId))) {
      dropped.add(segment.key);
      latestDropped = Math.max(latestDropped, segment.key);
    }
  }
  const keep = (segment: Segment): boolean => {
    if (segment.kind === 'turn') return !dropped.has(segment.key);
    if (segment.boundTo !== null && dropped.has(segment.boundTo)) return false;
    if (segment.turnId !== null) return !stored.has(segment.turnId);
    return segment.boundTo !== null || segment.key > latestDropped;
  };
  if (state.segments.every(keep)) return state;
  let target: EventTarget = state.target;
  const current = targetTurn(state);
  if (current !== undefined && dropped.has(current.key)) {
    // A turn found in the store before its last event arrived: drop the rest of its events.
    target = current.closed ? { kind: 'none' } : { kind: 'ignore', turnId: current.turnId };
  }
  return { ...state, segments: state.segments.filter(keep), target };
}

/**
 * Merges a page loaded by `loadOlder()` (requested with the current cursor): rows deduplicated
 * by `seq`; live turns the page shows to be stored are replaced by their rows.
 *
 * @param state - the state
 * @param page - the validated page
 * @returns the new state
 */
export function mergeOlderPage(state: WindowState, page: ChunkPage): WindowState {
  const next = dropStoredSegments(state, turnIdsOf(page.chunks), new Set());
  return { ...next, sealed: next.sealed.withOlderPage(page) };
}

/**
 * Merges the tail fetched by `reconcile()`: the live turns that had ended when the fetch was made
 * (`ended`), any turn whose rows the tail holds, and their pending user messages are replaced by
 * the stored rows; turns that started since stay.
 *
 * @param state - the state
 * @param page - the validated tail
 * @param ended - keys of the turns that were over when the tail was requested
 * @returns the new state
 */
export function mergeTail(
  state: WindowState,
  page: ChunkPage,
  ended: ReadonlySet<number>,
): WindowState {
  const next = dropStoredSegments(state, turnIdsOf(page.chunks), ended);
  return { ...next, sealed: next.sealed.withTail(page) };
}
