import type { ChunkEvent } from '../schema/chunk-event.js';
import type { AgentSession } from '../session/types.js';

/**
 * The events of the session's running turn, from its `turn-start` to its `turn-end`: what the
 * replay buffer holds of it, then each new one as it happens (taken in the same tick, so nothing
 * falls between them). Undefined when no turn runs, or when the turn's first events are no longer
 * buffered (the client then reads the turn from the store once it is stored).
 *
 * @param session - the thread's session
 * @returns the running turn's events, or undefined
 */
export function runningTurnEvents(session: AgentSession): AsyncIterable<ChunkEvent> | undefined {
  const turnId = session.runningTurnId;
  if (turnId === undefined) return undefined;
  const queue = session
    .replay(undefined)
    .events.filter((entry) => entry.meta.turnId === turnId)
    .map((entry) => entry.event);
  if (queue[0]?.type !== 'turn-start') return undefined;
  let ended = queue.some((event) => event.type === 'turn-end');
  let wake: (() => void) | undefined;
  const stop = (): void => {
    ended = true;
    unsubscribe();
    wake?.();
  };
  const unsubscribe = ended
    ? () => {}
    : session.subscribe((event, meta) => {
        if (meta.turnId !== turnId) return;
        queue.push(event);
        if (event.type === 'turn-end') stop();
        else wake?.();
      });
  session.signal.addEventListener('abort', stop, { once: true });
  return {
    async *[Symbol.asyncIterator]() {
      try {
        for (;;) {
          const event = queue.shift();
          if (event !== undefined) {
            yield event;
            if (event.type === 'turn-end') return;
          } else if (ended) {
            return;
          } else {
            await new Promise<void>((resolve) => {
              wake = resolve;
            });
            wake = undefined;
          }
        }
      } finally {
        unsubscribe();
        session.signal.removeEventListener('abort', stop);
      }
    },
  };
}
