// The flags the commands that open a store share: `--prefix`, and the encryption flags
// `--key-file` (the file key provider) or `--key-module` (the app's own provider).
import { ChunklogError } from '../errors/chunklog-error.js';
import type { StoreEncryptionOptions } from '../store/encryption/key-provider.js';
import type { ChunkStore } from '../store/types.js';
import { readWithoutKey, UsageError } from './fail.js';
import { keyFileEncryption } from './key-file.js';
import { keyModuleEncryption } from './key-module.js';

/**
 * The flags of every command that opens a store, for `parseArgs`: the table prefix and the
 * encryption flags.
 */
export const STORE_FLAGS = {
  prefix: { type: 'string' },
  'key-file': { type: 'string' },
  'key-module': { type: 'string' },
} as const;

/** The parsed values of the encryption flags. */
export interface EncryptionFlags {
  readonly 'key-file'?: string | undefined;
  readonly 'key-module'?: string | undefined;
}

/**
 * The `encryption` option the flags ask for, or undefined for a store without encryption.
 *
 * @param flags - the parsed `--key-file` and `--key-module`
 * @param mustExist - refuse a key file that does not exist (a read-only command)
 * @throws {UsageError} for both flags at once, or what either flag's check names
 */
export async function storeEncryption(
  flags: EncryptionFlags,
  mustExist: boolean,
): Promise<StoreEncryptionOptions | undefined> {
  if (flags['key-file'] !== undefined && flags['key-module'] !== undefined) {
    throw new UsageError('give --key-file or --key-module, not both');
  }
  return (
    keyFileEncryption(flags['key-file'], mustExist) ??
    (await keyModuleEncryption(flags['key-module']))
  );
}

/**
 * Fails when the store is encrypted and was opened without a key: its most recently active
 * thread's title or metadata, or its newest row, is encrypted. The failure is the `corrupt-row`
 * that read raised, which `report` words as the flags that give a key, as for any read of an
 * encrypted value (`chunklog export`'s). A thread whose key is gone (a backup restored after
 * `eraseThread`) is not a missing key: it does not stop the command.
 *
 * @param store - the store, opened as the command opens it
 * @throws {ChunklogError} `corrupt-row` (the store is encrypted), `not-migrated`, the store's errors
 */
export async function refuseWithoutKey(
  store: Pick<ChunkStore, 'listThreads' | 'getChunks'>,
): Promise<void> {
  const page = await store.listThreads({ limit: 1, onCorruptRow: 'skip' });
  const blind = page.skipped?.find((skipped) => readWithoutKey(skipped.error));
  if (blind !== undefined) throw blind.error;
  const thread = page.threads[0];
  if (thread === undefined) return;
  await store.getChunks(thread.id, { limit: 1, onCorruptRow: 'throw' }).catch((error: unknown) => {
    // Another corrupt row (its key gone, its data changed) is the thread's, not the store's.
    if (readWithoutKey(error) || !ChunklogError.hasCode(error, 'corrupt-row')) throw error;
  });
}
