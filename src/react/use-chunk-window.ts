import { useSyncExternalStore } from 'react';
import type { ChunkWindow } from '../window/chunk-window.js';
import type { ChunkWindowSnapshot } from '../window/snapshot.js';

/**
 * The window's snapshot, re-rendering the component on every change
 * (`useSyncExternalStore` over `window.subscribe` and `window.getSnapshot`). The snapshot is the
 * same object until something changes, so a memoized child keyed by it re-renders only then.
 * Server rendering reads the same snapshot (the window is pure: no browser global is touched).
 *
 * @param window - the window
 * @returns its current snapshot: `log`, `groups`, `hasOlder`, `liveTurnId`, `liveTurn`, …
 *
 * @example
 * ```tsx
 * function Messages({ window }: { window: ChunkWindow }) {
 *   const { groups } = useChunkWindow(window);
 *   return groups.map((message) => <Message key={message.id} message={message} />);
 * }
 * ```
 */
export function useChunkWindow(window: ChunkWindow): ChunkWindowSnapshot {
  return useSyncExternalStore(window.subscribe, window.getSnapshot, window.getSnapshot);
}
