import type { AgentSession } from '../session/types.js';
import { readOptionalJsonObject, turnIdProblem } from './params.js';
import { cancelViaRelay, type RemoteControl } from './remote-control.js';
import { badParameter, errorResponse, json } from './responses.js';

/** The longest cancel reason accepted (it becomes the text of the `cancelled` chunk). */
const MAX_REASON_LENGTH = 500;

/**
 * `POST …/threads/:id/cancel` with an optional JSON body `{ reason?, turnId? }`: cancels the
 * thread's running turn (`session.cancel(reason)`) and answers 202 `{ turnId }`; the turn ends on
 * the events stream with its `cancelled` chunk. When no turn runs — or `turnId` is given and is
 * not the running turn, so that a stop pressed for a turn that has just ended does not stop the
 * next one — it answers 409 `not-running` and cancels nothing. A queued turn is not cancelled.
 *
 * @param request - the request (no body, or a JSON object)
 * @param session - the thread's session
 * @param maxBodyBytes - the largest body accepted
 * @returns 202, 409, or a 400 naming `reason` or `turnId` (415, 413 for the body itself)
 */
export async function cancelRoute(
  request: Request,
  session: AgentSession | undefined,
  maxBodyBytes: number,
  remote?: RemoteControl | undefined,
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
  const running = session?.runningTurnId;
  if (running === undefined && remote !== undefined) {
    // Not here: the process that runs the thread's turn answers (or says none runs).
    return cancelViaRelay(remote, reason as string | undefined, turnId as string | undefined);
  }
  if (
    session === undefined ||
    running === undefined ||
    (turnId !== undefined && turnId !== running)
  ) {
    return notRunning(turnId);
  }
  // Synchronous from the check on: the turn checked is the turn cancelled.
  if (!session.cancel(reason as string | undefined)) return notRunning(turnId);
  return json(202, { turnId: running });
}

function notRunning(turnId: unknown): Response {
  return errorResponse(
    409,
    'not-running',
    turnId === undefined ? 'No turn is running.' : `Turn ${String(turnId)} is not running.`,
  );
}
