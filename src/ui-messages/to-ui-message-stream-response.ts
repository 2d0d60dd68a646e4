import { createUIMessageStreamResponse } from 'ai';
import type { ChunkEvent } from '../schema/index.js';
import { type ToUIMessageStreamOptions, toUIMessageStream } from './to-ui-message-stream.js';

/**
 * Options of {@link toUIMessageStreamResponse}: the stream's, and the response's.
 *
 * @example
 * ```ts
 * return toUIMessageStreamResponse(turn, { keepAliveMs: 15_000, headers: { 'x-thread': id } });
 * ```
 */
export interface ToUIMessageStreamResponseOptions
  extends ToUIMessageStreamOptions,
    Omit<Parameters<typeof createUIMessageStreamResponse>[0], 'stream'> {}

/**
 * A `Response` that streams a chunklog turn in the AI SDK UI message stream protocol: server-sent
 * events with the protocol's headers (`content-type: text/event-stream`,
 * `x-vercel-ai-ui-message-stream: v1`, no caching or buffering), made by the AI SDK's own
 * `createUIMessageStreamResponse`. What `useChat`'s default transport expects from its endpoint.
 *
 * @param events - the turn's events, for example the handle `session.send(text)` returns
 * @param options - see {@link toUIMessageStream}; plus `status`, `headers`, `keepAliveMs`, …
 * @returns the response
 * @example
 * ```ts
 * export async function POST(request: Request) {
 *   const { message } = await request.json();
 *   return toUIMessageStreamResponse(session.send(textOf(message)));
 * }
 * ```
 */
export function toUIMessageStreamResponse(
  events: AsyncIterable<ChunkEvent>,
  options: ToUIMessageStreamResponseOptions = {},
): Response {
  const { messageId, sendError, onError, ...init } = options;
  return createUIMessageStreamResponse({
    ...init,
    stream: toUIMessageStream(events, { messageId, sendError, onError }),
  });
}
