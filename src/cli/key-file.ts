// `--key-file`: a store encrypted with the file key provider, its master key from the environment
// (never on the command line, where `ps` and the shell's history would keep it).
import { existsSync } from 'node:fs';
import { createFileKeyProvider } from '../store/encryption/file-provider.js';
import type { StoreEncryptionOptions } from '../store/encryption/key-provider.js';
import { cannotOpen, UsageError } from './fail.js';

/** The environment variable holding the master key of `--key-file`: 32 bytes, base64 or hex. */
export const MASTER_KEY_ENV = 'CHUNKLOG_MASTER_KEY';

/**
 * The `encryption` option of a store opened with `--key-file`: the file key provider over that
 * file, with the master key read from {@link MASTER_KEY_ENV}.
 *
 * @param keyFile - the `--key-file` value; undefined gives undefined (a store without encryption)
 * @param mustExist - refuse a key file that does not exist (a read-only command: no key can be
 *   made, so there is nothing to open)
 * @param env - the environment to read the master key from
 * @throws {UsageError} naming what is wrong with the master key; an Error (exit code 1) for a
 *   key file that must exist and is not there
 */
export function keyFileEncryption(
  keyFile: string | undefined,
  mustExist: boolean,
  env: NodeJS.ProcessEnv = process.env,
): StoreEncryptionOptions | undefined {
  if (keyFile === undefined) return undefined;
  if (mustExist && !existsSync(keyFile)) throw cannotOpen(keyFile, 'no such file (--key-file)');
  const text = env[MASTER_KEY_ENV]?.trim() ?? '';
  if (text === '') {
    throw new UsageError(
      `--key-file needs the master key in ${MASTER_KEY_ENV} (32 bytes, base64 or hex)`,
    );
  }
  const bytes = /^[0-9a-f]{64}$/i.test(text)
    ? Buffer.from(text, 'hex')
    : /^[A-Za-z0-9+/]{43}=?$/.test(text)
      ? Buffer.from(text, 'base64')
      : undefined;
  if (bytes === undefined || bytes.length !== 32) {
    throw new UsageError(`${MASTER_KEY_ENV} must be 32 bytes, written in base64 or hex`);
  }
  return { keys: createFileKeyProvider({ path: keyFile, masterKey: new Uint8Array(bytes) }) };
}
