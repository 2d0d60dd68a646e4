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
  return JSON.stringify(value)?.length ?? 0;
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
