// The error of a stream part the mapping could not read. The parts are trusted (they come from
// `streamText` in the same process), so nothing is checked before the mapping: what is wrong is
// looked for only once it has thrown, and a well-formed part pays nothing for it.
import { ChunklogError } from '../errors/chunklog-error.js';
import { formatPath, previewValue } from '../schema/parse.js';

/** A field a part needs: where it is, what it must be, and the check. */
type Need = readonly [path: readonly string[], what: string, ok: (value: unknown) => boolean];

const isObject = (value: unknown): boolean => typeof value === 'object' && value !== null;
const isString = (value: unknown): boolean => typeof value === 'string';
const file: readonly Need[] = [
  [['file'], 'an object (the generated file)', isObject],
  [['file', 'mediaType'], 'a string', isString],
];
const toolCall: readonly Need[] = [[['toolCall'], 'an object (the tool call)', isObject]];

/** The nested fields the mapping of each part type reads without a guard. */
const NEEDS: Readonly<Record<string, readonly Need[]>> = {
  file,
  'reasoning-file': file,
  'steering-message': [
    [['message'], 'an object (the user message)', isObject],
    [
      ['message', 'content'],
      'a string or an array of parts',
      (content) => isString(content) || (Array.isArray(content) && content.every(isObject)),
    ],
  ],
  'tool-approval-request': toolCall,
  'tool-approval-response': toolCall,
  'text-end': [
    [
      ['citations'],
      'an array of citations, each with a `source` object',
      (citations) =>
        citations === undefined ||
        (Array.isArray(citations) &&
          citations.every((c) => isObject(c) && isObject((c as { source?: unknown }).source))),
    ],
  ],
};

function valueAt(root: unknown, path: readonly string[]): unknown {
  let value = root;
  for (const key of path)
    value = isObject(value) ? (value as Record<string, unknown>)[key] : undefined;
  return value;
}

/**
 * The `invalid-option` error (option `part`) of a part whose mapping threw: it names the part's
 * type and, when a field the mapping reads is missing or of the wrong kind, that field (`path`,
 * `value`); otherwise what the mapping threw. The thrown error is the `cause`.
 *
 * @param part - the part (an object with a string `type`)
 * @param error - what its mapping threw
 * @returns the error to throw
 */
export function malformedPart(part: { readonly type: string }, error: unknown): ChunklogError {
  const where = `toChunkEvents: a \`${part.type}\` part`;
  for (const [path, what, ok] of NEEDS[part.type] ?? []) {
    const value = valueAt(part, path);
    if (ok(value)) continue;
    return new ChunklogError(
      'invalid-option',
      `${where} needs \`${formatPath(path)}\` to be ${what} (got ${previewValue(value)}).`,
      { option: 'part', path, value, cause: error },
    );
  }
  const reason = error instanceof Error ? error.message : previewValue(error);
  return new ChunklogError(
    'invalid-option',
    `${where} is not what the AI SDK streams: reading it failed (${reason}).`,
    { option: 'part', path: [], value: part, cause: error },
  );
}
