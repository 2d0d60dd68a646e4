import type { UIMessageChunk } from 'ai';
import { type ChatMessage, messageId } from '../schema/index.js';
import { readEnvelope } from './envelope.js';
import { chunkList, UIChunkDiffer } from './ui-chunk-differ.js';

/**
 * The UI message stream chunks of a turn stored already, as one whole update: what a `useChat`
 * client that posts a turn id again (a retried request) gets instead of an empty answer. The
 * stored chunks go through the same {@link UIChunkDiffer} a live turn's events do, so the client
 * builds the same assistant message.
 *
 * @param turnId - the turn
 * @param messages - the turn's messages, for example `groupRowsToMessages(await store.getTurn(…))`
 *   (its user message is left out: the client has it)
 * @param options - the assistant message's id (default: the stored one, else `${turnId}:assistant`),
 *   and whether a turn that ended with an error also sends the AI SDK's `error` chunk
 * @returns the stream chunks, from `start` to `finish`
 * @example
 * ```ts
 * // assumes: store, threadId, turnId
 * import { createUIMessageStream, createUIMessageStreamResponse } from 'ai';
 *
 * const rows = (await store.getTurn(threadId, turnId)) ?? [];
 * const chunks = storedTurnUIMessageChunks(turnId, groupRowsToMessages(rows), {});
 * const stream = createUIMessageStream({ execute: ({ writer }) => chunks.forEach((c) => writer.write(c)) });
 * return createUIMessageStreamResponse({ stream });
 * ```
 */
export function storedTurnUIMessageChunks(
  turnId: string,
  messages: readonly ChatMessage[],
  options: { readonly messageId?: string | undefined; readonly sendError?: boolean | undefined },
): UIMessageChunk[] {
  let id: string | undefined;
  const chunks = messages
    .filter((message) => message.role !== 'user')
    .flatMap((message) => {
      const read = readEnvelope(message.chunks);
      if (message.role === 'assistant') id ??= read.envelope.id;
      return read.chunks;
    });
  const list = chunkList(chunks);
  const out: UIMessageChunk[] = [
    { type: 'start', messageId: options.messageId ?? id ?? messageId(turnId, 'assistant') },
    ...new UIChunkDiffer().finish(list),
  ];
  const last = chunks.at(-1);
  if (last?.type === 'error' && options.sendError !== false) {
    out.push({ type: 'error', errorText: last.message });
  }
  out.push({ type: 'finish' });
  return out;
}
