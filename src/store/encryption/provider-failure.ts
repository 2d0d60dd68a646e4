import { ChunklogError } from '../../errors/chunklog-error.js';
import type { ThreadKeyProvider } from './key-provider.js';

/**
 * A key provider's own failure (the app's KMS unreachable, a vault refusing): what the store's
 * guarded provider throws for it, so that `wrapStoreErrors` says the key provider failed, not
 * the database, with the provider's error as `cause`.
 */
export class KeyProviderFailure extends Error {
  /** @param cause - what the provider threw */
  constructor(cause: unknown) {
    super(`the key provider failed: ${cause instanceof Error ? cause.message : String(cause)}`, {
      cause,
    });
    this.name = 'KeyProviderFailure';
  }
}

/**
 * Runs one call of the provider; its failure, unless a chunklog error, is thrown as a
 * {@link KeyProviderFailure}.
 */
async function call<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (ChunklogError.isInstance(error)) throw error;
    throw new KeyProviderFailure(error);
  }
}

/**
 * The store's view of the app's key provider: every call made as the app's provider would be,
 * its failures thrown as {@link KeyProviderFailure} (a {@link ChunklogError}, such as the file
 * provider's, passes as it is).
 *
 * @param keys - the app's key provider
 * @returns the provider the store calls
 */
export function guardProvider(keys: ThreadKeyProvider): ThreadKeyProvider {
  return {
    getKey: (threadId, version) =>
      call(() => (version === undefined ? keys.getKey(threadId) : keys.getKey(threadId, version))),
    createKey: (threadId) => call(() => keys.createKey(threadId)),
    destroyKey: (threadId, version) =>
      call(() =>
        version === undefined ? keys.destroyKey(threadId) : keys.destroyKey(threadId, version),
      ),
  };
}
