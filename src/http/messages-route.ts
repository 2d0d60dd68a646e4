import type { AgentSession } from '../session/types.js';
import { readJsonObject, turnIdProblem } from './params.js';
import { noSessionHere, type RemoteControl, steerViaRelay } from './remote-control.js';
import { badParameter, json, sessionFailure } from './responses.js';

/**
 * `POST …/threads/:id/messages` with a JSON body `{ text, mode?, turnId? }`: `mode: 'send'` (the
 * default) starts a turn, or queues it behind the running one, and answers 202
 * `{ turnId, queued }`; `mode: 'steer'` adds the text to the running turn and answers 202
 * `{ steeringId }`. Follow the turn on the events stream.
 *
 * @param request - the request
 * @param session - the thread's session
 * @param maxBodyBytes - the largest body accepted
 * @returns 202, or a 400 naming the bad field (415, 413 for the body itself)
 */
export async function messagesRoute(
  request: Request,
  session: AgentSession | undefined,
  maxBodyBytes: number,
  remote?: RemoteControl | undefined,
): Promise<Response> {
  const body = await readJsonObject(request, maxBodyBytes);
  if (!body.ok) return body.response;
  const steered = await steerElsewhere(body.value, session, remote);
  if (steered !== undefined) return steered;
  return session === undefined ? noSessionHere() : answerMessage(body.value, session);
}

/**
 * A valid steering message while no turn runs on this process: the turn running on another
 * process takes it (through the relay).
 *
 * @returns the answer, or undefined when this process answers (a turn runs here, no turn runs
 *   anywhere, no relay, or the body is not a valid steer)
 */
export async function steerElsewhere(
  input: Record<string, unknown>,
  session: AgentSession | undefined,
  remote: RemoteControl | undefined,
): Promise<Response | undefined> {
  const { text, mode, turnId } = input;
  if (remote === undefined || mode !== 'steer' || session?.runningTurnId !== undefined) {
    return undefined;
  }
  if (typeof text !== 'string' || text.trim() === '' || turnId !== undefined) return undefined;
  return steerViaRelay(remote, text);
}

/**
 * Answers the JSON body of `POST …/messages` (see {@link messagesRoute}).
 *
 * @param input - the parsed body
 * @param session - the thread's session
 * @returns 202, or a 400 naming the bad field
 */
export function answerMessage(input: Record<string, unknown>, session: AgentSession): Response {
  const { text, mode = 'send', turnId } = input;
  if (typeof text !== 'string' || text.trim() === '') {
    return badParameter('text', '`text` must be a non-empty string.');
  }
  if (mode !== 'send' && mode !== 'steer') {
    return badParameter('mode', "`mode` must be 'send' or 'steer'.");
  }
  const problem = turnIdProblem(turnId);
  if (problem !== undefined) return badParameter('turnId', problem);
  if (mode === 'steer' && turnId !== undefined) {
    return badParameter('turnId', '`turnId` applies to `send` only.');
  }
  try {
    if (mode === 'steer') {
      const steer = session.steer(text);
      return json(202, { steeringId: steer.id });
    }
    const busy = session.runningTurnId !== undefined;
    const handle = session.send(typeof turnId === 'string' ? { text, turnId } : text);
    return json(202, { turnId: handle.turnId, queued: busy });
  } catch (error) {
    return sessionFailure(error, 'The message could not be sent.');
  }
}
