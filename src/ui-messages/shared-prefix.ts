import { TurnStateImpl } from '../reducer/turn-state.js';
import type { ChunkList } from './ui-chunk-differ.js';

/**
 * How many leading chunks `next` holds unchanged from `previous` (the same objects at the same
 * indexes), known without comparing them: 0 unless both are reducer states.
 *
 * The reducer's states keep their chunks in a buffer shared from state to state, and no state
 * ever sees a change to the part of the buffer it holds (`turn-state.ts`): a later state either
 * writes past that part or copies the buffer first. So when `next` has the buffer and start of
 * `previous` and at least its committed length, the chunks of that part are the same. A state
 * whose buffer was copied (a chunk changed below the last one, a chunk removed) shares nothing.
 *
 * @param previous - the list the differ saw last
 * @param next - the list it is given now
 * @returns the number of leading chunks known to be unchanged
 */
export function sharedPrefix(previous: ChunkList | undefined, next: ChunkList): number {
  if (!(previous instanceof TurnStateImpl) || !(next instanceof TurnStateImpl)) return 0;
  if (
    previous.buf !== next.buf ||
    previous.start !== next.start ||
    previous.evicted !== next.evicted
  ) {
    return 0;
  }
  const shared = previous.len - previous.start;
  return next.len - next.start >= shared ? shared : 0;
}
