import { ChunklogError } from '../../errors/index.js';
import type { AgentSession } from '../types.js';
import { readJsonBody } from './params.js';
import { badParameter, errorResponse, json } from './responses.js';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

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
  session: AgentSession,
  maxBodyBytes: number,
): Promise<Response> {
  const body = await readJsonBody(request, maxBodyBytes);
  if (!body.ok) return body.response;
  const input = body.value;
  if (!isRecord(input)) return badParameter('body', 'The body must be a JSON object.');
  const { text, mode = 'send', turnId } = input;
  if (typeof text !== 'string' || text.trim() === '') {
    return badParameter('text', '`text` must be a non-empty string.');
  }
  if (mode !== 'send' && mode !== 'steer') {
    return badParameter('mode', "`mode` must be 'send' or 'steer'.");
  }
  if (
    turnId !== undefined &&
    (typeof turnId !== 'string' || turnId === '' || turnId.length > 200)
  ) {
    return badParameter('turnId', '`turnId` must be a non-empty string of at most 200 characters.');
  }
  if (mode === 'steer' && turnId !== undefined) {
    return badParameter('turnId', '`turnId` applies to `send` only.');
  }
  try {
    if (mode === 'steer') {
      const steer = session.steer(text);
      return json(202, { steeringId: steer.id });
    }
    const busy = session.runningTurnId !== undefined;
    const handle = session.send(turnId === undefined ? text : { text, turnId });
    return json(202, { turnId: handle.turnId, queued: busy });
  } catch (error) {
    if (ChunklogError.hasCode(error, 'closed')) {
      return errorResponse(503, 'closed', 'The session of this thread is closed.');
    }
    if (ChunklogError.hasCode(error, 'invalid-option')) {
      return badParameter(error.option ?? 'body', error.message);
    }
    return errorResponse(500, 'internal', 'The message could not be sent.');
  }
}
