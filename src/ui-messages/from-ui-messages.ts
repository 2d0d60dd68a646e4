import { checkChatMessages } from '../schema/check-list.js';
import type { ChatMessage, ChunkRowDraft } from '../schema/index.js';
import { explodeChunks } from '../transforms/explode-turn.js';
import {
  type FromUIMessagesOptions,
  uiMessagesToChatMessages,
} from './ui-messages-to-chat-messages.js';

/**
 * The row drafts of one turn, ready for `store.appendTurn(threadId, drafts)`.
 *
 * @example
 * ```ts
 * const [first]: TurnDrafts[] = await fromUIMessages(saved);
 * await store.appendTurn(threadId, first.drafts);
 * ```
 */
export interface TurnDrafts {
  readonly turnId: string;
  /** The user's rows first, then the assistant's (or a system turn's rows). */
  readonly drafts: ChunkRowDraft[];
}

/**
 * Groups chat messages by turn and explodes each turn into row drafts.
 *
 * @param messages - chat messages in thread order (validated)
 * @returns one entry per turn, in order
 * @throws {ChunklogError} `invalid-message`, naming the index and the path of the problem
 * @example
 * ```ts
 * for (const { drafts } of turnDrafts(await uiMessagesToChatMessages(saved))) {
 *   await store.appendTurn(threadId, drafts);
 * }
 * ```
 */
export function turnDrafts(messages: readonly ChatMessage[]): TurnDrafts[] {
  const turns: TurnDrafts[] = [];
  for (const message of checkChatMessages(messages, 'turnDrafts')) {
    const drafts = explodeChunks(message.turnId, message.chunks, message.role);
    const last = turns.at(-1);
    if (last?.turnId === message.turnId) last.drafts.push(...drafts);
    else turns.push({ turnId: message.turnId, drafts });
  }
  return turns;
}

/**
 * Imports a thread stored the AI SDK way (`UIMessage[]`, as its persistence guide keeps them)
 * into chunklog: the row drafts of each turn, ready for `store.appendTurn`.
 *
 * The messages are first checked with the AI SDK's `validateUIMessages` (with the app's tool,
 * data part and metadata schemas, if given). Everything a `UIMessage` holds is kept: parts in
 * order (steps, reasoning with its metadata, tool calls in every state, sources, files, steering
 * messages, app data parts), the message ids and metadata; `toUIMessages` of the imported thread
 * gives the same messages back (see `docs/ui-messages.md` for the exact terms). A field chunklog
 * has no place for is an error unless `strict: false`.
 *
 * @param uiMessages - the stored messages (untrusted)
 * @param options - the app's schemas for `validateUIMessages`, `strict`, `keepIds`
 * @returns one `{ turnId, drafts }` per turn, in thread order
 * @throws {ChunklogError} `invalid-ui-message`, naming the message index and the part;
 *   `invalid-option` for an unknown or malformed option
 * @example
 * ```ts
 * for (const { drafts } of await fromUIMessages(JSON.parse(saved))) {
 *   await store.appendTurn(threadId, drafts);
 * }
 * ```
 */
export async function fromUIMessages(
  uiMessages: unknown,
  options: FromUIMessagesOptions = {},
): Promise<TurnDrafts[]> {
  return turnDrafts(await uiMessagesToChatMessages(uiMessages, options));
}
