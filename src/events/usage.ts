import type { LanguageModelUsage } from 'ai';
import type { TokenUsage } from '../schema/usage.js';

/**
 * Flattens the AI SDK's `LanguageModelUsage` to {@link TokenUsage}, keeping only the counts the
 * provider reported.
 *
 * @param usage - `usage` of a `finish-step` part or `totalUsage` of a `finish` part
 * @returns the flattened usage, or undefined when the provider reported no count
 */
export function flattenUsage(usage: LanguageModelUsage | undefined): TokenUsage | undefined {
  if (usage == null) return undefined;
  const counts: Record<keyof TokenUsage, number | undefined> = {
    inputTokens: usage.inputTokens,
    outputTokens: usage.outputTokens,
    totalTokens: usage.totalTokens,
    reasoningTokens: usage.outputTokenDetails?.reasoningTokens,
    cacheReadTokens: usage.inputTokenDetails?.cacheReadTokens,
    cacheWriteTokens: usage.inputTokenDetails?.cacheWriteTokens,
  };
  const out: { -readonly [K in keyof TokenUsage]: number } = {};
  let any = false;
  for (const key of Object.keys(counts) as Array<keyof TokenUsage>) {
    const value = counts[key];
    if (typeof value === 'number' && Number.isFinite(value) && value >= 0) {
      out[key] = value + 0; // -0 would not survive JSON
      any = true;
    }
  }
  return any ? out : undefined;
}
