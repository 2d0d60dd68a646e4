import { randomKeyBytes } from './cipher.js';
import { KEY_BYTES, type ThreadKey, type ThreadKeyProvider } from './key-provider.js';

/**
 * A key provider that keeps every thread's keys in this process's memory: for tests, demos and
 * data that may be lost with the process (a restart makes every encrypted row unreadable).
 *
 * @param initial - keys to start with, by thread id (for example those of an earlier
 *   {@link MemoryKeyProvider.export}); copied
 * @returns the provider
 *
 * @example
 * ```ts
 * import { createChunkStore, createMemoryKeyProvider } from 'chunklog/store';
 *
 * const store = createChunkStore(
 *   { sqlite: ':memory:' },
 *   { encryption: { keys: createMemoryKeyProvider() } },
 * );
 * ```
 */
export function createMemoryKeyProvider(
  initial?: Readonly<Record<string, readonly ThreadKey[]>>,
): MemoryKeyProvider {
  const threads = new Map<string, ThreadKey[]>();
  for (const [threadId, keys] of Object.entries(initial ?? {})) {
    threads.set(
      threadId,
      keys.map((k) => ({ version: k.version, key: Uint8Array.from(k.key) })),
    );
  }
  return {
    async getKey(threadId, version) {
      const keys = threads.get(threadId);
      if (keys === undefined) return undefined;
      return version === undefined
        ? keys[keys.length - 1]
        : keys.find((k) => k.version === version);
    },
    async createKey(threadId) {
      const keys = threads.get(threadId) ?? [];
      const version = (keys[keys.length - 1]?.version ?? 0) + 1;
      const key: ThreadKey = { version, key: randomKeyBytes(KEY_BYTES) };
      threads.set(threadId, [...keys, key]);
      return key;
    },
    async destroyKey(threadId, version) {
      const keys = threads.get(threadId);
      if (keys === undefined) return;
      const kept = version === undefined ? [] : keys.filter((k) => k.version !== version);
      for (const k of keys) if (!kept.includes(k)) k.key.fill(0);
      if (kept.length === 0) threads.delete(threadId);
      else threads.set(threadId, kept);
    },
    export() {
      return Object.fromEntries(
        [...threads].map(([id, keys]) => [
          id,
          keys.map((k) => ({ version: k.version, key: Uint8Array.from(k.key) })),
        ]),
      );
    },
  };
}

/** The provider {@link createMemoryKeyProvider} returns. */
export interface MemoryKeyProvider extends ThreadKeyProvider {
  /** A copy of every key held, by thread id (oldest version first). */
  export(): Record<string, ThreadKey[]>;
}
