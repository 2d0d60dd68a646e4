// The flags the commands that open a store share: `--prefix`, and the encryption flags
// `--key-file` (the file key provider) or `--key-module` (the app's own provider).
import type { StoreEncryptionOptions } from '../store/encryption/key-provider.js';
import { UsageError } from './fail.js';
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
