// What the inspector shows about a thread and a turn beyond its rows: the thread's title and
// owner, a turn's status and its usage per step, as the store holds them. A fact the store does
// not hold returns undefined, and the pages show "—".
import type { ChunkRow } from '../schema/chunk-row.js';
import type { TokenUsage } from '../schema/usage.js';
import type { TurnInfo } from '../store/turn-types.js';
import type { Thread } from '../store/types.js';
import type { TurnUsage } from '../store/usage-types.js';

/** The thread's title: its `title`, else `metadata.title` when it is a string (0.1.0 threads). */
export function threadTitle(thread: Thread): string | undefined {
  const title = thread.title ?? thread.metadata?.title;
  return typeof title === 'string' ? title : undefined;
}

/** The thread's owner: its `ownerId`, else `metadata.owner` or `metadata.userId` (0.1.0 threads). */
export function threadOwner(thread: Thread): string | undefined {
  const owner = thread.ownerId ?? thread.metadata?.owner ?? thread.metadata?.userId;
  return typeof owner === 'string' ? owner : undefined;
}

/**
 * The turn's status (`running`, `completed`, `failed`, `cancelled`, `interrupted`): the one the
 * store recorded, else what its rows tell (a turn sealed before migration 0002 has no status row,
 * and reads as completed).
 */
export function turnStatus(rows: readonly ChunkRow[], info?: TurnInfo): string | undefined {
  if (info !== undefined && info.status !== 'completed') return info.status;
  if (rows.some((row) => row.type === 'system' && row.data.kind === 'cancelled'))
    return 'cancelled';
  if (rows.some((row) => row.type === 'error')) return 'failed';
  return info?.status;
}

/** When the turn was stored (its rows' `createdAt`), as the store holds it. */
export function turnTimes(rows: readonly ChunkRow[]): {
  first?: string | undefined;
  last?: string | undefined;
} {
  const times = rows.map((row) => row.createdAt).filter((t): t is string => t !== undefined);
  return { first: times[0], last: times.at(-1) };
}

const count = new Intl.NumberFormat('en-US');

/** Token counts in a line: `in 1,200 (cached 1,000) · out 40 (reasoning 12)`. */
export function usageText(usage: TokenUsage): string | undefined {
  const parts: string[] = [];
  if (usage.inputTokens !== undefined) {
    const cached = usage.cacheReadTokens ? ` (cached ${count.format(usage.cacheReadTokens)})` : '';
    parts.push(`in ${count.format(usage.inputTokens)}${cached}`);
  }
  if (usage.outputTokens !== undefined) {
    const reasoning = usage.reasoningTokens
      ? ` (reasoning ${count.format(usage.reasoningTokens)})`
      : '';
    parts.push(`out ${count.format(usage.outputTokens)}${reasoning}`);
  }
  return parts.length === 0 ? undefined : parts.join(' · ');
}

/** One step's usage, model and duration as the store recorded them: `in 1,200 · out 40 · 1.2 s`. */
export function stepUsage(usage: TurnUsage | undefined, step: number): string | undefined {
  const recorded = usage?.steps.find((s) => s.step === step);
  if (recorded === undefined) return undefined;
  const parts = [usageText(recorded.usage), recorded.modelId];
  if (recorded.durationMs !== undefined) parts.push(`${(recorded.durationMs / 1000).toFixed(1)} s`);
  return parts.filter((p): p is string => p !== undefined && p !== '').join(' · ') || undefined;
}
