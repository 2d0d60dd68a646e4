import type { ChunkRow } from '../schema/chunk-row.js';
import type { ChunkPage } from './page.js';
import type { TurnSegment } from './turn-segment.js';
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
    if (replaced.has(segment.key) || isStored(segment, stored)) {
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

function isStored(segment: TurnSegment, stored: ReadonlySet<string>): boolean {
  return !segment.provisional && stored.has(segment.turnId);
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

/** What {@link mergeTail} did. */
export interface TailMerge {
  readonly state: WindowState;
  /** Keys of ended turns the tail does not hold yet (their write has not landed): retry. */
  readonly waiting: ReadonlySet<number>;
}

/**
 * Merges the tail fetched by `reconcile()`. Replaced by the stored rows, with their pending user
 * messages: every live turn whose rows the tail holds, and each turn of `ended` (over when the
 * tail was requested) that will never be in it — it has nothing to show, it has no id of its own,
 * a turn that started after it is stored (a server stores turns in order), or `giveUp`. The other
 * ended turns stay live and are returned as `waiting`. Turns that started since stay.
 *
 * @param state - the state
 * @param page - the validated tail
 * @param ended - keys of the turns that were over when the tail was requested
 * @param giveUp - replace the ended turns the tail does not hold too
 * @returns the new state and the turns still waiting for their rows
 */
export function mergeTail(
  state: WindowState,
  page: ChunkPage,
  ended: ReadonlySet<number>,
  giveUp: boolean,
): TailMerge {
  const stored = turnIdsOf(page.chunks);
  let latestStored = -1;
  for (const segment of state.segments) {
    if (segment.kind === 'turn' && isStored(segment, stored)) {
      latestStored = Math.max(latestStored, segment.key);
    }
  }
  const replaced = new Set<number>();
  const waiting = new Set<number>();
  for (const segment of state.segments) {
    if (segment.kind !== 'turn' || !ended.has(segment.key) || isStored(segment, stored)) continue;
    const hasPending = state.segments.some(
      (s) => s.kind === 'pending' && s.boundTo === segment.key,
    );
    const neverStored =
      giveUp ||
      segment.provisional ||
      segment.key < latestStored ||
      (segment.rowCount === 0 && segment.evictedRows === 0 && !hasPending);
    (neverStored ? replaced : waiting).add(segment.key);
  }
  const next = dropStoredSegments(state, stored, replaced);
  return { state: { ...next, sealed: next.sealed.withTail(page) }, waiting };
}
