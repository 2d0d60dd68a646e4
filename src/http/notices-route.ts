import type { Relay } from '../live/relay.js';
import type { SystemKind } from '../schema/chunk.js';
import type { AgentSession } from '../session/types.js';
import { noSessionHere, sendControl } from './control.js';
import { unknownField } from './params.js';
import { badParameter, json, sessionFailure } from './responses.js';

/**
 * The system kinds a client may post. `model-changed` and `cancelled` record what the session
 * itself did (a fallback, a cancel); a client cannot claim them.
 */
const CLIENT_KINDS: readonly SystemKind[] = ['notice', 'config-reload'];

/**
 * `POST …/threads/:id/notices` with a JSON body `{ text, kind? }`: a system event, `kind`
 * `'notice'` (the default) or `'config-reload'`. It joins the running turn at its current
 * position, through the relay wherever the turn runs, or — no turn running anywhere — becomes a
 * system turn of this process's session; the answer, 202 `{ routed: 'turn' | 'system-turn',
 * turnId }`, comes once it is routed (a system turn: stored). System chunks are never sent to
 * the model.
 *
 * @param body - the request's JSON object body
 * @param relay - the relay the thread's sessions serve their control on
 * @param threadId - the thread
 * @param session - the thread's session on this process, if any
 * @returns 202, or a 400 naming `text` or `kind` (503 when the session is closed or the relay unreachable; 404 when no turn runs and no session is here)
 */
export async function noticesRoute(
  body: Record<string, unknown>,
  relay: Relay,
  threadId: string,
  session: AgentSession | undefined,
): Promise<Response> {
  const unknown = unknownField(body, ['text', 'kind']);
  if (unknown !== undefined) return badParameter(unknown.parameter, unknown.message);
  const { text, kind = 'notice' } = body;
  if (typeof text !== 'string' || text.trim() === '') {
    return badParameter('text', '`text` must be a non-empty string.');
  }
  if (!CLIENT_KINDS.includes(kind as SystemKind)) {
    return badParameter('kind', `\`kind\` must be one of ${CLIENT_KINDS.join(', ')}.`);
  }
  const sent = await sendControl(relay, threadId, {
    type: 'notice',
    kind: kind as SystemKind,
    text,
  });
  if (!sent.ok) return sent.response;
  if (sent.answer.type === 'noticed') {
    return json(202, { routed: 'turn', turnId: sent.answer.turnId });
  }
  if (session === undefined) return noSessionHere();
  try {
    const result = await session.notify({ kind: kind as SystemKind, text });
    return json(202, { routed: result.routed, turnId: result.turnId });
  } catch (error) {
    return sessionFailure(error, 'The notice could not be recorded.');
  }
}
