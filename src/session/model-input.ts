import type { ModelMessage } from 'ai';
import { type ChatMessage, messageId } from '../schema/chat-message.js';
import type { TextChunk } from '../schema/chunk.js';
import { applyAnthropicCaching, modelMessagesOf } from './pipeline.js';

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
 * Whether a message can be turned into model messages on its own: nothing in it refers to, or
 * changes, another message's model input (a `model-changed` notice strips earlier reasoning's
 * signatures; an orphan or deferred result goes back with its call, wherever that is).
 */
function standsAlone(message: ChatMessage): boolean {
  for (const chunk of message.chunks) {
    if (chunk.type === 'system' && chunk.kind === 'model-changed') return false;
    if (chunk.type === 'tool-batch') {
      for (const entry of chunk.calls) {
        if (entry.orphan === true || entry.deferred === true) return false;
      }
    }
  }
  return true;
}

/**
 * The model messages of each message converted alone. Messages never change once grouped (a
 * changed message is a new object), so an entry stays true for as long as its message lives.
 */
const converted = new WeakMap<ChatMessage, ModelMessage[]>();

/**
 * The model messages of a whole history list whose every message stands alone: the
 * concatenation of their own. A history list is never changed once made (the kept history hands
 * out a new list when rows arrive, and the same list while nothing changed), so a warm session
 * asked again for the next input finds its history's input here and converts only the new
 * user message.
 */
const prefixes = new WeakMap<readonly ChatMessage[], readonly ModelMessage[]>();

/**
 * Each message's own model messages appended to `out`, kept from earlier calls: false (and `out`
 * left partly filled) as soon as one of them does not stand alone.
 */
function appendOwn(out: ModelMessage[], messages: readonly ChatMessage[], keep: boolean): boolean {
  for (const message of messages) {
    let own = converted.get(message);
    if (own === undefined) {
      if (!standsAlone(message)) return false;
      own = modelMessagesOf([message]);
      if (keep) converted.set(message, own);
    }
    for (const m of own) out.push(m);
  }
  return true;
}

/**
 * The model messages of `messages`: each message's own, kept from earlier calls, when every one
 * of them stands alone (the common case: a long thread converts only its new messages), else the
 * whole list converted at once.
 *
 * @param messages - grouped messages, oldest first
 * @returns the model messages, a new array
 */
export function modelInputOf(messages: readonly ChatMessage[]): ModelMessage[] {
  const out: ModelMessage[] = [];
  return appendOwn(out, messages, true) ? out : modelMessagesOf(messages);
}

/**
 * The model input of a turn's first step: the history and the new user message, rebuilt from
 * chunks exactly as a later turn (or a restarted process) will rebuild them from the store. The
 * input of the history is kept with its list (see {@link prefixes}); the new user message, made
 * for this call only, is converted each time and not kept.
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
  const messages = historyInput(history, user);
  return caching ? applyAnthropicCaching(messages) : messages;
}

/** `modelInputOf([...history, user])`, the history's part kept with its list. */
function historyInput(
  history: readonly ChatMessage[],
  user: ChatMessage | undefined,
): ModelMessage[] {
  let prefix = prefixes.get(history);
  if (prefix === undefined) {
    const own: ModelMessage[] = [];
    if (!appendOwn(own, history, true)) {
      return modelMessagesOf(user === undefined ? history : [...history, user]);
    }
    prefix = own;
    prefixes.set(history, prefix);
  }
  const out = prefix.slice();
  if (user === undefined || appendOwn(out, [user], false)) return out;
  return modelMessagesOf([...history, user]);
}
