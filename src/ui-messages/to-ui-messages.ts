import type { UIMessage } from 'ai';
import { type ChatMessage, chatMessageMini } from '../schema/chat-message.js';
import { checkChatMessages } from '../schema/check-list.js';
import type { Chunk } from '../schema/chunk.js';
import { parseWith } from '../schema/parse.js';
import { type AnyUIPart, chunkToParts } from './chunk-to-parts.js';
import { withDeferredOutcomes } from './deferred-outcomes.js';
import { readEnvelope } from './envelope.js';
import { initialStep, stepBefore } from './steps.js';

/**
 * The parts of a message's chunks, in chunk order, with a `step-start` part wherever a new step
 * begins. Consecutive steering chunks of one steering message become one `steering-message` part.
 *
 * @param chunks - the chunks of one message (its envelope already removed)
 * @param role - the chunklog role of the message
 */
export function chunksToParts(chunks: readonly Chunk[], role: ChatMessage['role']): AnyUIPart[] {
  const parts: AnyUIPart[] = [];
  let step = initialStep(role);
  let previous: Chunk | undefined;
  for (const chunk of withDeferredOutcomes(chunks)) {
    for (const target = stepBefore(chunk); step < target; step++)
      parts.push({ type: 'step-start' });
    const last = parts.at(-1);
    if (
      chunk.type === 'steering' &&
      previous?.type === 'steering' &&
      previous.id === chunk.id &&
      last?.type === 'steering-message'
    ) {
      last.parts.push({ type: 'text', text: chunk.text });
    } else {
      parts.push(...chunkToParts(chunk, { assistant: role === 'assistant' }));
    }
    previous = chunk;
  }
  return parts;
}

/**
 * Converts one chunklog message to an AI SDK `UIMessage`. See {@link toUIMessages}.
 *
 * @param message - a chat message (validated)
 * @returns the UI message
 * @throws {ChunklogError} `invalid-message`, naming the path of the problem
 * @example
 * ```ts
 * const live = toUIMessage({ id: 't1:assistant', turnId: 't1', role: 'assistant', chunks });
 * ```
 */
export function toUIMessage<UI_MESSAGE extends UIMessage = UIMessage>(
  message: ChatMessage,
): UI_MESSAGE {
  return uiMessageOf<UI_MESSAGE>(
    parseWith(chatMessageMini, message, 'invalid-message', 'chat message'),
  );
}

function uiMessageOf<UI_MESSAGE extends UIMessage>(message: ChatMessage): UI_MESSAGE {
  const { envelope, chunks } = readEnvelope(message.chunks);
  return {
    id: envelope.id ?? message.id,
    // A system message holds notices for the UI only: as an assistant message whose parts are all
    // data parts, `convertToModelMessages` sends nothing of it (a `system` UIMessage would become a
    // system prompt).
    role: message.role === 'system' ? 'assistant' : message.role,
    ...(envelope.metadata === undefined ? {} : { metadata: envelope.metadata }),
    parts: chunksToParts(chunks, message.role),
  } as UI_MESSAGE;
}

/**
 * Converts chunklog messages to AI SDK v7 `UIMessage`s, for an app that renders with `useChat`.
 *
 * Parts keep chunk order: text and reasoning (with their provider metadata; assistant ones are
 * `state: 'done'`), tool parts (`tool-${name}`, or `dynamic-tool`) in the state the log records
 * (input streaming or available, approval requested or answered, output available, preliminary,
 * error or denied), a `step-start` part before each step of an assistant message, sources, files,
 * custom provider parts and app data parts. Steering messages become `steering-message` parts,
 * before the step that received them. System notices, errors and tool progress text become
 * `data-chunklog-system`, `data-chunklog-error` and `data-chunklog-tool-progress` parts (see
 * {@link CHUNKLOG_DATA_PARTS}), which `convertToModelMessages` ignores. A `system` message becomes
 * an assistant message holding only `data-chunklog-system` parts, so that nothing of it reaches
 * the model. Message ids are chunklog's (`${turnId}:${role}`) unless the message was imported
 * with another id.
 *
 * @param messages - chat messages, for example `groupRowsToMessages(rows)` (validated)
 * @returns one `UIMessage` per message, in order
 * @throws {ChunklogError} `invalid-message`, naming the index and the path of the problem
 * @example
 * ```ts
 * const { chunks } = await store.getChunks(threadId, { limit: 200 });
 * const chat = new Chat({ messages: toUIMessages(groupRowsToMessages(chunks)) });
 * ```
 */
export function toUIMessages<UI_MESSAGE extends UIMessage = UIMessage>(
  messages: readonly ChatMessage[],
): UI_MESSAGE[] {
  return checkChatMessages(messages, 'toUIMessages').map((message) =>
    uiMessageOf<UI_MESSAGE>(message),
  );
}
