import { ChunklogError } from '../errors/chunklog-error.js';

const encoder = new TextEncoder();
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it refuses
const controlCharacter = /[\u0000-\u001f\u007f]/;
const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * The longest id (thread, turn, owner) chunklog accepts, in UTF-8 bytes: what every store dialect
 * can key (MySQL keys ids as `VARBINARY(255)`).
 *
 * @example
 * ```ts
 * new TextEncoder().encode(threadId).length <= MAX_ID_BYTES;
 * ```
 */
export const MAX_ID_BYTES = 255;

/**
 * What is wrong with an id (a thread's, a turn's, an owner's), or undefined when nothing is: the
 * one rule the store, the session and the HTTP handlers apply. An id is a non-empty, well-formed
 * string (no lone surrogates) without control characters (it goes into SSE `id:` lines, URLs and
 * logs), of at most {@link MAX_ID_BYTES} UTF-8 bytes.
 *
 * @param id - the untrusted id
 * @returns the problem, worded to follow "An id …", or undefined
 *
 * @example
 * ```ts
 * idProblem('thread-1'); // undefined
 * idProblem('a\nb'); // 'must not contain control characters'
 * ```
 */
export function idProblem(id: unknown): string | undefined {
  if (typeof id !== 'string') return 'must be a string';
  if (id.length === 0) return 'must not be empty';
  if (controlCharacter.test(id)) return 'must not contain control characters';
  if (hasLoneSurrogate(id)) return 'must be well-formed Unicode (no lone surrogates)';
  // A UTF-16 code unit is at most 3 UTF-8 bytes, so short ids need no encoding.
  if (id.length * 3 > MAX_ID_BYTES && encoder.encode(id).length > MAX_ID_BYTES) {
    return `must be at most ${MAX_ID_BYTES} UTF-8 bytes`;
  }
  return undefined;
}

/**
 * What is wrong with a thread id, or undefined when nothing is: {@link idProblem}, and not `.` or
 * `..`, which a URL path cannot carry as a segment (a client resolves `/threads/../messages` to
 * `/messages` before it is sent): a thread with such an id could not be reached over HTTP.
 *
 * @param threadId - the untrusted id
 * @returns the problem, worded to follow "A thread id …", or undefined
 *
 * @example
 * ```ts
 * threadIdProblem('..'); // 'must not be `.` or `..` (a URL path cannot carry either)'
 * ```
 */
export function threadIdProblem(threadId: unknown): string | undefined {
  if (threadId === '.' || threadId === '..') {
    return 'must not be `.` or `..` (a URL path cannot carry either)';
  }
  return idProblem(threadId);
}

/**
 * Whether `text` holds a lone surrogate: a string that is not well-formed Unicode, which UTF-8
 * cannot encode (a database would store U+FFFD in its place, or refuse it).
 *
 * @param text - the text
 * @returns true when it holds a lone surrogate
 *
 * @example
 * ```ts
 * hasLoneSurrogate('\uD800'); // true
 * ```
 */
export function hasLoneSurrogate(text: string): boolean {
  return loneSurrogate.test(text);
}

/**
 * Checks a thread id by {@link threadIdProblem}: the one check the store and the relays apply.
 *
 * @param threadId - the untrusted id
 * @param option - the option or argument that gave it, for the error
 * @param where - the method, for the message (for example `'relay.forget'`)
 * @returns the id
 * @throws {ChunklogError} `invalid-option` naming the problem
 *
 * @example
 * ```ts
 * checkThreadId('thread-1'); // 'thread-1'
 * ```
 */
export function checkThreadId(threadId: unknown, option = 'threadId', where?: string): string {
  const problem = threadIdProblem(threadId);
  if (problem !== undefined) {
    const message = `A thread id ${problem}.`;
    throw new ChunklogError(
      'invalid-option',
      where === undefined ? message : `${where}: ${message}`,
      {
        option,
        value: threadId,
      },
    );
  }
  return threadId as string;
}

/**
 * Orders two strings by their UTF-16 code units (`'a10' < 'a9'`), as `<` does: the one order of
 * ids (and of ISO times) wherever chunklog sorts them in JavaScript, so that every sort agrees.
 */
export function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
