import { ChunklogError } from '../../errors/chunklog-error.js';

/**
 * One data key of a thread: 32 random bytes for AES-256-GCM, and its version (1 for a thread's
 * first key, one more for each key a rotation makes). The version is stored in clear in every
 * value the key encrypts, so that a reader asks for the right key.
 *
 * @example
 * ```ts
 * const key: ThreadKey = { version: 1, key: crypto.getRandomValues(new Uint8Array(32)) };
 * ```
 */
export interface ThreadKey {
  /** The key's version, an integer of at least 1. */
  readonly version: number;
  /** The key: exactly 32 bytes. */
  readonly key: Uint8Array;
}

/**
 * Where a store with `encryption` gets each thread's data keys: the app's key management (a KMS
 * that wraps the keys, a vault), or {@link createMemoryKeyProvider} and
 * {@link createFileKeyProvider}. The store never keeps a key past the operation that asked for it.
 *
 * @example
 * ```ts
 * const provider: ThreadKeyProvider = createMemoryKeyProvider();
 * const store = createChunkStore({ sqlite: './chat.db' }, { encryption: { keys: provider } });
 * ```
 */
export interface ThreadKeyProvider {
  /**
   * The thread's key of `version`, or its newest key when no version is given; undefined when
   * there is none (never made, or destroyed).
   */
  getKey(threadId: string, version?: number): Promise<ThreadKey | undefined>;
  /**
   * Makes a new key for the thread, newer than any it has (its first key, or the next version
   * on rotation), keeps it, and returns it.
   */
  createKey(threadId: string): Promise<ThreadKey>;
  /**
   * Destroys the thread's key of `version`, or every key of the thread when no version is
   * given. Destroying a key that does not exist does nothing.
   */
  destroyKey(threadId: string, version?: number): Promise<void>;
}

/** The `encryption` option of `createChunkStore`. */
export interface StoreEncryptionOptions {
  /** Where the threads' data keys come from. */
  readonly keys: ThreadKeyProvider;
}

/** The length of a data key, in bytes (AES-256). */
export const KEY_BYTES = 32;

/**
 * Checks the `encryption` option.
 *
 * @returns the key provider, or undefined when encryption is off
 * @throws {ChunklogError} `invalid-option` (option `encryption`)
 */
export function checkEncryption(value: unknown): ThreadKeyProvider | undefined {
  if (value === undefined) return undefined;
  const keys = (value as { keys?: unknown } | null)?.keys as Record<string, unknown> | undefined;
  if (
    typeof value !== 'object' ||
    value === null ||
    typeof keys !== 'object' ||
    keys === null ||
    typeof keys.getKey !== 'function' ||
    typeof keys.createKey !== 'function' ||
    typeof keys.destroyKey !== 'function'
  ) {
    throw new ChunklogError(
      'invalid-option',
      'createChunkStore: `encryption` must be { keys } with a key provider (getKey, createKey, destroyKey).',
      { option: 'encryption', value },
    );
  }
  return keys as unknown as ThreadKeyProvider;
}

/**
 * Checks a key a provider returned.
 *
 * @throws {ChunklogError} `invalid-option` (option `encryption`), naming the thread and what is wrong
 */
export function checkThreadKey(threadId: string, key: unknown): ThreadKey {
  const k = key as ThreadKey | null;
  if (
    typeof k !== 'object' ||
    k === null ||
    !Number.isSafeInteger(k.version) ||
    k.version < 1 ||
    !(k.key instanceof Uint8Array) ||
    k.key.length !== KEY_BYTES
  ) {
    throw new ChunklogError(
      'invalid-option',
      `The encryption key provider returned no valid key for thread ${JSON.stringify(threadId)}: a key is { version: an integer of at least 1, key: ${KEY_BYTES} bytes }.`,
      { option: 'encryption', threadId },
    );
  }
  return k;
}
