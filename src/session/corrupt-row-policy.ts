import type { SessionStore } from './types.js';

/**
 * The session's store, reading history with the session's `onCorruptRow` policy: every other
 * member is the store's own (bound to it), so a store with more methods keeps them.
 *
 * @param store - the store given to the session
 * @param policy - the session's policy, or undefined to keep the store's
 * @returns the store itself when no policy is given, else a view of it
 */
export function withCorruptRowPolicy<S extends SessionStore>(
  store: S,
  policy: 'throw' | 'skip' | undefined,
): S {
  if (policy === undefined) return store;
  const getMessages: SessionStore['getMessages'] = (threadId, options) =>
    store.getMessages(threadId, { onCorruptRow: policy, ...options });
  return new Proxy(store, {
    get(target, key) {
      if (key === 'getMessages') return getMessages;
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
