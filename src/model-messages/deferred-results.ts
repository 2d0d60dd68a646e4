import type { ChatMessage } from '../schema/chat-message.js';
import type { Chunk } from '../schema/chunk.js';

/**
 * The ids of calls whose result is a deferred result (`deferred: true`): it arrived apart from
 * its call and goes back where it arrived, so the call itself is sent without one.
 */
export function deferredResultIds(messages: readonly ChatMessage[]): Set<string> {
  const ids = new Set<string>();
  for (const message of messages) {
    if (message.role !== 'assistant') continue;
    for (const chunk of message.chunks) {
      if (chunk.type !== 'tool-batch') continue;
      for (const entry of chunk.calls) if (entry.deferred === true) ids.add(entry.id);
    }
  }
  return ids;
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
