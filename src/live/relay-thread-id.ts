import { ChunklogError } from '../errors/index.js';
import { idProblem } from '../schema/id.js';

/**
 * Checks the thread id given to a relay's method, by the one id rule (`idProblem`).
 *
 * @param where - the method, for example `'relay.forget'`
 * @param threadId - the untrusted id
 * @returns the id
 * @throws {ChunklogError} `invalid-option` naming the problem
 *
 * @example
 * ```ts
 * checkRelayThreadId('relay.forget', 'thread-1'); // 'thread-1'
 * ```
 */
export function checkRelayThreadId(where: string, threadId: unknown): string {
  const problem = idProblem(threadId);
  if (problem !== undefined) {
    throw new ChunklogError('invalid-option', `${where}: a thread id ${problem}.`, {
      option: 'threadId',
      value: threadId,
    });
  }
  return threadId as string;
}
