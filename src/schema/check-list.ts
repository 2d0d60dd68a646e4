import { ChunklogError, type ChunklogErrorCode } from '../errors/chunklog-error.js';
import { type ChatMessage, chatMessageMini } from './chat-message.js';
import { type AnyZodSchema, firstIssue, formatPath, previewValue } from './parse.js';

/** What {@link checkList} checks and how it names a failure. */
export interface ListCheck {
  /** The schema every element must match (a `zod/mini` one in chunklog's browser-safe code). */
  readonly schema: AnyZodSchema;
  /** The error code of a failure. */
  readonly code: ChunklogErrorCode;
  /** The public function, for the message (`'groupRowsToMessages'`). */
  readonly where: string;
  /** The argument's name, for the message (`'rows'`). */
  readonly argument: string;
  /** What one element is, for the message (`'row'`). */
  readonly what: string;
}

/**
 * Checks an argument that must be an array of schema-valid values, as a public function given
 * values from outside (a page read over HTTP, JSON from a file) does before it relies on them.
 * The array itself is returned, not zod's copies, so that element identity and fields the
 * schema does not know are kept.
 *
 * @param value - the untrusted argument
 * @param check - the schema, the error code and the names for the message
 * @returns `value`, typed
 * @throws {ChunklogError} with `check.code`: `path` is `[index, ...path in the element]` (empty
 *   when `value` is not an array) and the message names the function, the argument and the path
 */
export function checkList<T>(value: unknown, check: ListCheck): readonly T[] {
  const { schema, code, where, argument, what } = check;
  if (!Array.isArray(value)) {
    throw new ChunklogError(
      code,
      `${where}: \`${argument}\` must be an array of ${what}s (got ${previewValue(value)})`,
      { path: [], value },
    );
  }
  for (let i = 0; i < value.length; i++) {
    const issue = firstIssue(schema, value[i]);
    if (issue === undefined) continue;
    const path = [i, ...issue.path];
    throw new ChunklogError(
      code,
      `${where}: invalid ${what} at ${argument}${formatPath(path)}: ${issue.message} (got ${previewValue(issue.value)})`,
      { path, value: issue.value, cause: issue.cause },
    );
  }
  return value as readonly T[];
}

/**
 * Checks an argument that must be an array of valid chat messages.
 *
 * @param value - the untrusted argument
 * @param where - the public function, for the message
 * @returns `value`, typed
 * @throws {ChunklogError} `invalid-message`, naming the index and the path in the message
 */
export function checkChatMessages(value: unknown, where: string): readonly ChatMessage[] {
  return checkList<ChatMessage>(value, {
    schema: chatMessageMini,
    code: 'invalid-message',
    where,
    argument: 'messages',
    what: 'chat message',
  });
}
