import { parseMessageId } from '../ui-messages/message-ids.js';
import { isRecord, turnIdProblem } from './params.js';

/**
 * Which stored user turn an edit or a regenerate names: its id (chunklog's own body, or the id
 * of an assistant message chunklog streamed); or a message of the client's list by its place:
 * the `skip`-th user turn after turn `after` on the active path (`null`: from the start) — unless
 * its id names a turn still on the active path (`named`). A message the client made itself keeps
 * the client's id (a `useChat` message sent from this chat), and a user message keeps the id of
 * the version it was first shown with after a regenerate: its place finds the turn it stands for
 * now. Or the newest user turn.
 */
export type TurnRef =
  | { readonly turnId: string }
  | {
      readonly named: string | undefined;
      readonly after: string | null;
      readonly skip: number;
    }
  | { readonly latest: true };

/** What a `POST …/messages` body asks for: a new message, an edit, or a regenerate. */
export type ChatRequest =
  | {
      readonly ok: true;
      readonly kind: 'send';
      readonly text: string;
      readonly turnId?: string | undefined;
    }
  | {
      readonly ok: true;
      readonly kind: 'edit';
      readonly text: string;
      readonly target: TurnRef;
      /** The body field that named the turn, for a 400 when it names none. */
      readonly parameter: string;
    }
  | {
      readonly ok: true;
      readonly kind: 'regenerate';
      readonly target: TurnRef;
      readonly parameter: string;
      /**
       * The text of the user message that ends the chat's list, when one does: sent as a new
       * message when it names no stored turn (`regenerate()`, the retry of a send that never
       * reached the server).
       */
      readonly unstoredText?: string | undefined;
    }
  | { readonly ok: false; readonly parameter: string; readonly message: string };

type Failure = Extract<ChatRequest, { ok: false }>;

function fail(parameter: string, message: string): Failure {
  return { ok: false, parameter, message };
}

/** The text of a user message of the chat transport's body, or what is wrong with it. */
function userText(message: unknown, field: string): { text: string } | Failure {
  if (!isRecord(message)) return fail(field, 'The last message must be a user message.');
  if (message.role !== 'user') {
    return fail(field, 'The last message must be a user message (`role: "user"`).');
  }
  if (!Array.isArray(message.parts)) {
    return fail(field, 'The user message must have `parts`, an array (a UIMessage).');
  }
  const texts: string[] = [];
  for (const part of message.parts) {
    if (!isRecord(part)) continue;
    if (part.type === 'text' && typeof part.text === 'string') texts.push(part.text);
    else if (part.type === 'file') return fail(field, 'A chunklog session takes text messages.');
  }
  const text = texts.join('\n');
  if (text.trim() === '') return fail(field, 'The user message has no text.');
  return { text };
}

/** The turn of a chunklog message id, or undefined for an id of the client's own. */
function turnOfId(id: unknown): string | undefined {
  if (typeof id !== 'string') return undefined;
  const parsed = parseMessageId(id);
  return parsed === undefined || turnIdProblem(parsed.turnId) !== undefined
    ? undefined
    : parsed.turnId;
}

/**
 * The turn of message `index` of the chat's list: by its own id when chunklog made it, else by
 * the nearest earlier message chunklog made and the user messages between them.
 */
function refAt(messages: readonly unknown[], index: number): TurnRef {
  const named = turnOfId(isRecord(messages[index]) ? messages[index].id : undefined);
  let skip = 0;
  for (let i = index - 1; i >= 0; i--) {
    const message = messages[i];
    if (!isRecord(message)) continue;
    const turnId = turnOfId(message.id);
    if (turnId !== undefined) return { named, after: turnId, skip };
    if (message.role === 'user') skip++;
  }
  return { named, after: null, skip };
}

/** A chunklog `edit` or `regenerate` field: a turn id. */
function turnField(body: Record<string, unknown>, field: 'edit' | 'regenerate'): Failure | string {
  const value = body[field];
  const problem = turnIdProblem(value);
  if (value === undefined || problem !== undefined) {
    return fail(
      field,
      `\`${field}\` must be the id of a stored turn${problem === undefined ? '' : `: ${problem}`}.`,
    );
  }
  if (body.turnId !== undefined) return fail('turnId', '`turnId` applies to a new message only.');
  return value as string;
}

/** chunklog's own bodies: `{ text, turnId? }`, `{ text, edit }`, `{ regenerate }`. */
function readChunklogBody(body: Record<string, unknown>): ChatRequest {
  if (body.regenerate !== undefined) {
    const turnId = turnField(body, 'regenerate');
    if (typeof turnId !== 'string') return turnId;
    if (body.text !== undefined || body.edit !== undefined) {
      return fail('regenerate', '`regenerate` sends the stored message again: give no `text`.');
    }
    return { ok: true, kind: 'regenerate', target: { turnId }, parameter: 'regenerate' };
  }
  const text = body.text;
  if (typeof text !== 'string' || text.trim() === '') {
    return fail('text', '`text` must be a non-empty string.');
  }
  if (body.edit !== undefined) {
    const turnId = turnField(body, 'edit');
    if (typeof turnId !== 'string') return turnId;
    return { ok: true, kind: 'edit', text, target: { turnId }, parameter: 'edit' };
  }
  return { ok: true, kind: 'send', text, turnId: body.turnId as string | undefined };
}

/**
 * Reads the body of `POST …/threads/:id/messages`: chunklog's `{ text, turnId? }` (a new
 * message), `{ text, edit: turnId }` (an edit) or `{ regenerate: turnId }`; or the body of the AI
 * SDK's chat transport (`{ id, messages, trigger, messageId }`, or `{ message }` when the client
 * sends only the new message): `submit-message` sends the last user message's text, and edits a
 * stored user message when `messageId` names one (`sendMessage({ text, messageId })`);
 * `regenerate-message` answers a stored user message again (`regenerate()`), or sends the last
 * user message of the list as new when it names none (the retry of a send that never reached the
 * server). A chunklog session takes text: a message with a file is refused.
 *
 * @param body - the parsed JSON body
 * @returns what to do, or the parameter that is wrong
 */
export function readChatRequest(body: Record<string, unknown>): ChatRequest {
  const problem = turnIdProblem(body.turnId);
  if (problem !== undefined) return fail('turnId', problem);
  const { trigger, messageId } = body;
  const chunklog =
    typeof body.text === 'string' || body.edit !== undefined || body.regenerate !== undefined;
  if (chunklog && (trigger === undefined || trigger === 'submit-message')) {
    return readChunklogBody(body);
  }
  if (trigger !== undefined && trigger !== 'submit-message' && trigger !== 'regenerate-message') {
    return fail('trigger', '`trigger` must be `submit-message` or `regenerate-message`.');
  }
  if (messageId !== undefined && (typeof messageId !== 'string' || messageId === '')) {
    return fail('messageId', '`messageId` must be a non-empty string.');
  }
  if (chunklog) {
    return fail('trigger', '`regenerate-message` takes the chat transport body, not `{ text }`.');
  }
  const list: readonly unknown[] = isRecord(body.message)
    ? [body.message]
    : Array.isArray(body.messages)
      ? body.messages
      : [];
  const field = isRecord(body.message) ? 'message' : 'messages';
  // `{ message }` holds the last message only: a stored turn cannot be counted by its place in
  // the chat, only named by chunklog's id (or, for a regenerate, be the newest).
  const lastOnly = field === 'message';
  if (trigger === 'regenerate-message') {
    if (body.turnId !== undefined) return fail('turnId', '`turnId` applies to a new message only.');
    // The chat cut its list after the user message to answer again; `regenerate({ messageId })`
    // of an answer chunklog streamed names its turn.
    const last = list.at(-1);
    const named = turnOfId(messageId);
    if (named !== undefined && !(isRecord(last) && last.id === messageId)) {
      return { ok: true, kind: 'regenerate', target: { turnId: named }, parameter: 'messageId' };
    }
    const lastId = turnOfId(isRecord(last) ? last.id : undefined);
    const target: TurnRef =
      list.length === 0 || (lastOnly && lastId === undefined)
        ? { latest: true }
        : lastOnly
          ? { turnId: lastId as string }
          : refAt(list, list.length - 1);
    const parameter = messageId === undefined ? field : 'messageId';
    const user = isRecord(last) && last.role === 'user' ? userText(last, field) : undefined;
    const unstoredText = user !== undefined && 'text' in user ? user.text : undefined;
    return { ok: true, kind: 'regenerate', target, parameter, unstoredText };
  }
  const last = userText(list.at(-1), field);
  if (!('text' in last)) return last;
  if (messageId === undefined) {
    return { ok: true, kind: 'send', text: last.text, turnId: body.turnId as string | undefined };
  }
  if (body.turnId !== undefined) return fail('turnId', '`turnId` applies to a new message only.');
  // `sendMessage({ text, messageId })`: the chat replaced that message and cut the list after it.
  const edited = list.length - 1;
  const named = turnOfId(messageId);
  const matches = isRecord(list[edited]) && list[edited].id === messageId;
  let target: TurnRef;
  if (lastOnly) {
    if (named === undefined) {
      return fail(
        'messageId',
        "With `{ message }` (the last message only), `messageId` must be chunklog's id of the message (`<turnId>:user`, as a reload gives it).",
      );
    }
    target = { turnId: named };
  } else if (matches) target = refAt(list, edited);
  else if (named !== undefined) target = { turnId: named };
  else return fail('messageId', '`messageId` must name the last message of `messages`.');
  return { ok: true, kind: 'edit', text: last.text, target, parameter: 'messageId' };
}
