import type { ChunkEvent } from '../schema/chunk-event.js';
import { applyEvent } from './apply-event.js';
import { createTurnState, draftOf, seal } from './turn-state.js';
import type { TurnState } from './types.js';

/**
 * Folds events into a turn's state: the same result as `reduceTurn` applied to each in turn,
 * without building the states in between. Like `reduceTurn`, it trusts the events: validate
 * events from outside the process first (`values.map(parseChunkEvent)`).
 *
 * @param events - the events, in order
 * @param initial - the state to start from (default: an empty turn)
 * @returns the final state
 *
 * @example
 * ```ts
 * const state = foldTurn([
 *   { type: 'turn-start', turnId: 't1' },
 *   { type: 'text-delta', text: 'Hi' },
 *   { type: 'turn-end', finishReason: 'stop' },
 * ]);
 * state.chunks; // [{ type: 'text', step: 0, text: 'Hi' }]
 * ```
 */
export function foldTurn(events: Iterable<ChunkEvent>, initial?: TurnState): TurnState {
  const draft = draftOf(initial ?? createTurnState());
  if (Array.isArray(events)) {
    // An indexed loop: no iterator protocol per event, even before the loop is optimized.
    const list = events as readonly ChunkEvent[];
    for (let i = 0; i < list.length; i++) applyEvent(draft, list[i] as ChunkEvent);
  } else {
    for (const event of events) applyEvent(draft, event);
  }
  return seal(draft);
}
