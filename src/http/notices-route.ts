import type { SystemKind } from '../schema/chunk.js';
import type { AgentSession } from '../session/types.js';
import { readJsonObject } from './params.js';
import { noSessionHere, noticeViaRelay, type RemoteControl } from './remote-control.js';
import { badParameter, json, sessionFailure } from './responses.js';

/**
 * The system kinds a client may post. `model-changed` and `cancelled` record what the session
 * itself did (a fallback, a cancel); a client cannot claim them.
 */
const CLIENT_KINDS: readonly SystemKind[] = ['notice', 'config-reload'];

/**
 * `POST …/threads/:id/notices` with a JSON body `{ text, kind? }`: a system event
 * (`session.notify`), `kind` `'notice'` (the default) or `'config-reload'`. It joins the running
 * turn at its current position, or becomes a system turn of its own; the answer, 202
 * `{ routed: 'turn' | 'system-turn', turnId }`, comes once it is routed (a system turn: stored).
 * System chunks are never sent to the model.
 *
 * @param request - the request
 * @param session - the thread's session
 * @param maxBodyBytes - the largest body accepted
 * @returns 202, or a 400 naming `text` or `kind` (415, 413 for the body itself; 503 when the
 *   session is closed)
 */
export async function noticesRoute(
  request: Request,
  session: AgentSession | undefined,
  maxBodyBytes: number,
  remote?: RemoteControl | undefined,
): Promise<Response> {
  const body = await readJsonObject(request, maxBodyBytes);
  if (!body.ok) return body.response;
  const { text, kind = 'notice' } = body.value;
  if (typeof text !== 'string' || text.trim() === '') {
    return badParameter('text', '`text` must be a non-empty string.');
  }
  if (!CLIENT_KINDS.includes(kind as SystemKind)) {
    return badParameter('kind', `\`kind\` must be one of ${CLIENT_KINDS.join(', ')}.`);
  }
  if (remote !== undefined && session?.runningTurnId === undefined) {
    // A turn running on another process takes it; with none running, this process records it.
    const routed = await noticeViaRelay(remote, kind as SystemKind, text);
    if (routed !== undefined) return routed;
  }
  if (session === undefined) return noSessionHere();
  try {
    const result = await session.notify({ kind: kind as SystemKind, text });
    return json(202, { routed: result.routed, turnId: result.turnId });
  } catch (error) {
    return sessionFailure(error, 'The notice could not be recorded.');
  }
}
