import { ChunklogError } from '../errors/chunklog-error.js';
import { hasLoneSurrogate, idProblem } from './validate.js';

/** The longest title the store keeps, in UTF-16 code units. */
export const MAX_TITLE_LENGTH = 1000;

/**
 * Checks an owner id: the same rules as a thread id (1 to 255 UTF-8 bytes of well-formed
 * Unicode, without NUL).
 *
 * @throws {ChunklogError} `invalid-option` naming `ownerId`
 */
export function checkOwnerId(ownerId: unknown): string {
  const problem = idProblem(ownerId);
  if (problem !== undefined) {
    throw new ChunklogError('invalid-option', `An owner id ${problem}.`, {
      option: 'ownerId',
      value: ownerId,
    });
  }
  return ownerId as string;
}

/**
 * Checks a title: a string of at most {@link MAX_TITLE_LENGTH} characters of well-formed
 * Unicode (a lone surrogate would read back as U+FFFD, or be refused by the database, as ids are)
 * without NUL (which PostgreSQL's text refuses).
 *
 * @throws {ChunklogError} `invalid-option` naming `title`
 */
export function checkTitle(title: unknown): string {
  if (
    typeof title !== 'string' ||
    title.length > MAX_TITLE_LENGTH ||
    title.includes('\u0000') ||
    hasLoneSurrogate(title)
  ) {
    throw new ChunklogError(
      'invalid-option',
      `A thread title must be a string of at most ${MAX_TITLE_LENGTH} characters of well-formed Unicode (no lone surrogates), without NUL.`,
      { option: 'title', value: title },
    );
  }
  return title;
}

/** Checks an optional field that `null` clears: undefined stays undefined, null stays null. */
export function checkClearable<T>(
  value: unknown,
  check: (value: unknown) => T,
): T | null | undefined {
  if (value === undefined || value === null) return value;
  return check(value);
}
