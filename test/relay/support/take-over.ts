// The takeover wiring of docs/session.md ("Several instances", crash takeover), as the app writes
// it: while clients follow a thread's events on this instance, the instance checks (when one
// connects, and every `everyMs`) whether the relay says a turn runs there and the thread's lease
// has expired (its holder died); if so its session calls `resumeInterruptedTurns()`, which takes
// the lease and continues the turn. It does not wait on a live holder's lease (the call would
// poll it and hold the session's turn slot until that turn ends). One call in flight per thread.

import type { AgentSession } from '../../../src/entries/session.js';
import type { Relay } from '../../../src/relay/index.js';
import type { ChunkStore } from '../../../src/store/index.js';

export interface TakeOverWiring {
  /** A client follows the thread until `signal` aborts (its request ends). */
  followed(threadId: string, signal: AbortSignal): void;
  /** Stops the timer. */
  stop(): void;
}

export function takeOverWiring(
  store: ChunkStore,
  relay: Relay,
  sessionOf: (threadId: string) => AgentSession,
  onError: (error: unknown) => void,
  everyMs: number,
): TakeOverWiring {
  const takingOver = new Set<string>();
  const takeOverIfOrphaned = (threadId: string): void => {
    if (takingOver.has(threadId)) return;
    takingOver.add(threadId);
    void (async () => {
      try {
        if ((await relay.runningTurn(threadId)) === undefined) return;
        const lease = await store.getLease(threadId);
        if (lease !== null && lease.expiresAtMs > Date.now()) return; // its holder lives
        await sessionOf(threadId).resumeInterruptedTurns();
      } catch (error) {
        onError(error);
      } finally {
        takingOver.delete(threadId);
      }
    })();
  };
  // How many clients follow each thread here.
  const following = new Map<string, number>();
  const timer = setInterval(() => {
    for (const threadId of following.keys()) takeOverIfOrphaned(threadId);
  }, everyMs);
  timer.unref();
  return {
    followed(threadId, signal) {
      following.set(threadId, (following.get(threadId) ?? 0) + 1);
      signal.addEventListener(
        'abort',
        () => {
          const left = (following.get(threadId) ?? 1) - 1;
          if (left > 0) following.set(threadId, left);
          else following.delete(threadId);
        },
        { once: true },
      );
      takeOverIfOrphaned(threadId);
    },
    stop: () => clearInterval(timer),
  };
}
