import type { ChatMessage } from '../schema/chat-message.js';
import type { ThinkingChunk } from '../schema/chunk.js';
import type { ReasoningPart } from './ai-types.js';
import type { ResolvedOptions } from './options.js';

/** Where a chunk is: message index, chunk index. */
export type ChunkPosition = readonly [message: number, chunk: number];

/**
 * The position of the last `model-changed` system chunk of the thread (in any message, system
 * messages included), or undefined when the model never changed.
 */
export function lastModelChange(messages: readonly ChatMessage[]): ChunkPosition | undefined {
  for (let m = messages.length - 1; m >= 0; m--) {
    const chunks = (messages[m] as ChatMessage).chunks;
    for (let c = chunks.length - 1; c >= 0; c--) {
      const chunk = chunks[c];
      if (chunk?.type === 'system' && chunk.kind === 'model-changed') return [m, c];
    }
  }
  return undefined;
}

function before(a: ChunkPosition, b: ChunkPosition): boolean {
  return a[0] < b[0] || (a[0] === b[0] && a[1] < b[1]);
}

/** A release date at the end of a model id: `-2025-08-07` (OpenAI), `-20250929` (Anthropic). */
const RELEASE_SUFFIX = /-(?:\d{4}-\d{2}-\d{2}|\d{8}|latest)$/;

/**
 * Whether reasoning recorded for `recorded` is the target model's: the same id, or the same
 * once a release-date suffix is taken off either. A provider answers a request for an alias
 * (`gpt-5-nano`, `claude-sonnet-4-5`) with the dated snapshot it ran (`gpt-5-nano-2025-08-07`),
 * and that is what the stream records.
 */
export function isSameModel(recorded: string, target: string): boolean {
  return (
    recorded === target ||
    recorded.replace(RELEASE_SUFFIX, '') === target.replace(RELEASE_SUFFIX, '')
  );
}

/**
 * The reasoning part a thinking chunk becomes, or undefined when it is left out. Reasoning of
 * another model (recorded `modelId` not `targetModelId` by {@link isSameModel}, or anywhere before
 * the last model change)
 * is omitted or sent without its provider metadata, as `foreignReasoning` says.
 */
export function reasoningPart(
  chunk: ThinkingChunk,
  at: ChunkPosition,
  change: ChunkPosition | undefined,
  options: ResolvedOptions,
): ReasoningPart | undefined {
  const foreign =
    (change !== undefined && before(at, change)) ||
    (options.targetModelId !== undefined &&
      chunk.modelId !== undefined &&
      !isSameModel(chunk.modelId, options.targetModelId));
  if (!foreign) {
    return chunk.providerMetadata === undefined
      ? { type: 'reasoning', text: chunk.text }
      : { type: 'reasoning', text: chunk.text, providerOptions: chunk.providerMetadata };
  }
  if (options.foreignReasoning === 'omit' || chunk.text === '') return undefined;
  return { type: 'reasoning', text: chunk.text };
}
