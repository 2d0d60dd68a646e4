import { ChunklogError } from '../../errors/chunklog-error.js';
import { randomKeyBytes } from './cipher.js';
import { isThreadKey, KEY_BYTES, type ThreadKey, type ThreadKeyProvider } from './key-provider.js';

/**
 * A key provider that keeps every thread's keys in this process's memory: for tests, demos and
 * data that may be lost with the process (a restart makes every encrypted row unreadable).
 *
 * @param initial - keys to start with, by thread id (for example those of an earlier
 *   {@link MemoryKeyProvider.export}); copied
 * @returns the provider
 * @throws {ChunklogError} `invalid-option` (`initial`) for `initial` that is not an object of
 *   thread ids to arrays of `{ version, key }`, a key whose version is not an integer of at
 *   least 1 or whose key is not 32 bytes, or a version given twice for one thread
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
  for (const [threadId, keys] of Object.entries(checkInitial(initial))) {
    threads.set(
      threadId,
      keys
        .map((k) => ({ version: k.version, key: Uint8Array.from(k.key) }))
        .sort((a, b) => a.version - b.version),
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

/** What {@link createMemoryKeyProvider} is given, checked: thread id → its keys. */
function checkInitial(initial: unknown): Readonly<Record<string, readonly ThreadKey[]>> {
  if (initial === undefined) return {};
  const where = 'createMemoryKeyProvider';
  const proto = typeof initial === 'object' && initial !== null && Object.getPrototypeOf(initial);
  if (proto !== Object.prototype && proto !== null) {
    // No `value`: it may hold keys, and errors are logged.
    throw new ChunklogError(
      'invalid-option',
      `${where}: the initial keys must be an object of thread ids to arrays of keys ({ [threadId]: [{ version, key }] }, as \`export()\` gives).`,
      { option: 'initial' },
    );
  }
  const record = initial as Record<string, unknown>;
  for (const [threadId, keys] of Object.entries(record)) {
    const thread = JSON.stringify(threadId);
    if (!Array.isArray(keys)) {
      throw new ChunklogError(
        'invalid-option',
        `${where}: the initial keys of thread ${thread} must be an array of { version, key }.`,
        { option: 'initial', threadId },
      );
    }
    const versions = new Set<number>();
    for (const key of keys as unknown[]) {
      const valid = isThreadKey(key);
      if (!valid || versions.has(key.version)) {
        throw new ChunklogError(
          'invalid-option',
          valid
            ? `${where}: thread ${thread} has two initial keys of version ${key.version}.`
            : `${where}: an initial key of thread ${thread} is not { version: an integer of at least 1, key: ${KEY_BYTES} bytes }.`,
          { option: 'initial', threadId },
        );
      }
      versions.add(key.version);
    }
  }
  return record as Readonly<Record<string, readonly ThreadKey[]>>;
}

/** The provider {@link createMemoryKeyProvider} returns. */
export interface MemoryKeyProvider extends ThreadKeyProvider {
  /** A copy of every key held, by thread id (oldest version first). */
  export(): Record<string, ThreadKey[]>;
}
