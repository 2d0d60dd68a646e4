import { sleep } from '../errors/backoff.js';
import { ChunklogError } from '../errors/chunklog-error.js';
import type { StoreContext } from './context.js';
import { Deadline, DeadlineReached, storeTimeout } from './deadline.js';
import { isConnectionLost, LOST_CONNECTION_ATTEMPTS, retryDelay } from './faults.js';
import { isKeyProviderFailure } from './store-errors.js';

/**
 * Runs a read within the store's `timeoutMs`: a read whose connection was lost (a database
 * restart, a stale pooled connection) is run again on another connection, a few times; a read
 * the database does not answer in time fails with `store-timeout` (its connection is left to the
 * driver, which gets it back when the server or the network ends it).
 *
 * @param ctx - the store
 * @param what - the operation, for the message (`getChunks`)
 * @param threadId - the thread read, if any
 * @param work - the read (it wraps driver errors as `store-failed`)
 * @returns what the read returns
 * @throws {ChunklogError} `store-timeout`, or what the read throws
 */
export async function read<T>(
  ctx: StoreContext,
  what: string,
  threadId: string | undefined,
  work: () => Promise<T>,
): Promise<T> {
  const deadline = new Deadline(ctx.timeoutMs);
  try {
    for (let attempt = 1; ; attempt++) {
      try {
        return await deadline.race(work());
      } catch (error) {
        if (error instanceof DeadlineReached) {
          throw storeTimeout(what, threadId, ctx.timeoutMs, false);
        }
        // A lost connection is tried again; a key provider's failure is not (it is not the
        // database's, whatever network code its error has).
        const lost =
          ChunklogError.hasCode(error, 'store-failed') &&
          !isKeyProviderFailure(error) &&
          isConnectionLost(error.cause);
        if (!lost || attempt >= LOST_CONNECTION_ATTEMPTS) throw error;
        try {
          await deadline.race(sleep(retryDelay(attempt, true)));
        } catch {
          throw error;
        }
      }
    }
  } finally {
    deadline.clear();
  }
}
