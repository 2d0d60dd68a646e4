import { useMemo } from 'react';
import type { ChunkWindow } from '../window/chunk-window.js';
import { type LiveTurn, liveTurnOf } from './live-turn.js';
import { useChunkWindow } from './use-chunk-window.js';

/**
 * The live turn of a window: whether one runs, its id, step, steps and (once it ended) usage.
 * The returned object changes only when the turn does.
 *
 * @param window - the window
 * @returns the live turn (`status: 'idle'` when none)
 *
 * @example
 * ```tsx
 * function StopButton({ window, onStop }: { window: ChunkWindow; onStop: () => void }) {
 *   const turn = useLiveTurn(window);
 *   return turn.status === 'running' ? <button onClick={onStop}>Stop</button> : null;
 * }
 * ```
 */
export function useLiveTurn(window: ChunkWindow): LiveTurn {
  const snapshot = useChunkWindow(window);
  const { liveTurnId, liveTurn } = snapshot;
  // biome-ignore lint/correctness/useExhaustiveDependencies: the turn changes only with these two
  return useMemo(() => liveTurnOf(snapshot), [liveTurnId, liveTurn]);
}
