import type { ChunkEvent } from '../schema/chunk-event.js';
import { applyEvent } from './apply-event.js';
import { draftOf, seal } from './turn-state.js';
import type { TurnState } from './types.js';

/**
 * Folds one event into a turn's state. Pure: `state` and `event` are never changed (deep-frozen
 * ones pass), and the chunks the new state shares with the old one are the same objects. Never
 * throws on schema-valid events, in any order. The open/close/coalesce rules are in
 * `docs/reducer.md`.
 *
 * The reducer trusts its input: it runs once per streamed delta, so it does not validate the
 * event (an event of an unknown type is ignored; a malformed one gives malformed chunks). Events
 * from {@link toChunkEvents} are valid. An event from outside the process (a WebSocket, SSE, a
 * file) must be validated first: `reduceTurn(state, parseChunkEvent(value))` throws
 * `invalid-event` before the reducer runs, and `state` stays as it was; `ChunkWindow.apply`
 * validates too.
 *
 * @param state - the state so far
 * @param event - the next event
 * @returns the new state
 *
 * @example
 * ```ts
 * let state = createTurnState();
 * state = reduceTurn(state, { type: 'text-start', id: 't' });
 * state = reduceTurn(state, { type: 'text-delta', id: 't', text: 'Hello' });
 * state.chunks; // [{ type: 'text', step: 0, id: 't', text: 'Hello' }]
 * ```
 */
export function reduceTurn(state: TurnState, event: ChunkEvent): TurnState {
  const draft = draftOf(state);
  applyEvent(draft, event);
  return seal(draft);
}
