import type { Relay } from '../live/relay.js';
import { answerControl } from './answer-control.js';
import type { AgentSession, SessionErrorContext } from './types.js';

/**
 * Connects a session to a relay: every event the session emits is published (in order, with its
 * id), and while a turn runs the session serves the thread's control messages (cancel, steer,
 * notices from other processes).
 *
 * @param session - the session
 * @param relay - the relay
 * @param onError - told about a control message that failed here
 * @returns the function that disconnects them
 */
export function attachRelay(
  session: AgentSession,
  relay: Relay,
  onError: (error: unknown, context: SessionErrorContext) => void,
): () => void {
  const threadId = session.threadId;
  let stopServing: (() => void) | undefined;
  const unsubscribe = session.subscribe((event, meta) => {
    if (event.type === 'turn-start' && event.role !== 'system') {
      stopServing?.();
      stopServing = relay.serveControl(threadId, async (message) => {
        try {
          return await answerControl(session, message);
        } catch (error) {
          onError(error, { source: 'listener', turnId: meta.turnId });
          return { type: 'not-running' };
        }
      });
    }
    relay.publish(threadId, event, meta);
    if (event.type === 'turn-end' && stopServing !== undefined) {
      stopServing();
      stopServing = undefined;
    }
  });
  return () => {
    unsubscribe();
    stopServing?.();
    stopServing = undefined;
  };
}
