import { ChunklogError } from '../../errors/chunklog-error.js';
import { invalidOption, readOptions } from '../../errors/invalid-option.js';

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
  /**
   * Refuse what is stored in clear: a row whose data is not encrypted reads as a corrupt row
   * (`onCorruptRow` decides), and a clear thread title or metadata fails with `corrupt-row`.
   * Default `false`: clear values, written before encryption was turned on, are read. Turn it
   * on once every thread was rotated (`rotateThreadKey` encrypts clear rows), or from the start:
   * then one who can write the database cannot add a row in clear either.
   */
  readonly requireEncrypted?: boolean | undefined;
}

/** The `encryption` option, checked. */
export interface CheckedEncryption {
  readonly keys: ThreadKeyProvider;
  readonly requireEncrypted: boolean;
}

/** The length of a data key, in bytes (AES-256). */
export const KEY_BYTES = 32;

/**
 * Checks the `encryption` option.
 *
 * @returns the key provider and whether clear values are refused, or undefined when encryption
 *   is off
 * @throws {ChunklogError} `invalid-option` (option `encryption`, or the unknown or wrong key in it)
 */
export function checkEncryption(value: unknown): CheckedEncryption | undefined {
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
  const o = readOptions(value, 'createChunkStore', ['keys', 'requireEncrypted'], 'encryption');
  const required = o.requireEncrypted ?? false;
  if (typeof required !== 'boolean') {
    invalidOption(
      'createChunkStore',
      'encryption.requireEncrypted',
      '`encryption.requireEncrypted` must be a boolean',
      required,
    );
  }
  return { keys: keys as unknown as ThreadKeyProvider, requireEncrypted: required };
}

/**
 * Checks a key a provider returned.
 *
 * @throws {ChunklogError} `invalid-option` (option `encryption`), naming the thread and what is wrong
 */
export function checkThreadKey(threadId: string, key: unknown): ThreadKey {
  if (!isThreadKey(key)) {
    throw new ChunklogError(
      'invalid-option',
      `The encryption key provider returned no valid key for thread ${JSON.stringify(threadId)}: a key is { version: an integer of at least 1, key: ${KEY_BYTES} bytes }.`,
      { option: 'encryption', threadId },
    );
  }
  return key;
}

/** Whether `value` is a {@link ThreadKey}: a version of at least 1 and 32 bytes. */
export function isThreadKey(value: unknown): value is ThreadKey {
  const k = value as ThreadKey | null;
  return (
    typeof k === 'object' &&
    k !== null &&
    Number.isSafeInteger(k.version) &&
    k.version >= 1 &&
    k.key instanceof Uint8Array &&
    k.key.length === KEY_BYTES
  );
}
