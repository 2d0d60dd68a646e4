import { ChunklogError } from '../errors/chunklog-error.js';
import { KeyProviderFailure } from './encryption/provider-failure.js';
import { isMissingSchema } from './not-migrated.js';

/**
 * Runs `work`, passing chunklog errors through and wrapping anything else (a driver error, or
 * the key provider's: a `KeyProviderFailure`, said to be the provider's) as `store-failed` with
 * the original error as `cause`.
 *
 * @param what - the operation, for the message (for example `appendTurn`)
 * @param threadId - the thread concerned, when there is one
 */
export async function wrapStoreErrors<T>(
  what: string,
  threadId: string | undefined,
  work: () => Promise<T>,
): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (ChunklogError.isInstance(error)) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    // The app's key provider failed, not the database: said so, with the provider's error.
    const provider = error instanceof KeyProviderFailure;
    if (!provider && isMissingSchema(error)) {
      throw new ChunklogError(
        'not-migrated',
        `${what} failed: the store's tables are missing or out of date (${reason}). Call \`await store.migrate()\` once before using the store.`,
        { cause: error, threadId },
      );
    }
    const failed = new ChunklogError(
      'store-failed',
      `${what}${threadId === undefined ? '' : ` on thread ${JSON.stringify(threadId)}`} failed: ${reason}`,
      { cause: provider ? error.cause : error, threadId },
    );
    if (provider) providerFailures.add(failed);
    throw failed;
  }
}

/** The `store-failed` errors that say the key provider failed (their cause is its error). */
const providerFailures = new WeakSet<ChunklogError>();

/**
 * Whether a `store-failed` error is the key provider's failure, not the database's: its cause is
 * the provider's own error, whose network code (a KMS timeout) says nothing of the database.
 *
 * @param error - an error from the store
 * @returns true for a failure of the key provider
 */
export function isKeyProviderFailure(error: unknown): boolean {
  return error instanceof ChunklogError && providerFailures.has(error);
}

/** The `thread-not-found` error for `threadId`. */
export function threadNotFound(threadId: string): ChunklogError {
  return new ChunklogError(
    'thread-not-found',
    `Thread ${JSON.stringify(threadId)} does not exist (it was never created, or it was deleted).`,
    { threadId },
  );
}
