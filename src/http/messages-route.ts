import type { Relay } from '../live/relay.js';
import type { AgentSession, TurnHandle } from '../session/types.js';
import { readChatRequest } from './chat-request.js';
import { startChatTurn } from './chat-turn.js';
import { noSessionHere, sendControl } from './control.js';
import { turnIdProblem, unknownField } from './params.js';
import { badParameter, json, sessionFailure } from './responses.js';
import type { PageStore } from './types.js';

/** Where a message goes: the relay of the thread's turns, and this process's session, if any. */
export interface MessageTarget {
  readonly relay: Relay;
  readonly threadId: string;
  readonly session: AgentSession | undefined;
  /** The handlers' store (an edit or a regenerate may look a turn up on the active path). */
  readonly store: PageStore;
}

/** The fields of a `POST …/messages` JSON body. */
const MESSAGE_FIELDS = ['text', 'mode', 'turnId', 'edit', 'regenerate'];

/**
 * `POST …/threads/:id/messages` with a JSON body `{ text, mode?, turnId? }`: `mode: 'send'` (the
 * default) starts a turn on this process's session, or queues it behind the running one, and
 * answers 202 `{ turnId, queued }` (`queued` when a turn runs on the thread, here or, under the
 * thread's lease, on another process); `mode: 'steer'` adds the text to the running turn (through
 * the relay, wherever it runs) and answers 202 `{ steeringId }` (should a cancel end the turn
 * before the model reads it, the turn's `cancelled` notice lists it in `dropped`, by that id).
 * `{ text, edit: turnId }` and
 * `{ regenerate: turnId }` start a new version of a stored turn of the active path
 * (`session.edit`, `session.regenerate`; the old version stays) and answer as a send. Follow the
 * turn on the events stream.
 *
 * @param input - the request's JSON object body
 * @param target - the relay, the thread and its session here
 * @returns 202, or a 400 naming the bad field
 */
export async function messagesRoute(
  input: Record<string, unknown>,
  target: MessageTarget,
): Promise<Response> {
  const unknown = unknownField(input, MESSAGE_FIELDS);
  if (unknown !== undefined) return badParameter(unknown.parameter, unknown.message);
  const { text, mode = 'send', turnId } = input;
  if (input.edit !== undefined || input.regenerate !== undefined) {
    if (mode !== 'send')
      return badParameter('mode', '`edit` and `regenerate` start a turn: no `mode`.');
    return await answerVersion(input, target);
  }
  if (typeof text !== 'string' || text.trim() === '') {
    return badParameter('text', '`text` must be a non-empty string.');
  }
  if (mode !== 'send' && mode !== 'steer') {
    return badParameter('mode', "`mode` must be 'send' or 'steer'.");
  }
  const problem = turnIdProblem(turnId);
  if (problem !== undefined) return badParameter('turnId', problem);
  if (mode === 'steer' && turnId !== undefined) {
    return badParameter('turnId', '`turnId` applies to `send` only.');
  }
  const { session } = target;
  if (mode === 'steer') {
    const sent = await sendControl(target.relay, target.threadId, { type: 'steer', text });
    if (!sent.ok) return sent.response;
    if (sent.answer.type === 'steered') return json(202, { steeringId: sent.answer.steeringId });
  }
  if (session === undefined) return noSessionHere();
  try {
    if (mode === 'steer') {
      // No turn runs anywhere: the session sends it as a turn of its own.
      return json(202, { steeringId: session.steer(text).id });
    }
    const queued = await startsQueued(target, session);
    const handle = session.send(typeof turnId === 'string' ? { text, turnId } : text);
    return json(202, { turnId: handle.turnId, queued });
  } catch (error) {
    return sessionFailure(error, 'The message could not be sent.');
  }
}

/**
 * Whether a turn sent now waits behind another: one runs on this session, or — under the
 * thread's lease — on another process, as the relay says (a relay that cannot say counts as
 * none: the send goes on). Called right before the send, so that a turn started here meanwhile
 * counts.
 */
async function startsQueued(target: MessageTarget, session: AgentSession): Promise<boolean> {
  if (session.runningTurnId === undefined && session.leased) {
    try {
      if ((await target.relay.runningTurn(target.threadId)) !== undefined) return true;
    } catch {
      // The relay is down: the send does not need it to start.
    }
  }
  return session.runningTurnId !== undefined;
}

/** `{ text, edit }` or `{ regenerate }`: a new version of a stored turn, answered as a send. */
async function answerVersion(
  input: Record<string, unknown>,
  target: MessageTarget,
): Promise<Response> {
  const { mode: _mode, ...body } = input;
  return await answerChatTurn(body, target, (turn, queued) =>
    json(202, { turnId: turn.turnId, queued }),
  );
}

/**
 * Starts the turn a chat request asks for (`readChatRequest`: a send, an edit or a regenerate)
 * on this process's session, and answers with `answer`.
 *
 * @param input - the parsed body
 * @param target - the relay, the thread and its session here
 * @param answer - the response to the started turn; `queued` when another turn was running
 * @returns `answer`'s response; a 400 naming the bad field (or a turn to edit that is not stored),
 *   404 `no-session` without a session here, or the session's failure (`sessionFailure`)
 */
export async function answerChatTurn(
  input: Record<string, unknown>,
  target: MessageTarget,
  answer: (turn: TurnHandle, queued: boolean) => Response,
): Promise<Response> {
  const chat = readChatRequest(input);
  if (!chat.ok) return badParameter(chat.parameter, chat.message);
  const { session } = target;
  if (session === undefined) return noSessionHere();
  try {
    const queued = await startsQueued(target, session);
    const turn = await startChatTurn(session, target.store, chat);
    if (turn instanceof Response) return turn;
    return answer(turn, queued);
  } catch (error) {
    return sessionFailure(error, 'The message could not be sent.');
  }
}
