import { useCallback, useState } from 'react';
import type { ChunkWindow } from '../window/chunk-window.js';
import { useChunkWindow } from './use-chunk-window.js';

/**
 * Paging older history of a window, for a "load more" button or a scroll handler.
 *
 * @example
 * ```ts
 * const pages: OlderPages = { hasOlder: true, loading: false, error: undefined, loadOlder: async () => {} };
 * ```
 */
export interface OlderPages {
  /** Whether older rows may be loaded. */
  readonly hasOlder: boolean;
  /** Whether a page is being loaded. */
  readonly loading: boolean;
  /** The last load's error (a `load-failed` ChunklogError), cleared by the next success. */
  readonly error: unknown;
  /** Loads the page before the oldest row held; does nothing when there is none or one is loading. Never rejects: a failure lands in `error`. */
  readonly loadOlder: () => Promise<void>;
}

/**
 * Loading older pages of a window: `loadOlder()` (shared while one is in flight, a no-op when
 * nothing older exists), with its status and last error as state.
 *
 * @param window - the window
 * @returns `hasOlder`, `loading`, `error` and `loadOlder`
 *
 * @example
 * ```tsx
 * const { hasOlder, loading, loadOlder } = useOlderPages(window);
 * return hasOlder ? <button disabled={loading} onClick={loadOlder}>Older</button> : null;
 * ```
 */
export function useOlderPages(window: ChunkWindow): OlderPages {
  const { hasOlder, loadingOlder } = useChunkWindow(window);
  const [error, setError] = useState<unknown>(undefined);
  const loadOlder = useCallback(async () => {
    const snapshot = window.getSnapshot();
    if (!snapshot.hasOlder) return;
    try {
      await window.loadOlder();
      setError(undefined);
    } catch (failure) {
      setError(failure);
    }
  }, [window]);
  return { hasOlder, loading: loadingOlder, error, loadOlder };
}
