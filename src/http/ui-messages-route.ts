import {
  type ToUIMessageStreamResponseOptions,
  toUIMessageStreamResponse,
} from '../ui-messages/index.js';
import { readChatRequest } from './chat-request.js';
import { noSessionHere } from './control.js';
import { answerMessage, type MessageTarget } from './messages-route.js';
import { readJsonObject } from './params.js';
import { badParameter, sessionFailure } from './responses.js';

/**
 * `POST …/threads/:id/messages` answered in the AI SDK UI message stream protocol, for a
 * `useChat` client: the body of its chat transport (or chunklog's `{ text }`) starts a turn (or
 * queues it), and the response streams that turn's assistant message. A `{ text, mode: 'steer' }`
 * body is answered as without the option (202 JSON).
 *
 * @param request - the request
 * @param target - the relay, the thread and its session here
 * @param maxBodyBytes - the largest body accepted
 * @param options - how the stream is sent (`sendError`, `onError`, `keepAliveMs`, `headers`)
 * @returns 200 with the stream, or a 400 naming the bad field (415, 413 for the body itself)
 */
export async function uiMessagesRoute(
  request: Request,
  target: MessageTarget,
  maxBodyBytes: number,
  options: ToUIMessageStreamResponseOptions,
): Promise<Response> {
  const body = await readJsonObject(request, maxBodyBytes);
  if (!body.ok) return body.response;
  const input = body.value;
  if (input.mode !== undefined && input.mode !== 'send') {
    // Steering (or a bad mode) is not a turn of its own: the JSON route answers it.
    return await answerMessage(input, target);
  }
  const chat = readChatRequest(input);
  if (!chat.ok) return badParameter(chat.parameter, chat.message);
  const { session } = target;
  if (session === undefined) return noSessionHere();
  try {
    const turn = session.send(
      chat.turnId === undefined ? chat.text : { text: chat.text, turnId: chat.turnId },
    );
    return toUIMessageStreamResponse(turn, options);
  } catch (error) {
    return sessionFailure(error, 'The message could not be sent.');
  }
}
