// Catching a ChunklogError in a test: what was thrown, or a failure when nothing (or something
// else) was.
import { ChunklogError } from '../../src/errors/index.js';

/** The ChunklogError `run` throws; fails the test when it throws anything else or returns. */
export function thrown(run: () => unknown): ChunklogError {
  try {
    run();
  } catch (error) {
    if (ChunklogError.isInstance(error)) return error;
    throw new Error(`expected a ChunklogError, got ${String(error)}`, { cause: error });
  }
  throw new Error('expected a ChunklogError, nothing was thrown');
}

/** The ChunklogError `promise` rejects with; fails the test otherwise. */
export async function rejected(promise: Promise<unknown>): Promise<ChunklogError> {
  try {
    await promise;
  } catch (error) {
    if (ChunklogError.isInstance(error)) return error;
    throw new Error(`expected a ChunklogError, got ${String(error)}`, { cause: error });
  }
  throw new Error('expected a ChunklogError, the promise resolved');
}
