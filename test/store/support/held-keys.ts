// A key provider that holds a write's key fetch, for the tests of what runs between a write's
// key fetch (before its transaction) and its commit: a key rotation, an erasure.
import { deferred } from '../../../src/session/turn-handle.js';
import type { ThreadKeyProvider } from '../../../src/store/index.js';

/**
 * A key provider whose next `getKey` of a thread's newest key (a write fetching its key) returns
 * the key of that moment only once `release` is called: the write then goes on with a key it
 * fetched before whatever ran meanwhile. With `which: 'version'`, the next `getKey` of an
 * explicit version is held instead (a rotation batch opening the rows it read).
 */
export function heldKeys(inner: ThreadKeyProvider, which: 'newest' | 'version' = 'newest') {
  let gate: { readonly released: Promise<void>; readonly fetched: () => void } | undefined;
  const provider: ThreadKeyProvider = {
    async getKey(threadId, version) {
      const key = await inner.getKey(threadId, version);
      const held = (version === undefined) === (which === 'newest') ? gate : undefined;
      if (held !== undefined) {
        gate = undefined;
        held.fetched();
        await held.released;
      }
      return key;
    },
    createKey: (threadId) => inner.createKey(threadId),
    destroyKey: (threadId, version) => inner.destroyKey(threadId, version),
  };
  /** Holds the next write's key; resolves `fetched` once the write has fetched it. */
  const hold = () => {
    const released = deferred<void>();
    const fetched = deferred<void>();
    gate = { released: released.promise, fetched: () => fetched.resolve() };
    return { release: () => released.resolve(), fetched: fetched.promise };
  };
  return { provider, hold };
}
