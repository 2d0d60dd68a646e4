// The model input a turn's step sent, rebuilt from the stored rows as a session rebuilds it: the
// thread's history before the turn, then the turn's rows that came before the step's output (the
// user's message, earlier steps with their tool results, steering and notices that joined before
// it), grouped (`groupRowsToMessages`), converted (`toModelMessages`, with the cut in force of a
// `context-truncated` sentinel applied) and given Anthropic cache breakpoints
// (`applyAnthropicCaching`). The system prompt and the tools are not in the store.
import type { ModelMessage } from 'ai';
import { applyAnthropicCaching } from '../model-messages/anthropic-caching.js';
import { toModelMessages } from '../model-messages/to-model-messages.js';
import type { ChunkRow } from '../schema/chunk-row.js';
import { groupRowsToMessages } from '../transforms/group-rows.js';
import type { InspectedStore } from './reads.js';

/** Rows of the thread before `firstSeq` (the history a turn was sent with), a page at a time. */
export async function historyBefore(
  store: InspectedStore,
  threadId: string,
  firstSeq: number,
): Promise<ChunkRow[]> {
  const rows: ChunkRow[] = [];
  let afterSeq = 0;
  while (afterSeq < firstSeq - 1) {
    const page = await store.getChunksAfter(threadId, {
      limit: Math.min(1000, firstSeq - 1 - afterSeq),
      afterSeq,
    });
    for (const row of page.chunks) if (row.seq < firstSeq) rows.push(row);
    if (!page.hasMore || page.newestSeq === null) break;
    afterSeq = page.newestSeq;
  }
  return rows;
}

const isOutput = (row: ChunkRow) =>
  (row.role === 'assistant' || row.role === 'tool') && row.type !== 'system';

/**
 * The turn's rows that step `step` was sent with: every row of an earlier step, and the rows of
 * this step stored before its first output (the user's message at step 0, a steering message, a
 * notice).
 */
export function rowsBeforeStep(turnRows: readonly ChunkRow[], step: number): ChunkRow[] {
  const firstOutput = turnRows.find((row) => row.step === step && isOutput(row))?.seq ?? Infinity;
  return turnRows.filter((row) => row.step < step || (row.step === step && row.seq < firstOutput));
}

/** The steps of a turn, from 0 to its last row's step. */
export function turnSteps(turnRows: readonly ChunkRow[]): number[] {
  const last = Math.max(0, ...turnRows.map((row) => row.step));
  return Array.from({ length: last + 1 }, (_, i) => i);
}

/**
 * The model input of one step, with Anthropic cache breakpoints.
 *
 * @param history - the thread's rows before the turn
 * @param turnRows - the turn's rows
 * @param step - the step
 * @param modelId - the model that answered the step (its usage), for reasoning replay
 * @returns the messages
 */
export function stepInput(
  history: readonly ChunkRow[],
  turnRows: readonly ChunkRow[],
  step: number,
  modelId?: string,
): ModelMessage[] {
  const messages = groupRowsToMessages([...history, ...rowsBeforeStep(turnRows, step)]);
  const input = toModelMessages(messages, {
    ...(modelId !== undefined ? { targetModelId: modelId } : {}),
    // A budget no input reaches: only the cut in force (the latest sentinel) applies.
    contextBudget: { maxTokens: Number.MAX_SAFE_INTEGER },
  });
  return applyAnthropicCaching(input);
}

/** The Anthropic cache marker on a message or a part, if any. */
export function cacheMarker(target: unknown): unknown {
  const options = (target as { providerOptions?: Record<string, Record<string, unknown>> })
    ?.providerOptions;
  return options?.anthropic?.cacheControl ?? options?.anthropic?.cache_control;
}

/** How many cache breakpoints the messages carry (messages and parts). */
export function countBreakpoints(messages: readonly ModelMessage[]): number {
  let n = 0;
  for (const message of messages) {
    if (cacheMarker(message) !== undefined) n++;
    if (Array.isArray(message.content)) {
      for (const part of message.content) if (cacheMarker(part) !== undefined) n++;
    }
  }
  return n;
}
