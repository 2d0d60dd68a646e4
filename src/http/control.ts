import { ChunklogError } from '../errors/index.js';
import type { ControlAnswer, ControlMessage, Relay } from '../live/relay.js';
import { errorResponse } from './responses.js';

/** What a control message got: the answer of the process that runs the turn, or a 503. */
export type ControlSent =
  | { readonly ok: true; readonly answer: ControlAnswer }
  | { readonly ok: false; readonly response: Response };

/**
 * Sends a control message for the thread's turn through the relay: to the session that serves the
 * thread's control, on this process (an in-process relay) or another one. The one path of
 * cancel, steering and notices, wherever the turn runs.
 *
 * @param relay - the relay the thread's sessions serve their control on
 * @param threadId - the thread
 * @param message - the control message
 * @returns the answer, or the 503 `relay-unavailable` response
 */
export async function sendControl(
  relay: Relay,
  threadId: string,
  message: ControlMessage,
): Promise<ControlSent> {
  try {
    return { ok: true, answer: await relay.control(threadId, message) };
  } catch (error) {
    return { ok: false, response: relayUnavailable(error) };
  }
}

/** 503 `relay-unavailable`: the relay could not be reached (try again). */
export function relayUnavailable(error: unknown): Response {
  const reason = ChunklogError.hasCode(error, 'relay-unavailable')
    ? error.message
    : 'The relay failed.';
  return errorResponse(503, 'relay-unavailable', reason, { headers: { 'retry-after': '1' } });
}

/** 404 `no-session`: nothing on this process can take the request. */
export function noSessionHere(): Response {
  return errorResponse(404, 'no-session', 'No session runs for this thread on this server.');
}

/** 409 `not-running`: no turn (or not the one named) runs on the thread. */
export function notRunning(turnId: unknown): Response {
  return errorResponse(
    409,
    'not-running',
    turnId === undefined ? 'No turn is running.' : `Turn ${String(turnId)} is not running.`,
  );
}
