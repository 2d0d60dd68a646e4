import { ChunklogError } from '../errors/index.js';
import type { ControlAnswer, ControlMessage, Relay } from '../live/relay.js';
import type { SystemKind } from '../schema/chunk.js';
import { errorResponse, json } from './responses.js';

/** Where the handlers reach a turn that runs on another process. */
export interface RemoteControl {
  readonly relay: Relay;
  readonly threadId: string;
}

type Sent =
  | { readonly ok: true; readonly answer: ControlAnswer }
  | { readonly ok: false; readonly response: Response };

async function send(remote: RemoteControl, message: ControlMessage): Promise<Sent> {
  try {
    return { ok: true, answer: await remote.relay.control(remote.threadId, message) };
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

/**
 * `POST …/cancel` for a turn that does not run here: the answer of the process that runs it.
 *
 * @returns 202 `{ turnId }`, 409 `not-running`, or 503 `relay-unavailable`
 */
export async function cancelViaRelay(
  remote: RemoteControl,
  reason: string | undefined,
  turnId: string | undefined,
): Promise<Response> {
  const sent = await send(remote, {
    type: 'cancel',
    ...(reason !== undefined ? { reason } : {}),
    ...(turnId !== undefined ? { turnId } : {}),
  });
  if (!sent.ok) return sent.response;
  if (sent.answer.type === 'cancelled') return json(202, { turnId: sent.answer.turnId });
  return errorResponse(
    409,
    'not-running',
    turnId === undefined ? 'No turn is running.' : `Turn ${turnId} is not running.`,
  );
}

/**
 * A steering message for a turn that may run on another process.
 *
 * @returns 202 `{ steeringId }` when it reached a running turn, 503 when the relay failed, or
 *   undefined when no turn runs anywhere (the local session sends the message as a turn)
 */
export async function steerViaRelay(
  remote: RemoteControl,
  text: string,
): Promise<Response | undefined> {
  const sent = await send(remote, { type: 'steer', text });
  if (!sent.ok) return sent.response;
  return sent.answer.type === 'steered'
    ? json(202, { steeringId: sent.answer.steeringId })
    : undefined;
}

/**
 * A notice for a turn that may run on another process.
 *
 * @returns 202 `{ routed: 'turn', turnId }` when it reached a running turn, 503 when the relay
 *   failed, or undefined when no turn runs anywhere (the local session records it on its own)
 */
export async function noticeViaRelay(
  remote: RemoteControl,
  kind: SystemKind,
  text: string,
): Promise<Response | undefined> {
  const sent = await send(remote, { type: 'notice', kind, text });
  if (!sent.ok) return sent.response;
  return sent.answer.type === 'noticed'
    ? json(202, { routed: 'turn', turnId: sent.answer.turnId })
    : undefined;
}

/** 404 `no-session`: nothing on this process can take the request. */
export function noSessionHere(): Response {
  return errorResponse(404, 'no-session', 'No session runs for this thread on this server.');
}
