import { ChunklogError } from '../errors/chunklog-error.js';
import { checkThreadId } from './validate.js';

/** The longest title the store keeps, in UTF-16 code units. */
export const MAX_TITLE_LENGTH = 1000;

/**
 * Checks an owner id: the same rules as a thread id (1 to 255 UTF-8 bytes).
 *
 * @throws {ChunklogError} `invalid-option` naming `ownerId`
 */
export function checkOwnerId(ownerId: unknown): string {
  return checkThreadId(ownerId, 'ownerId');
}

/**
 * Checks a title: a string of at most {@link MAX_TITLE_LENGTH} characters without NUL (which
 * PostgreSQL's text refuses).
 *
 * @throws {ChunklogError} `invalid-option` naming `title`
 */
export function checkTitle(title: unknown): string {
  if (typeof title !== 'string' || title.length > MAX_TITLE_LENGTH || title.includes('\u0000')) {
    throw new ChunklogError(
      'invalid-option',
      `A thread title must be a string of at most ${MAX_TITLE_LENGTH} characters, without NUL.`,
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
