import { keepHistory } from './history.js';
import type { SessionStore } from './types.js';

/** The reads that take an `onCorruptRow` option, on a `ChunkStore`. */
const READS: ReadonlySet<PropertyKey> = new Set([
  'getMessages',
  'getHistory',
  'getRows',
  'getChunksAfter',
]);

/**
 * The session's view of its store: reads use the session's `onCorruptRow` policy, and the
 * view keeps the thread's history between turns (see `ThreadHistory`). Every other member is
 * the store's own (bound to it), so a store with more methods keeps them.
 *
 * @param store - the store given to the session
 * @param policy - the session's policy, or undefined to keep the store's
 * @returns a view of the store, one per session
 */
export function withCorruptRowPolicy<S extends SessionStore>(
  store: S,
  policy: 'throw' | 'skip' | undefined,
): S {
  const reads = new Map<PropertyKey, unknown>();
  const view = new Proxy(store, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key, target);
      if (typeof value !== 'function') return value;
      if (policy === undefined || !READS.has(key)) return value.bind(target);
      let read = reads.get(key);
      if (read === undefined) {
        read = (threadId: string, options?: object) =>
          value.call(target, threadId, { onCorruptRow: policy, ...options });
        reads.set(key, read);
      }
      return read;
    },
  });
  keepHistory(view);
  return view;
}
