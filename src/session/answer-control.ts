import type { ControlAnswer, ControlMessage } from '../live/relay.js';
import type { AgentSession } from './types.js';

/**
 * Carries out a control message on the session that runs the thread's turn, as the handlers do
 * on that process: a cancel of the running turn (or of the one named), a steering message into
 * it, a notice routed into it.
 *
 * Every process with work on the thread serves its control, so one message can reach several:
 * the process that runs the turn, and one whose turn waits for the thread's lease meanwhile.
 * Steering and notices go into a running turn only (a waiting session answers `not-running`,
 * so that the message is carried out once, by the process that runs the turn). A cancel also
 * reaches a turn waiting for the lease, which stops waiting and is dropped (docs/session.md),
 * unless it is `onlyStarted`.
 *
 * @param session - the session of the thread on this process
 * @param message - what another process asked for
 * @param liveTurnId - the turn that runs on this session now (past its admission), if any
 * @returns the answer to send back (`not-running` when no turn, or not the one named, runs here)
 */
export async function answerControl(
  session: AgentSession,
  message: ControlMessage,
  liveTurnId: string | undefined,
): Promise<ControlAnswer> {
  const running = session.runningTurnId;
  if (running === undefined) return { type: 'not-running' };
  switch (message.type) {
    case 'cancel': {
      if (message.turnId !== undefined && message.turnId !== running)
        return { type: 'not-running' };
      if (message.onlyStarted === true && liveTurnId !== running) {
        return { type: 'not-running', waiting: running };
      }
      // Synchronous from the check on: the turn checked is the turn cancelled.
      return session.cancel(message.reason)
        ? { type: 'cancelled', turnId: running }
        : { type: 'not-running' };
    }
    case 'steer': {
      if (liveTurnId !== running) return { type: 'not-running' };
      const steer = session.steer(message.text);
      return { type: 'steered', steeringId: steer.id, turnId: running };
    }
    case 'notice': {
      if (liveTurnId !== running) return { type: 'not-running' };
      const result = await session.notify({ kind: message.kind, text: message.text });
      return { type: 'noticed', turnId: result.turnId };
    }
  }
}
