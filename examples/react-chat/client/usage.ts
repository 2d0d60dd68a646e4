import type { TokenUsage } from 'chunklog';

/** `1,234 in · 56 out tokens` (and the cached or reasoning part, when the provider says). */
export function formatUsage(usage: TokenUsage | undefined): string {
  if (usage === undefined) return '';
  const n = (value: number | undefined) => (value ?? 0).toLocaleString('en-US');
  let text = `${n(usage.inputTokens)} in · ${n(usage.outputTokens)} out tokens`;
  if (usage.reasoningTokens) text += ` (${n(usage.reasoningTokens)} reasoning)`;
  if (usage.cacheReadTokens) text += ` · ${n(usage.cacheReadTokens)} from cache`;
  return text;
}
