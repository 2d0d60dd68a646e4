import type { ChatMessage } from '../schema/chat-message.js';
import type { ToolCallEntry } from '../schema/chunk.js';
import { hasOutcome } from './tool-parts.js';

/**
 * Results that arrived in another turn than their call (a result delivered after an approval in
 * the next run, or an orphan placeholder of a page): call id → the entry holding the outcome.
 */
export function lateOutcomes(messages: readonly ChatMessage[]): Map<string, ToolCallEntry> {
  const late = new Map<string, ToolCallEntry>();
  for (const message of messages) {
    if (message.role === 'system') continue;
    for (const chunk of message.chunks) {
      if (chunk.type !== 'tool-batch') continue;
      for (const entry of chunk.calls) {
        if (entry.orphan === true && hasOutcome(entry) && !late.has(entry.id))
          late.set(entry.id, entry);
      }
    }
  }
  return late;
}

/** The call, with the result, error or denial (and the result's metadata) that arrived for it elsewhere. */
export function withLateOutcome(call: ToolCallEntry, late: ToolCallEntry): ToolCallEntry {
  const { result: _r, isError: _e, denied: _d, resultProviderMetadata: _m, ...rest } = call;
  const merged: { -readonly [K in keyof ToolCallEntry]: ToolCallEntry[K] } = { ...rest };
  if (late.result !== undefined) merged.result = late.result;
  if (late.isError !== undefined) merged.isError = late.isError;
  if (late.denied !== undefined) merged.denied = late.denied;
  if (late.resultProviderMetadata !== undefined)
    merged.resultProviderMetadata = late.resultProviderMetadata;
  return merged;
}
