import type { ChatMessage } from '../schema/chat-message.js';
import type { Chunk, ToolCallEntry } from '../schema/chunk.js';
import { hasOutcome } from './tool-parts.js';

/** Where each deferred result goes back, found by {@link deferredResults}. */
export interface DeferredResults {
  /** Provider-executed calls whose result arrived after them, apart: sent alone, the result where it came. */
  readonly providerCalls: ReadonlySet<ToolCallEntry>;
  /**
   * Local calls whose result arrived after them, apart (a stream the AI SDK's own loop never
   * makes: it runs a local call in the call's step). A provider wants a local call's result right
   * after the call, so the result goes back with its call and is skipped where it arrived.
   */
  readonly localOutcomes: ReadonlyMap<ToolCallEntry, ToolCallEntry>;
}

/**
 * Pairs each deferred result (`deferred: true`) with the latest call of its id before it. A
 * deferred result with no call before it (an orphan, or an id a later call reuses) pairs with
 * nothing: a later call of that id still needs a result of its own.
 */
export function deferredResults(messages: readonly ChatMessage[]): DeferredResults {
  const lastCall = new Map<string, ToolCallEntry>();
  const providerCalls = new Set<ToolCallEntry>();
  const localOutcomes = new Map<ToolCallEntry, ToolCallEntry>();
  for (const message of messages) {
    if (message.role !== 'assistant') continue;
    for (const chunk of message.chunks) {
      if (chunk.type !== 'tool-batch') continue;
      for (const entry of chunk.calls) {
        if (entry.deferred === true) {
          const call = lastCall.get(entry.id);
          if (call === undefined || hasOutcome(call)) continue;
          if (call.providerExecuted === true) providerCalls.add(call);
          else if (!localOutcomes.has(call)) localOutcomes.set(call, entry);
        } else if (entry.orphan !== true && entry.input !== undefined) {
          lastCall.set(entry.id, entry);
        }
      }
    }
  }
  return { providerCalls, localOutcomes };
}

/** System kinds that say a turn stopped in the middle of a step. */
const CUT_SHORT_KINDS: ReadonlySet<string> = new Set(['cancelled', 'interrupted']);

/**
 * The steps of an assistant message that were cut short (cancelled or interrupted): the AI SDK
 * never sent such a step's content back, so a provider-executed call left without a result there
 * is not sent either.
 */
export function cutShortSteps(chunks: readonly Chunk[]): Set<number> {
  const steps = new Set<number>();
  for (const chunk of chunks) {
    if (chunk.type === 'system' && CUT_SHORT_KINDS.has(chunk.kind)) steps.add(chunk.step);
  }
  return steps;
}
