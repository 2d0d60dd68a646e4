import { ChunklogError } from '../errors/chunklog-error.js';
import { checkThreadId, idProblem } from '../schema/id.js';
import { INSTANT_EXAMPLE, isoInstantMillis } from '../schema/instant.js';
import { previewValue } from '../schema/parse.js';

export {
  checkThreadId,
  compareCodeUnits,
  hasLoneSurrogate,
  idProblem,
  MAX_ID_BYTES,
  threadIdProblem,
} from '../schema/id.js';

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
 * The id of a thread a write creates: the one given, checked, or a new random UUID.
 *
 * @param threadId - the id asked for, if any
 * @param option - the option that gave it, for the error
 * @throws {ChunklogError} `invalid-option` naming the problem
 */
export function newThreadId(threadId: unknown, option: string): string {
  return threadId === undefined ? globalThis.crypto.randomUUID() : checkThreadId(threadId, option);
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

/**
 * A `firstSeq` option (`createThread`, `appendTurn`): an integer from 1 to `MAX_SEQ - 1`, the
 * last seq a row can take (the thread's next seq, one past its last row, must stay within
 * `MAX_SEQ`).
 *
 * @throws {ChunklogError} `invalid-option` (`firstSeq`)
 */
export function checkFirstSeq(value: unknown): number {
  const seq = checkSeq(value, 'firstSeq', 1);
  if (seq >= MAX_SEQ) {
    throw new ChunklogError(
      'invalid-option',
      `firstSeq must be at most ${MAX_SEQ - 1}, the last seq a row can take (got ${seq}).`,
      { option: 'firstSeq', value },
    );
  }
  return seq;
}

/**
 * Checks a point in time given as an option: a valid `Date`, an ISO 8601 date-time with a time
 * zone (see `isoInstantMillis`), or, where `numbers` says so, milliseconds since the epoch.
 *
 * @param value - what was given
 * @param option - the option's name, for the error (`createdAt`, `before`)
 * @param what - what the option is of, at the start of the error message (`expire: \`before\``)
 * @param numbers - whether milliseconds since the epoch are accepted too
 * @returns the milliseconds since the epoch
 * @throws {ChunklogError} `invalid-option` naming the option and what it accepts
 */
export function checkInstant(
  value: unknown,
  option: string,
  what: string,
  numbers: boolean,
): number {
  const millis =
    value instanceof Date
      ? value.getTime()
      : typeof value === 'string'
        ? isoInstantMillis(value)
        : numbers && typeof value === 'number'
          ? value
          : undefined;
  if (millis === undefined || !Number.isFinite(millis)) {
    const accepted = numbers
      ? 'a valid Date, an ISO 8601 date-time with a time zone or milliseconds since the epoch'
      : 'a valid Date or an ISO 8601 date-time with a time zone';
    throw new ChunklogError('invalid-option', `${what} must be ${accepted} (${INSTANT_EXAMPLE}).`, {
      option,
      value,
    });
  }
  return millis;
}
