import { isRecord, turnIdProblem } from './params.js';

/** What a `useChat` request asks for: the text of the user message to send. */
export type ChatRequest =
  | { readonly ok: true; readonly text: string; readonly turnId?: string | undefined }
  | { readonly ok: false; readonly parameter: string; readonly message: string };

/**
 * Reads the body of a request from the AI SDK's chat transport (`{ id, messages, trigger,
 * messageId }`, or `{ message }` when the client sends only the new message), or chunklog's
 * `{ text, turnId? }`: the text of the user message to send. A chunklog session takes text: a
 * message with a file is refused, and so is `regenerate-message` (the log is append-only).
 *
 * @param body - the parsed JSON body
 * @returns the text (and turn id), or the parameter that is wrong
 */
export function readChatRequest(body: Record<string, unknown>): ChatRequest {
  const turnId = body.turnId as string | undefined;
  const problem = turnIdProblem(turnId);
  if (problem !== undefined) return { ok: false, parameter: 'turnId', message: problem };
  // The trigger is read from every body shape: a regenerate is refused, never sent as new text.
  if (body.trigger !== undefined && body.trigger !== 'submit-message') {
    return {
      ok: false,
      parameter: 'trigger',
      message: 'Only `submit-message` is supported: a chunklog thread is append-only.',
    };
  }
  if (typeof body.text === 'string') {
    return body.text.trim() === ''
      ? { ok: false, parameter: 'text', message: '`text` must be a non-empty string.' }
      : { ok: true, text: body.text, turnId };
  }
  const message = isRecord(body.message)
    ? body.message
    : Array.isArray(body.messages)
      ? body.messages.at(-1)
      : undefined;
  const field = isRecord(body.message) ? 'message' : 'messages';
  if (!isRecord(message) || message.role !== 'user' || !Array.isArray(message.parts)) {
    return { ok: false, parameter: field, message: 'The last message must be a user message.' };
  }
  const texts: string[] = [];
  for (const part of message.parts) {
    if (!isRecord(part)) continue;
    if (part.type === 'text' && typeof part.text === 'string') texts.push(part.text);
    else if (part.type === 'file') {
      return { ok: false, parameter: field, message: 'A chunklog session takes text messages.' };
    }
  }
  const text = texts.join('\n');
  if (text.trim() === '') {
    return { ok: false, parameter: field, message: 'The user message has no text.' };
  }
  return { ok: true, text, turnId };
}
