import type { MessageFoldState } from '../../transforms/message-fold.js';
import { asString, storedIso } from '../codec.js';

/**
 * What a read learns of a thread's newest history state: its seq and digest, and the turn id and
 * creation time of the row at that seq (null: no state, or no such row).
 */
export interface StateMark {
  readonly state_seq: unknown;
  readonly state_digest: unknown;
  readonly state_turn_id: unknown;
  readonly state_created_at: unknown;
}

/**
 * Whether the state ends with the row the read found at its seq: a state is used only while the
 * row it ends with is still the one it was made from.
 */
export function endsWith(state: MessageFoldState, found: StateMark): boolean {
  const last = state.last;
  return (
    last !== null &&
    found.state_turn_id !== null &&
    asString(found.state_turn_id) === last.turnId &&
    storedIso(found.state_created_at) === last.createdAt
  );
}
