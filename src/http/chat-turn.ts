import { ChunklogError } from '../errors/index.js';
import type { AgentSession, TurnHandle } from '../session/types.js';
import { activePathOf } from '../store/active-path-of.js';
import { type FoundUserTurn, findUserTurn } from './active-path.js';
import type { ChatRequest, TurnRef } from './chat-request.js';
import { badParameter } from './responses.js';
import type { PageStore } from './types.js';

/** What a 400 says when a body names no stored user message: which one, on which thread. */
function noStoredMessage(target: TurnRef, threadId: string): string {
  const path = `the active path of thread ${JSON.stringify(threadId)}`;
  if ('turnId' in target) {
    return `No turn ${JSON.stringify(target.turnId)} with a user message is stored on ${path}.`;
  }
  if ('latest' in target) return `No user message is stored on ${path}.`;
  return `No stored user message is at that place in the list on ${path}: reload the chat.`;
}

/**
 * Starts (or queues) the turn a `POST …/messages` body asks for on the thread's session: a new
 * message (`session.send`), an edit (`session.edit`) or a regenerate (`session.regenerate`). A
 * stored turn named by its place in the client's list is looked for on the active path first.
 *
 * @param session - the thread's session on this process
 * @param store - the handlers' store
 * @param chat - the read body
 * @returns the turn's handle, or a 400 naming the field when it names no stored user message
 * @throws what the session throws (`closed`, `invalid-option`)
 */
export async function startChatTurn(
  session: AgentSession,
  store: PageStore,
  chat: Extract<ChatRequest, { ok: true }>,
): Promise<TurnHandle | Response> {
  if (chat.kind === 'send') {
    return session.send(
      chat.turnId === undefined ? chat.text : { text: chat.text, turnId: chat.turnId },
    );
  }
  let found: FoundUserTurn | undefined;
  try {
    found = await findUserTurn(store, await activePathOf(store, session.threadId), chat.target);
  } catch (error) {
    if (!ChunklogError.hasCode(error, 'thread-not-found')) throw error;
  }
  if (found === undefined) {
    // `regenerate()` after a send that failed in transit: the message was never stored.
    if (chat.kind === 'regenerate' && chat.unstoredText !== undefined) {
      return session.send(chat.unstoredText);
    }
    return badParameter(chat.parameter, noStoredMessage(chat.target, session.threadId));
  }
  if (chat.kind === 'edit') return session.edit(found.turnId, chat.text);
  if (
    found.text !== undefined &&
    chat.unstoredText !== undefined &&
    found.text !== chat.unstoredText
  ) {
    // Counted by place, the client's list does not match the thread (it holds messages of its
    // own, or misses some): answering the turn found would answer another message.
    return badParameter(
      chat.parameter,
      'The user message at its place in the list is not the stored one there (its text differs): reload the chat.',
    );
  }
  return session.regenerate(found.turnId);
}
