import { createUIMessageStreamResponse, type UIMessageChunk } from 'ai';
import type { ChunkEvent } from '../schema/index.js';
import type { TurnHandle } from '../session/types.js';
import { groupRowsToMessages } from '../transforms/index.js';
import {
  storedTurnUIMessageChunks,
  type ToUIMessageStreamResponseOptions,
  toUIMessageStream,
} from '../ui-messages/index.js';
import { answerChatTurn, type MessageTarget, messagesRoute } from './messages-route.js';

/**
 * `POST …/threads/:id/messages` answered in the AI SDK UI message stream protocol, for a
 * `useChat` client: the body of its chat transport (or chunklog's `{ text }`) starts a turn (or
 * queues it), and the response streams that turn's assistant message. An edit
 * (`sendMessage({ text, messageId })` of a stored user message, or `{ text, edit }`) and a
 * regenerate (`regenerate()`, or `{ regenerate }`) start a new version of the stored turn
 * (`session.edit`, `session.regenerate`) and stream it the same way. A `{ text, mode: 'steer' }`
 * body is answered as without the option (202 JSON). A turn id sent again (a retried request)
 * whose turn is stored already streams the stored turn: the model is not called again.
 *
 * @param input - the request's JSON object body
 * @param target - the relay, the thread and its session here
 * @param options - how the stream is sent (`sendError`, `onError`, `keepAliveMs`, `headers`)
 * @returns 200 with the stream, or a 400 naming the bad field
 */
export async function uiMessagesRoute(
  input: Record<string, unknown>,
  target: MessageTarget,
  options: ToUIMessageStreamResponseOptions,
): Promise<Response> {
  if (input.mode !== undefined && input.mode !== 'send') {
    // Steering (or a bad mode) is not a turn of its own: the JSON route answers it.
    return await messagesRoute(input, target);
  }
  const { messageId, sendError, onError, ...init } = options;
  return await answerChatTurn(input, target, (turn) =>
    createUIMessageStreamResponse({
      ...init,
      stream: liveOrStored(turn, { messageId, sendError, onError }),
    }),
  );
}

/**
 * The turn's UI message stream: its live events, or, when it sends none because its id was
 * stored already, the stored turn as one whole update.
 */
function liveOrStored(
  turn: TurnHandle,
  options: ToUIMessageStreamResponseOptions,
): ReadableStream<UIMessageChunk> {
  let live = false;
  const events: AsyncIterable<ChunkEvent> = {
    async *[Symbol.asyncIterator]() {
      for await (const event of turn) {
        live = true;
        yield event;
      }
    },
  };
  const reader = toUIMessageStream(events, options).getReader();
  return new ReadableStream<UIMessageChunk>({
    async pull(controller) {
      const next = await reader.read();
      if (next.done !== true) {
        controller.enqueue(next.value);
        return;
      }
      if (!live) {
        let failed: { error: unknown } | undefined;
        const result = await turn.result.catch((error: unknown) => {
          failed = { error };
          return undefined;
        });
        if (failed !== undefined && options.sendError !== false) {
          // It never started (an edit of a turn no longer on the active path, say): `useChat`
          // reports it, with the text `onError` gives (the AI SDK's default hides server details).
          const errorText = options.onError?.(failed.error) ?? 'An error occurred.';
          controller.enqueue({ type: 'error', errorText });
        }
        if (result !== undefined && result.rows.length > 0) {
          for (const chunk of storedTurnUIMessageChunks(
            turn.turnId,
            groupRowsToMessages(result.rows),
            options,
          )) {
            controller.enqueue(chunk);
          }
        }
      }
      controller.close();
    },
    cancel: (reason) => reader.cancel(reason),
  });
}
