import type { Relay } from '../live/relay.js';
import { notRunning, sendControl } from './control.js';
import { readOptionalJsonObject, turnIdProblem } from './params.js';
import { badParameter, json } from './responses.js';

/** The longest cancel reason accepted (it becomes the text of the `cancelled` chunk). */
const MAX_REASON_LENGTH = 500;

/**
 * `POST …/threads/:id/cancel` with an optional JSON body `{ reason?, turnId? }`: cancels the
 * thread's running turn — or the turn waiting for the thread's lease, which is then dropped —
 * through the relay, wherever it runs, and answers 202 `{ turnId }`; the turn ends on the events
 * stream with its `cancelled` chunk and is stored `cancelled`. When no turn runs — or `turnId` is
 * given and is not the running turn, so that a stop pressed for a turn that has just ended does
 * not stop the next one — it answers 409 `not-running` and cancels nothing. A queued turn is not
 * cancelled.
 *
 * @param request - the request (no body, or a JSON object)
 * @param relay - the relay the thread's sessions serve their control on
 * @param threadId - the thread
 * @param maxBodyBytes - the largest body accepted
 * @returns 202, 409, 503 `relay-unavailable`, or a 400 naming `reason` or `turnId` (415, 413
 *   for the body itself)
 */
export async function cancelRoute(
  request: Request,
  relay: Relay,
  threadId: string,
  maxBodyBytes: number,
): Promise<Response> {
  const body = await readOptionalJsonObject(request, maxBodyBytes);
  if (!body.ok) return body.response;
  const { reason, turnId } = body.value;
  if (
    reason !== undefined &&
    (typeof reason !== 'string' || reason.trim() === '' || reason.length > MAX_REASON_LENGTH)
  ) {
    return badParameter(
      'reason',
      `\`reason\` must be a non-empty string of at most ${MAX_REASON_LENGTH} characters.`,
    );
  }
  const problem = turnIdProblem(turnId);
  if (problem !== undefined) return badParameter('turnId', problem);
  const sent = await sendControl(relay, threadId, {
    type: 'cancel',
    ...(reason !== undefined ? { reason: reason as string } : {}),
    ...(turnId !== undefined ? { turnId: turnId as string } : {}),
  });
  if (!sent.ok) return sent.response;
  if (sent.answer.type === 'cancelled') return json(202, { turnId: sent.answer.turnId });
  return notRunning(turnId);
}
