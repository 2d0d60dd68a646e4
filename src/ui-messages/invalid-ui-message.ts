import { ChunklogError } from '../errors/index.js';

/** Where in a `UIMessage[]` a problem is. */
export interface UIMessageLocation {
  /** The index of the message. */
  readonly index: number;
  /** The index of the part in the message, when the problem is in a part. */
  readonly part?: number | undefined;
  /** The part's type, for the error message. */
  readonly partType?: string | undefined;
  /** Keys inside the message (or the part) that lead to the offending value. */
  readonly field?: ReadonlyArray<string | number> | undefined;
}

/**
 * The `invalid-ui-message` error for a problem at `location`. Its `path` is
 * `[index, 'parts', part, ...field]` (or `[index, ...field]` for the message itself), and its
 * message names the message index and the part.
 *
 * @param reason - what is wrong, as a sentence fragment
 * @param location - where (undefined when the problem is the list itself)
 * @param extra - the offending value and the underlying error
 */
export function invalidUIMessage(
  reason: string,
  location: UIMessageLocation | undefined,
  extra: { readonly value?: unknown; readonly cause?: unknown } = {},
): ChunklogError {
  if (location === undefined) {
    return new ChunklogError('invalid-ui-message', `UI messages: ${reason}`, {
      path: [],
      value: extra.value,
      cause: extra.cause,
    });
  }
  const field = location.field ?? [];
  const path =
    location.part === undefined
      ? [location.index, ...field]
      : [location.index, 'parts', location.part, ...field];
  const where =
    location.part === undefined
      ? `UI message ${location.index}`
      : `UI message ${location.index}, part ${location.part}${
          location.partType === undefined ? '' : ` (${location.partType})`
        }`;
  const at = field.length > 0 ? ` at ${fieldText(field)}` : '';
  return new ChunklogError('invalid-ui-message', `${where}${at}: ${reason}`, {
    path,
    value: extra.value,
    cause: extra.cause,
  });
}

/** `a.b.0.c`; a field of more than 24 keys (a value nested very deep) as its ends around `…`. */
function fieldText(field: ReadonlyArray<string | number>): string {
  if (field.length <= 24) return field.join('.');
  return `${field.slice(0, 8).join('.')}…(${field.length - 16} more)…${field.slice(-8).join('.')}`;
}
