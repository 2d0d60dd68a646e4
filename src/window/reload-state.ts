import type { EventTarget, WindowState } from './window-state.js';
import { EMPTY_WINDOW_STATE, targetTurn } from './window-state.js';

/**
 * What a window keeps when it reloads its path: nothing stored, and of the parts not stored yet
 * only the turn `keepTurnId` (the turn an edit or a regenerate started on the new path) with its
 * pending user message. Events of a dropped turn that is still open are ignored until the next
 * `turn-start`. Pure.
 *
 * @param state - the state
 * @param keepTurnId - the turn to keep following, if any
 * @returns the state to reload from
 */
export function reloadState(state: WindowState, keepTurnId: string | undefined): WindowState {
  const kept = new Set<number>();
  for (const segment of state.segments) {
    if (segment.kind === 'turn' && !segment.provisional && segment.turnId === keepTurnId) {
      kept.add(segment.key);
    }
  }
  const segments = state.segments.filter((segment) =>
    segment.kind === 'turn'
      ? kept.has(segment.key)
      : (keepTurnId !== undefined && segment.turnId === keepTurnId) ||
        (segment.boundTo !== null && kept.has(segment.boundTo)),
  );
  let target: EventTarget = EMPTY_WINDOW_STATE.target;
  const current = targetTurn(state);
  if (current !== undefined) {
    if (kept.has(current.key)) target = state.target;
    else if (!current.closed) target = { kind: 'ignore', turnId: current.turnId };
  } else if (state.target.kind === 'ignore') {
    target = state.target;
  }
  return { sealed: EMPTY_WINDOW_STATE.sealed, segments, target };
}
