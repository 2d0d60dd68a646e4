// The takeover wiring of docs/session.md ("Several instances", crash takeover), as the app writes
// it: when a client follows a thread on this instance and the relay says a turn runs there, the
// instance's session waits for the thread's lease; a live holder keeps renewing it (the call then
// finds nothing left running once that turn ends), a dead one's expires and this instance
// continues its turn. One call in flight per thread.
import type { Relay } from '../../../src/relay/index.js';
import type { AgentSession } from '../../../src/session/index.js';

export function takeOverWiring(
  relay: Relay,
  sessionOf: (threadId: string) => AgentSession,
  onError: (error: unknown) => void,
): (threadId: string) => void {
  const takingOver = new Set<string>();
  return (threadId) => {
    if (takingOver.has(threadId)) return;
    takingOver.add(threadId);
    void (async () => {
      try {
        if ((await relay.runningTurn(threadId)) === undefined) return;
        await sessionOf(threadId).resumeInterruptedTurns();
      } catch (error) {
        onError(error);
      } finally {
        takingOver.delete(threadId);
      }
    })();
  };
}
