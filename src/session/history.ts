import type { ModelMessage, PrepareStepFunction, ToolSet } from 'ai';
import { ChunklogError } from '../errors/index.js';
import { type ChatMessage, messageId } from '../schema/chat-message.js';
import type { TextChunk } from '../schema/chunk.js';
import { applyAnthropicCaching, modelMessagesOf } from './pipeline.js';
import { type HistoryStore, ThreadHistory } from './thread-history.js';
import type { SessionStore } from './types.js';

/** The histories kept by each session's view of its store, by thread. */
const kept = new WeakMap<SessionStore, Map<string, ThreadHistory>>();
/** Which kept history a messages array came from, for its model messages. */
const sources = new WeakMap<readonly ChatMessage[], ThreadHistory>();

/**
 * Makes {@link loadHistory} keep the history of the threads read through `store` (a session's
 * own view of its store) between turns, instead of reading and grouping them whole each time.
 *
 * @param store - the session's view of its store
 */
export function keepHistory(store: SessionStore): void {
  if (!kept.has(store)) kept.set(store, new Map());
}

/**
 * The user's message of a turn, as it will be stored and grouped back: one text chunk at step 0.
 *
 * @param turnId - the turn it starts
 * @param text - what the user wrote
 * @returns the message
 */
export function userMessage(turnId: string, text: string): ChatMessage {
  const chunk: TextChunk = { type: 'text', step: 0, text };
  return { id: messageId(turnId, 'user'), turnId, role: 'user', chunks: [chunk] };
}

/**
 * The thread's messages as stored; an unknown thread has none yet. Through a session's view of
 * its store (see {@link keepHistory}) the history is kept between calls and only what changed in
 * the store is read.
 *
 * @param store - the session's store
 * @param threadId - the thread
 * @returns the messages, oldest first
 */
export async function loadHistory(
  store: SessionStore,
  threadId: string,
): Promise<readonly ChatMessage[]> {
  const histories = kept.get(store);
  if (histories !== undefined) {
    let history = histories.get(threadId);
    if (history === undefined) {
      history = new ThreadHistory(store as HistoryStore, threadId);
      histories.set(threadId, history);
    }
    const messages = await history.messages();
    sources.set(messages, history);
    return messages;
  }
  try {
    return await store.getMessages(threadId);
  } catch (error) {
    if (ChunklogError.hasCode(error, 'thread-not-found')) return [];
    throw error;
  }
}

/**
 * The model input of a turn's first step: the history and the new user message, rebuilt from
 * chunks exactly as a later turn (or a restarted process) will rebuild them from the store.
 *
 * @param history - the stored messages
 * @param user - the new user message, if any
 * @param caching - whether to apply Anthropic cache breakpoints
 * @returns the messages
 */
export function buildModelMessages(
  history: readonly ChatMessage[],
  user: ChatMessage | undefined,
  caching: boolean,
): ModelMessage[] {
  // The history comes from the store's validated rows and the user message is ours: no re-check.
  // A kept history has its model messages already; the user's message is converted on its own
  // (nothing in it depends on another message, nor another message on it).
  const kept = sources.get(history)?.modelMessagesOf(history);
  const messages =
    kept === undefined
      ? modelMessagesOf(user === undefined ? history : [...history, user])
      : user === undefined
        ? [...kept]
        : kept.concat(modelMessagesOf([user]));
  return caching ? applyAnthropicCaching(messages) : messages;
}

/**
 * A `prepareStep` that applies Anthropic caching to every step's prompt. Each step gets
 * breakpoints computed from the plain messages (the previous step's prompt without its
 * breakpoints, plus what the AI SDK appended: the response, tool results, steering), so the
 * breakpoints of one step never pile up in the next and the prefix stays byte-stable.
 *
 * @returns the function to pass as `prepareStep`
 */
export function cachingPrepareStep<TOOLS extends ToolSet>(): PrepareStepFunction<TOOLS> {
  let plain: ModelMessage[] | undefined;
  let sent = 0;
  return ({ messages }) => {
    // `messages` is what was sent last step (our override) plus what the SDK appended since.
    plain = plain === undefined ? [...messages] : [...plain, ...messages.slice(sent)];
    const withBreakpoints = applyAnthropicCaching(plain);
    sent = withBreakpoints.length;
    return { messages: withBreakpoints };
  };
}
