import { ChunklogError } from '../errors/chunklog-error.js';
import { previewValue } from '../schema/parse.js';

const encoder = new TextEncoder();
const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * The longest id (thread or turn) the store accepts, in UTF-8 bytes (MySQL keys them as
 * `VARBINARY(255)`).
 *
 * @example
 * ```ts
 * new TextEncoder().encode(threadId).length <= MAX_ID_BYTES;
 * ```
 */
export const MAX_ID_BYTES = 255;

/**
 * The largest page `getChunks` and `listThreads` return.
 *
 * @example
 * ```ts
 * await store.getChunks(threadId, { limit: MAX_PAGE_LIMIT });
 * ```
 */
export const MAX_PAGE_LIMIT = 1000;

/**
 * Whether `text` holds a lone surrogate: a string that is not well-formed Unicode, which UTF-8
 * cannot encode (a database would store U+FFFD in its place, or refuse it).
 */
export function hasLoneSurrogate(text: string): boolean {
  return loneSurrogate.test(text);
}

/**
 * Whether `id` can be stored on every dialect: a non-empty, well-formed string without NUL, at
 * most {@link MAX_ID_BYTES} UTF-8 bytes.
 */
export function idProblem(id: unknown): string | undefined {
  if (typeof id !== 'string') return 'must be a string';
  if (id.length === 0) return 'must not be empty';
  if (id.includes('\u0000')) return 'must not contain NUL';
  if (hasLoneSurrogate(id)) return 'must be well-formed Unicode (no lone surrogates)';
  // A UTF-16 code unit is at most 3 UTF-8 bytes, so short ids need no encoding.
  if (id.length * 3 > MAX_ID_BYTES && encoder.encode(id).length > MAX_ID_BYTES)
    return `must be at most ${MAX_ID_BYTES} UTF-8 bytes`;
  return undefined;
}

/**
 * Checks a thread id.
 *
 * @throws {ChunklogError} `invalid-option` naming the problem
 */
export function checkThreadId(threadId: unknown, option = 'threadId'): string {
  const problem = idProblem(threadId);
  if (problem !== undefined) {
    throw new ChunklogError('invalid-option', `A thread id ${problem}.`, {
      option,
      value: threadId,
    });
  }
  return threadId as string;
}

/**
 * Checks a turn id given to a read (`getTurn`, `hasTurn`): the ids `appendTurn` can store.
 *
 * @throws {ChunklogError} `invalid-option` naming the problem
 */
export function checkTurnId(turnId: unknown): string {
  const problem = idProblem(turnId);
  if (problem !== undefined) {
    throw new ChunklogError('invalid-option', `A turn id ${problem}.`, {
      option: 'turnId',
      value: turnId,
    });
  }
  return turnId as string;
}

/**
 * The page size of `getChunks`, `getChunksAfter` and `listThreads` when no `limit` is given: the
 * default of the HTTP chunks route too.
 *
 * @example
 * ```ts
 * (await store.getChunks(threadId)).chunks.length <= DEFAULT_PAGE_LIMIT;
 * ```
 */
export const DEFAULT_PAGE_LIMIT = 50;

/**
 * Checks a page size: an integer from 1 to {@link MAX_PAGE_LIMIT}, {@link DEFAULT_PAGE_LIMIT}
 * when not given.
 *
 * @throws {ChunklogError} `invalid-option`
 */
export function checkLimit(limit: unknown): number {
  if (limit === undefined) return DEFAULT_PAGE_LIMIT;
  if (
    typeof limit !== 'number' ||
    !Number.isInteger(limit) ||
    limit < 1 ||
    limit > MAX_PAGE_LIMIT
  ) {
    throw new ChunklogError(
      'invalid-option',
      `limit must be an integer from 1 to ${MAX_PAGE_LIMIT} (got ${previewValue(limit)}).`,
      { option: 'limit', value: limit },
    );
  }
  return limit;
}

/**
 * Checks a seq argument: an integer of at least `min`.
 *
 * @throws {ChunklogError} `invalid-option`
 */
export function checkSeq(value: unknown, option: string, min: number): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min) {
    throw new ChunklogError(
      'invalid-option',
      `${option} must be an integer of at least ${min} (got ${previewValue(value)}).`,
      { option, value },
    );
  }
  return value;
}

/** The largest seq a column holds (a 32-bit integer on PostgreSQL and MySQL). */
export const MAX_SEQ = 2_147_483_647;
