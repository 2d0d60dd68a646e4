import type { ZodType } from 'zod';
import * as z from 'zod/mini';
import { classicView } from './classic-view.js';

/**
 * Token counts of a step or a turn, flattened from the AI SDK's `LanguageModelUsage`. Every
 * field is optional: providers report different subsets.
 */
export interface TokenUsage {
  readonly inputTokens?: number | undefined;
  readonly outputTokens?: number | undefined;
  readonly totalTokens?: number | undefined;
  /** Output tokens spent on reasoning. */
  readonly reasoningTokens?: number | undefined;
  /** Input tokens read from the provider's prompt cache. */
  readonly cacheReadTokens?: number | undefined;
  /** Input tokens written to the provider's prompt cache. */
  readonly cacheWriteTokens?: number | undefined;
}

/** The keys of {@link TokenUsage}, in a fixed order. Internal: one list for every walk over them. */
export const TOKEN_USAGE_KEYS: readonly (keyof TokenUsage)[] = [
  'inputTokens',
  'outputTokens',
  'totalTokens',
  'reasoningTokens',
  'cacheReadTokens',
  'cacheWriteTokens',
];

/**
 * Sums usages key by key; a key that no usage has stays absent. Internal.
 *
 * @param usages - the usages to add up
 * @returns their sum
 */
export function sumUsage(usages: Iterable<TokenUsage>): TokenUsage {
  const out: { -readonly [K in keyof TokenUsage]: number } = {};
  for (const usage of usages) {
    for (const key of TOKEN_USAGE_KEYS) {
      const value = usage[key];
      if (value !== undefined) out[key] = (out[key] ?? 0) + value;
    }
  }
  return out;
}

const count = z.optional(z.number().check(z.nonnegative()));

/** The `zod/mini` schema of {@link TokenUsage}. */
export const tokenUsageMini: z.ZodMiniType<TokenUsage> = z.object({
  inputTokens: count,
  outputTokens: count,
  totalTokens: count,
  reasoningTokens: count,
  cacheReadTokens: count,
  cacheWriteTokens: count,
});

/** Zod schema of {@link TokenUsage}. */
export const TokenUsageSchema: ZodType<TokenUsage> = /* @__PURE__ */ classicView(tokenUsageMini);

/** The finish reasons the AI SDK itself gives (its `FinishReason`). */
export type AiSdkFinishReason =
  | 'stop'
  | 'length'
  | 'content-filter'
  | 'tool-calls'
  | 'error'
  | 'interrupted'
  | 'other';

/** Every {@link AiSdkFinishReason}, in a fixed order. Internal: one list for every check. */
export const AI_SDK_FINISH_REASONS: readonly AiSdkFinishReason[] = [
  'stop',
  'length',
  'content-filter',
  'tool-calls',
  'error',
  'interrupted',
  'other',
];

/**
 * Why a step or a turn finished. The AI SDK's values are `stop`, `length`, `content-filter`,
 * `tool-calls`, `error`, `interrupted` and `other`; any other string is kept as it came so that
 * a newer SDK's value is not lost.
 */
export type FinishReason = AiSdkFinishReason | (string & {});

/** The `zod/mini` schema of a {@link FinishReason}. */
export const finishReasonMini: z.ZodMiniType<FinishReason> = z.string();

/** Zod schema of a {@link FinishReason}. */
export const FinishReasonSchema: ZodType<FinishReason> =
  /* @__PURE__ */ classicView(finishReasonMini);
