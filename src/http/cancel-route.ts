import type { ControlMessage, Relay } from '../live/relay.js';
import { notRunning, sendControl } from './control.js';
import { turnIdProblem, unknownField } from './params.js';
import { badParameter, json } from './responses.js';

/** The longest cancel reason accepted (it becomes the text of the `cancelled` chunk). */
const MAX_REASON_LENGTH = 500;

/**
 * `POST …/threads/:id/cancel` with an optional JSON body `{ reason?, turnId? }`: cancels the
 * thread's running turn through the relay, wherever it runs, and answers 202 `{ turnId }`; the
 * turn ends on the events stream with its `cancelled` chunk and is stored `cancelled`. A turn
 * waiting for the thread's lease (on any instance) stops waiting and is dropped when it is the
 * turn named, or when no turn has started; a cancel of the started turn leaves it waiting, as it
 * leaves a queued turn. When no turn runs — or `turnId` is given and is not the running turn, so
 * that a stop pressed for a turn that has just ended does not stop the next one — it answers 409
 * `not-running` and cancels nothing.
 *
 * @param body - the request's JSON object body (`{}` when it sent none)
 * @param relay - the relay the thread's sessions serve their control on
 * @param threadId - the thread
 * @returns 202, 409, 503 `relay-unavailable`, or a 400 naming `reason` or `turnId`
 */
export async function cancelRoute(
  body: Record<string, unknown>,
  relay: Relay,
  threadId: string,
): Promise<Response> {
  const unknown = unknownField(body, ['reason', 'turnId']);
  if (unknown !== undefined) return badParameter(unknown.parameter, unknown.message);
  const { reason, turnId } = body;
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
  const cancel: ControlMessage = {
    type: 'cancel',
    ...(reason !== undefined ? { reason: reason as string } : {}),
    ...(turnId !== undefined ? { turnId: turnId as string } : {}),
  };
  // Without a turn id, the started turn first: a turn that waits for the lease meanwhile (on
  // another instance) is left, as a queued one is; it is dropped only when no turn has started,
  // by name (the answer names it), and no second message goes when none waits.
  let sent = await sendControl(
    relay,
    threadId,
    turnId === undefined ? { ...cancel, onlyStarted: true } : cancel,
  );
  if (sent.ok && sent.answer.type === 'not-running' && sent.answer.waiting !== undefined) {
    sent = await sendControl(relay, threadId, { ...cancel, turnId: sent.answer.waiting });
  }
  if (!sent.ok) return sent.response;
  if (sent.answer.type === 'cancelled') return json(202, { turnId: sent.answer.turnId });
  return notRunning(turnId);
}
