import type { PendingSegment } from './pending-segment.js';
import { SealedRows } from './sealed-rows.js';
import type { TurnSegment } from './turn-segment.js';

/** A part of the log after the stored rows: a live turn or a pending user message. */
export type Segment = TurnSegment | PendingSegment;

/**
 * Where the next event goes: the turn segment with `key`; nowhere yet; or, for a turn that is
 * already stored (a replay, or a turn `reconcile()` found in the store before its last event:
 * `followed`, whose `turn-end` still ends a turn followed live), nowhere until the next
 * `turn-start`.
 */
export type EventTarget =
  | { readonly kind: 'none' }
  | { readonly kind: 'turn'; readonly key: number }
  | { readonly kind: 'ignore'; readonly turnId: string; readonly followed?: boolean };

/**
 * Everything a window holds, as one immutable value: stored rows, then the segments not stored
 * yet (live turns and pending user messages) in log order, and where events go.
 */
export interface WindowState {
  readonly sealed: SealedRows;
  readonly segments: readonly Segment[];
  readonly target: EventTarget;
}

/** An empty window. */
export const EMPTY_WINDOW_STATE: WindowState = {
  sealed: SealedRows.EMPTY,
  segments: [],
  target: { kind: 'none' },
};

/**
 * How many log entries a segment contributes.
 *
 * @param segment - a segment
 * @returns its entry count
 */
export function segmentSize(segment: Segment): number {
  return segment.kind === 'turn' ? segment.rowCount : segment.entries.length;
}

/**
 * The length of the log a state projects to. O(segments).
 *
 * @param state - the state
 * @returns its log length
 */
export function logLength(state: WindowState): number {
  let n = state.sealed.entries.length;
  for (const segment of state.segments) n += segmentSize(segment);
  return n;
}

/**
 * The turn segment events go to, if any.
 *
 * @param state - the state
 * @returns the segment, open or closed, or undefined
 */
export function targetTurn(state: WindowState): TurnSegment | undefined {
  const { target } = state;
  if (target.kind !== 'turn') return undefined;
  for (let i = state.segments.length - 1; i >= 0; i--) {
    const segment = state.segments[i] as Segment;
    if (segment.kind === 'turn' && segment.key === target.key) return segment;
  }
  return undefined;
}

/**
 * The newest turn not stored yet, if any.
 *
 * @param state - the state
 * @returns the segment, or undefined
 */
export function newestTurn(state: WindowState): TurnSegment | undefined {
  for (let i = state.segments.length - 1; i >= 0; i--) {
    const segment = state.segments[i] as Segment;
    if (segment.kind === 'turn') return segment;
  }
  return undefined;
}

/**
 * The segments with one replaced (by identity).
 *
 * @param segments - the segments
 * @param old - the segment to replace
 * @param next - its replacement
 * @returns a new array, or the same one when `old === next`
 */
export function replaceSegment(
  segments: readonly Segment[],
  old: Segment,
  next: Segment,
): readonly Segment[] {
  if (old === next) return segments;
  const index = segments.lastIndexOf(old);
  if (index < 0) return segments;
  const copy = segments.slice();
  copy[index] = next;
  return copy;
}
