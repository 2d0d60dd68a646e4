import type { ZodType } from 'zod';
import type { ZodMiniType } from 'zod/mini';
import type { $ZodError } from 'zod/v4/core';
import {
  ChunklogError,
  type ChunklogErrorCode,
  type SafeResult,
} from '../errors/chunklog-error.js';
import { type ChatMessage, chatMessageMini } from './chat-message.js';
import type { Chunk } from './chunk.js';
import { type ChunkEvent, chunkEventMini } from './chunk-event.js';
import { type ChunkRow, type ChunkRowDraft, chunkRowDraftMini, chunkRowMini } from './chunk-row.js';
import { chunkMini } from './chunk-schemas.js';
import { PARSE_CONTEXT } from './issue-messages.js';

/**
 * A zod 4 schema: classic (`zod`, as chunklog's public `…Schema` exports are) or `zod/mini` (what
 * chunklog validates with inside, so that a browser bundle carries no classic zod).
 *
 * @example
 * ```ts
 * const schema: AnyZodSchema<TokenUsage> = TokenUsageSchema;
 * ```
 */
export type AnyZodSchema<T = unknown> = ZodType<T> | ZodMiniType<T>;

/**
 * Shortens a value for an error message. Never throws, whatever the value: a BigInt prints as
 * `10n`, a cycle as `[Circular]`, and a value JSON cannot print (a null-prototype object without
 * `toString`, a throwing getter) falls back to its tag (`[object Object]`).
 */
export function previewValue(value: unknown, max = 80): string {
  let text: string;
  try {
    text =
      typeof value === 'bigint'
        ? `${value}n`
        : (JSON.stringify(value, printableReplacer()) ?? safeString(value));
  } catch {
    text = safeString(value);
  }
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/**
 * How deep a preview prints: deeper arrays and objects cannot show in its 80 characters anyway,
 * and a value nested thousands deep would make `JSON.stringify` run out of stack.
 */
const PREVIEW_DEPTH = 80;

/**
 * A JSON.stringify replacer that prints BigInts, marks cycles and cuts what is nested deeper
 * than {@link PREVIEW_DEPTH}, instead of throwing.
 */
function printableReplacer(): (this: unknown, key: string, value: unknown) => unknown {
  const ancestors: unknown[] = [];
  return function replace(this: unknown, _key: string, value: unknown): unknown {
    if (typeof value === 'bigint') return `${value}n`;
    if (typeof value !== 'object' || value === null) return value;
    // `this` is the object holding `value`: drop the ancestors that are not on its path.
    while (ancestors.length > 0 && ancestors[ancestors.length - 1] !== this) ancestors.pop();
    if (ancestors.includes(value)) return '[Circular]';
    if (ancestors.length >= PREVIEW_DEPTH) return '…';
    ancestors.push(value);
    return value;
  };
}

/** String(value), or its tag when String() throws (a null-prototype object), never throwing. */
function safeString(value: unknown): string {
  try {
    return String(value);
  } catch {
    try {
      return Object.prototype.toString.call(value);
    } catch {
      return '(a value that cannot be printed)';
    }
  }
}

/** The longest path a message prints whole; a longer one (a value nested very deep) is cut. */
const PATH_SHOWN = 24;

/** Formats a path as `a.b[2].c`; one of more than 24 keys as its first and last 8 around `…`. */
export function formatPath(path: ReadonlyArray<PropertyKey>): string {
  if (path.length > PATH_SHOWN) {
    const head = formatPath(path.slice(0, 8));
    const tail = formatPath(['', ...path.slice(-8)]);
    return `${head}…(${path.length - 16} more)…${tail}`;
  }
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out === '' ? String(key) : `.${String(key)}`;
  }
  return out === '' ? '(root)' : out;
}

function valueAt(root: unknown, path: ReadonlyArray<PropertyKey>): unknown {
  let current: unknown = root;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

/** The first problem zod found in a value: where, what, and the offending value. */
export interface SchemaIssue {
  readonly path: ReadonlyArray<string | number>;
  readonly message: string;
  readonly value: unknown;
  readonly cause: unknown;
}

/**
 * The first problem `schema` finds in `value`, or undefined when it matches.
 *
 * @param schema - a zod schema (classic or `zod/mini`)
 * @param value - the untrusted value
 * @returns the first issue (its path, message, offending value and the zod error)
 */
export function firstIssue(schema: AnyZodSchema, value: unknown): SchemaIssue | undefined {
  const result = schema.safeParse(value, PARSE_CONTEXT);
  return result.success ? undefined : issueOf(result.error, value);
}

function issueOf(error: $ZodError, value: unknown): SchemaIssue {
  const issue = error.issues[0];
  const path = (issue?.path ?? []).filter((k): k is string | number => typeof k !== 'symbol');
  return {
    path,
    message: issue?.message ?? 'invalid input',
    value: valueAt(value, path),
    cause: error,
  };
}

/**
 * Validates `value` against `schema`, returning a {@link ChunklogError} that names the first
 * offending path and value instead of throwing.
 *
 * @param schema - a zod schema (classic or `zod/mini`)
 * @param value - the untrusted value
 * @param code - the error code to use on failure
 * @param what - what the value is, for the message (for example `'chunk event'`)
 * @returns the parsed value or the error
 *
 * @example
 * ```ts
 * const result = safeParseWith(ChunkSchema, value, 'invalid-chunk', 'chunk');
 * if (!result.success) console.warn(result.error.message);
 * ```
 */
export function safeParseWith<T>(
  schema: AnyZodSchema<T>,
  value: unknown,
  code: ChunklogErrorCode,
  what: string,
): SafeResult<T> {
  const result = schema.safeParse(value, PARSE_CONTEXT);
  if (result.success) return { success: true, value: result.data };
  const issue = issueOf(result.error, value);
  const message = `Invalid ${what} at ${formatPath(issue.path)}: ${issue.message} (got ${previewValue(issue.value)})`;
  return {
    success: false,
    error: new ChunklogError(code, message, {
      path: issue.path,
      value: issue.value,
      cause: result.error,
    }),
  };
}

/**
 * Like {@link safeParseWith}, but throws the error.
 *
 * @param schema - a zod schema (classic or `zod/mini`)
 * @param value - the untrusted value
 * @param code - the error code to use on failure
 * @param what - what the value is, for the message
 * @returns the parsed value
 * @throws {ChunklogError} with the given code when `value` does not match
 *
 * @example
 * ```ts
 * const usage = parseWith(TokenUsageSchema, body.usage, 'invalid-option', 'usage');
 * ```
 */
export function parseWith<T>(
  schema: AnyZodSchema<T>,
  value: unknown,
  code: ChunklogErrorCode,
  what: string,
): T {
  const result = safeParseWith(schema, value, code, what);
  if (!result.success) throw result.error;
  return result.value;
}

/**
 * Validates a wire event (for example one received over a WebSocket or SSE).
 *
 * @param value - the untrusted value
 * @returns the event
 * @throws {ChunklogError} `invalid-event`, naming the offending path and value
 *
 * @example
 * ```ts
 * const event = parseChunkEvent(JSON.parse(message.data));
 * ```
 */
export function parseChunkEvent(value: unknown): ChunkEvent {
  if (isExactDelta(value)) return value;
  return parseWith(chunkEventMini, value, 'invalid-event', 'chunk event');
}

const DELTA_TYPES: ReadonlySet<unknown> = new Set(['text-delta', 'reasoning-delta']);

/**
 * Whether `value` is a text or reasoning delta exactly as the schema accepts it (a plain object
 * with a string `text`, a string `id` or none, nothing else), which is then the parsed event
 * unchanged: the most common event, checked by hand. Anything else goes to zod, which decides
 * and words the error.
 */
function isExactDelta(value: unknown): value is ChunkEvent {
  if (
    typeof value !== 'object' ||
    value === null ||
    Object.getPrototypeOf(value) !== Object.prototype
  ) {
    return false;
  }
  const event = value as Record<string, unknown>;
  if (!DELTA_TYPES.has(event.type) || typeof event.text !== 'string') return false;
  let keys = 0;
  for (const key in event) {
    if (!Object.hasOwn(event, key)) return false;
    keys++;
  }
  if (keys === 2) return true;
  return keys === 3 && typeof event.id === 'string';
}

/**
 * Validates a wire event without throwing.
 *
 * @param value - the untrusted value
 * @returns the event, or the `invalid-event` error
 *
 * @example
 * ```ts
 * const result = safeParseChunkEvent(JSON.parse(message.data));
 * if (result.success) state = reduceTurn(state, result.value);
 * else console.warn(result.error.message);
 * ```
 */
export function safeParseChunkEvent(value: unknown): SafeResult<ChunkEvent> {
  return safeParseWith(chunkEventMini, value, 'invalid-event', 'chunk event');
}

/**
 * Validates a chunk.
 *
 * @param value - the untrusted value
 * @returns the chunk
 * @throws {ChunklogError} `invalid-chunk`, naming the offending path and value
 *
 * @example
 * ```ts
 * const chunk = parseChunk({ type: 'text', step: 0, text: 'Hi' });
 * ```
 */
export function parseChunk(value: unknown): Chunk {
  return parseWith(chunkMini, value, 'invalid-chunk', 'chunk');
}

/**
 * Validates a row draft (before it is stored).
 *
 * @param value - the untrusted value
 * @returns the draft
 * @throws {ChunklogError} `invalid-row`, naming the offending path and value
 *
 * @example
 * ```ts
 * const draft = parseChunkRowDraft({ turnId: 't1', step: 0, role: 'user', type: 'text', data: { text: 'Hi' } });
 * ```
 */
export function parseChunkRowDraft(value: unknown): ChunkRowDraft {
  return parseWith(chunkRowDraftMini, value, 'invalid-row', 'chunk row draft');
}

/**
 * Validates a stored row (for example one read back from a database or an HTTP page).
 *
 * @param value - the untrusted value
 * @returns the row
 * @throws {ChunklogError} `invalid-row`, naming the offending path and value
 *
 * @example
 * ```ts
 * const rows = (await response.json()).chunks.map(parseChunkRow);
 * ```
 */
export function parseChunkRow(value: unknown): ChunkRow {
  return parseWith(chunkRowMini, value, 'invalid-row', 'chunk row');
}

/**
 * Validates a chat message.
 *
 * @param value - the untrusted value
 * @returns the message
 * @throws {ChunklogError} `invalid-message`, naming the offending path and value
 *
 * @example
 * ```ts
 * const messages = JSON.parse(saved).map(parseChatMessage);
 * ```
 */
export function parseChatMessage(value: unknown): ChatMessage {
  return parseWith(chatMessageMini, value, 'invalid-message', 'chat message');
}
