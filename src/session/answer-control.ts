import type { ControlAnswer, ControlMessage } from '../live/relay.js';
import type { AgentSession } from './types.js';

/**
 * Carries out a control message on the session that runs the thread's turn, as the handlers do
 * on that process: a cancel of the running turn (or of the one named), a steering message into
 * it, a notice routed into it.
 *
 * @param session - the session of the thread on this process
 * @param message - what another process asked for
 * @returns the answer to send back (`not-running` when no turn, or not the one named, runs here)
 */
export async function answerControl(
  session: AgentSession,
  message: ControlMessage,
): Promise<ControlAnswer> {
  const running = session.runningTurnId;
  if (running === undefined) return { type: 'not-running' };
  switch (message.type) {
    case 'cancel': {
      if (message.turnId !== undefined && message.turnId !== running)
        return { type: 'not-running' };
      // Synchronous from the check on: the turn checked is the turn cancelled.
      return session.cancel(message.reason)
        ? { type: 'cancelled', turnId: running }
        : { type: 'not-running' };
    }
    case 'steer': {
      const steer = session.steer(message.text);
      return { type: 'steered', steeringId: steer.id, turnId: running };
    }
    case 'notice': {
      const result = await session.notify({ kind: message.kind, text: message.text });
      return { type: 'noticed', turnId: result.turnId };
    }
  }
}
