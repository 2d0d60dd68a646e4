// `--key-module`: a store encrypted with the app's own key provider (a KMS, a vault), loaded from
// a module the user names, so that the CLI opens any encrypted store, not only the file
// provider's.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type {
  StoreEncryptionOptions,
  ThreadKeyProvider,
} from '../store/encryption/key-provider.js';
import { cannotOpen, UsageError } from './fail.js';

const PROVIDER_METHODS = ['getKey', 'createKey', 'destroyKey'] as const;

/** Whether `value` has the three methods of a key provider. */
function isKeyProvider(value: unknown): value is ThreadKeyProvider {
  return (
    typeof value === 'object' &&
    value !== null &&
    PROVIDER_METHODS.every((name) => typeof (value as Record<string, unknown>)[name] === 'function')
  );
}

/**
 * The `encryption` option of a store opened with `--key-module`: the key provider that the
 * module exports as its default export, or that its default export (a function, possibly async)
 * returns.
 *
 * @param modulePath - the `--key-module` value (relative to `cwd`); undefined gives undefined
 * @param cwd - the folder a relative path starts from
 * @throws {UsageError} when the module exports no key provider; an Error (exit code 1, a failure)
 *   when the file is not there, does not load, or its default export throws
 *
 * @example
 * ```js
 * // kms-keys.mjs, used as `chunklog inspect chat.db --key-module ./kms-keys.mjs`
 * import { createKmsKeyProvider } from './my-app/keys.js';
 * export default () => createKmsKeyProvider({ region: process.env.AWS_REGION });
 * ```
 */
export async function keyModuleEncryption(
  modulePath: string | undefined,
  cwd: string = process.cwd(),
): Promise<StoreEncryptionOptions | undefined> {
  if (modulePath === undefined) return undefined;
  const file = resolve(cwd, modulePath);
  if (!existsSync(file)) throw cannotOpen(modulePath, 'no such file (--key-module)');
  let loaded: { default?: unknown };
  try {
    loaded = (await import(pathToFileURL(file).href)) as { default?: unknown };
  } catch (error) {
    throw new Error(
      `--key-module ${modulePath} did not load: ${(error as Error)?.message ?? String(error)}`,
      { cause: error },
    );
  }
  let provider = loaded.default;
  if (typeof provider === 'function') {
    try {
      provider = await (provider as () => unknown)();
    } catch (error) {
      throw new Error(
        `--key-module ${modulePath}: its default export threw: ${(error as Error)?.message ?? String(error)}`,
        { cause: error },
      );
    }
  }
  if (!isKeyProvider(provider)) {
    throw new UsageError(
      `--key-module ${modulePath} must export a key provider (an object with ${PROVIDER_METHODS.join(', ')}) as its default export, or a function that returns one`,
    );
  }
  return { keys: provider };
}
