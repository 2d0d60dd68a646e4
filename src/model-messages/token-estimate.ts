import type { ModelMessage } from 'ai';

/**
 * Counts the tokens of model input. Any tokenizer fits; chunklog's default is
 * {@link estimateTokens}.
 *
 * @example
 * ```ts
 * const count: TokenCounter = (messages) => JSON.stringify(messages).length / 4;
 * ```
 */
export type TokenCounter = (messages: readonly ModelMessage[]) => number;

/** Characters per token the default estimate assumes: fewer than real text has, so it overcounts. */
export const ESTIMATE_CHARS_PER_TOKEN = 3;
/** Tokens the default estimate adds per message (role and framing). */
export const ESTIMATE_TOKENS_PER_MESSAGE = 4;
/** Tokens the default estimate counts for an image or other file. */
export const ESTIMATE_TOKENS_PER_FILE = 1600;

function jsonLength(value: unknown): number {
  if (typeof value === 'string') return value.length;
  if (value === undefined) return 0;
  const length = jsonTextLength(value);
  return length >= 0 ? length : (JSON.stringify(value)?.length ?? 0);
}

/** The length of a string as JSON text: its quotes, and two or six characters per escape. */
function quotedLength(text: string): number {
  let length = text.length + 2;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x20 && c !== 0x22 && c !== 0x5c && (c < 0xd800 || c > 0xdfff)) continue;
    if (c === 0x22 || c === 0x5c || c === 0x08 || c === 0x09 || c === 0x0a || c === 0x0c) {
      length += 1;
    } else if (c === 0x0d) {
      length += 1;
    } else if (c < 0x20) {
      length += 5;
    } else if (c <= 0xdbff && i + 1 < text.length) {
      // A high surrogate: a pair is kept as is, a lone one is escaped.
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
      else length += 5;
    } else {
      length += 5;
    }
  }
  return length;
}

/**
 * `JSON.stringify(value).length` for plain JSON values (strings, finite numbers, booleans, null,
 * arrays, plain objects), without building the text; -1 for anything else (a `toJSON`, an
 * `undefined` member, a class instance), which the caller stringifies.
 */
function jsonTextLength(value: unknown, depth = 0): number {
  switch (typeof value) {
    case 'string':
      return quotedLength(value);
    case 'number':
      return Number.isFinite(value) ? String(value).length : 4;
    case 'boolean':
      return value ? 4 : 5;
    case 'object': {
      if (value === null) return 4;
      if (depth > 64) return -1;
      if (Array.isArray(value)) {
        let length = 2 + Math.max(0, value.length - 1);
        for (const item of value) {
          if (item === undefined || typeof item === 'function') {
            length += 4;
            continue;
          }
          const n = jsonTextLength(item, depth + 1);
          if (n < 0) return -1;
          length += n;
        }
        return length;
      }
      const proto = Object.getPrototypeOf(value);
      if ((proto !== Object.prototype && proto !== null) || 'toJSON' in value) return -1;
      let length = 2;
      let members = 0;
      for (const key in value) {
        if (!Object.hasOwn(value, key)) continue;
        const item = (value as Record<string, unknown>)[key];
        if (item === undefined) return -1;
        const n = jsonTextLength(item, depth + 1);
        if (n < 0) return -1;
        length += quotedLength(key) + 1 + n;
        members++;
      }
      return length + Math.max(0, members - 1);
    }
    default:
      return -1;
  }
}

function partChars(part: unknown): number {
  const p = part as Record<string, unknown>;
  switch (p.type) {
    case 'text':
    case 'reasoning':
      return typeof p.text === 'string' ? p.text.length : 0;
    case 'tool-call':
      return jsonLength(p.input) + jsonLength(p.toolName) + 20;
    case 'tool-result': {
      const output = p.output as { value?: unknown } | undefined;
      return jsonLength(output?.value) + 20;
    }
    case 'file':
    case 'image':
      return ESTIMATE_TOKENS_PER_FILE * ESTIMATE_CHARS_PER_TOKEN;
    default:
      return jsonLength(p);
  }
}

/**
 * A conservative token estimate of model input, without a tokenizer: the characters of text,
 * reasoning, tool inputs and results over {@link ESTIMATE_CHARS_PER_TOKEN} (real text averages
 * about four characters a token, so this overcounts), plus a few tokens per message and a flat
 * count per file. Provider metadata (signatures) is not counted. A session corrects it with the
 * usage the provider reported for the previous prompt.
 *
 * @param messages - model input
 * @returns the estimated tokens
 *
 * @example
 * ```ts
 * estimateTokens([{ role: 'user', content: 'Hello there' }]); // 4 + ceil(11 / 3) = 8
 * ```
 */
export function estimateTokens(messages: readonly ModelMessage[]): number {
  let chars = 0;
  for (const message of messages) {
    const content = (message as { content: unknown }).content;
    if (typeof content === 'string') chars += content.length;
    else if (Array.isArray(content)) for (const part of content) chars += partChars(part);
  }
  return (
    Math.ceil(chars / ESTIMATE_CHARS_PER_TOKEN) + ESTIMATE_TOKENS_PER_MESSAGE * messages.length
  );
}
