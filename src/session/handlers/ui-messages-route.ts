import { ChunklogError } from '../../errors/index.js';
import {
  type ToUIMessageStreamResponseOptions,
  toUIMessageStreamResponse,
} from '../../ui-messages/index.js';
import type { AgentSession } from '../types.js';
import { readChatRequest } from './chat-request.js';
import { messagesRoute } from './messages-route.js';
import { readJsonBody } from './params.js';
import { badParameter, errorResponse } from './responses.js';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * `POST …/threads/:id/messages` answered in the AI SDK UI message stream protocol, for a
 * `useChat` client: the body of its chat transport (or chunklog's `{ text }`) starts a turn (or
 * queues it), and the response streams that turn's assistant message. A `{ text, mode: 'steer' }`
 * body is answered as without the option (202 JSON).
 *
 * @param request - the request
 * @param session - the thread's session
 * @param maxBodyBytes - the largest body accepted
 * @param options - how the stream is sent (`sendError`, `onError`, `keepAliveMs`, `headers`)
 * @returns 200 with the stream, or a 400 naming the bad field (415, 413 for the body itself)
 */
export async function uiMessagesRoute(
  request: Request,
  session: AgentSession,
  maxBodyBytes: number,
  options: ToUIMessageStreamResponseOptions,
): Promise<Response> {
  const body = await readJsonBody(request, maxBodyBytes);
  if (!body.ok) return body.response;
  const input = body.value;
  if (!isRecord(input)) return badParameter('body', 'The body must be a JSON object.');
  if (input.mode !== undefined && input.mode !== 'send') {
    // Steering (or a bad mode) is not a turn of its own: the JSON route answers it.
    const again = new Request(request.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(input),
    });
    return messagesRoute(again, session, maxBodyBytes);
  }
  const chat = readChatRequest(input);
  if (!chat.ok) return badParameter(chat.parameter, chat.message);
  try {
    const turn = session.send(
      chat.turnId === undefined ? chat.text : { text: chat.text, turnId: chat.turnId },
    );
    return toUIMessageStreamResponse(turn, options);
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
