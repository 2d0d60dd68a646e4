import type { Chunk, ToolCallEntry } from '../schema/index.js';

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** The fields of an entry that say what happened to the call (a deferred result holds them). */
const OUTCOME_FIELDS = ['result', 'isError', 'denied', 'resultProviderMetadata'] as const;

/**
 * The chunks of one message with each deferred result's outcome copied onto its call, so that the
 * call's tool part shows it (as `useChat` does: a tool part holds its own output). The deferred
 * entries stay: they become the markers of where the results arrived. A deferred result whose
 * call is not in the message is left as it is.
 *
 * @param chunks - the chunks of one message
 * @returns the same list when it holds no deferred result with its call
 */
export function withDeferredOutcomes(chunks: readonly Chunk[]): readonly Chunk[] {
  const deferred = new Map<string, ToolCallEntry>();
  const calls = new Set<string>();
  for (const chunk of chunks) {
    if (chunk.type !== 'tool-batch') continue;
    for (const entry of chunk.calls) {
      if (entry.deferred === true) deferred.set(entry.id, entry);
      else calls.add(entry.id);
    }
  }
  if (deferred.size === 0) return chunks;
  return chunks.map((chunk) => {
    if (chunk.type !== 'tool-batch') return chunk;
    return {
      ...chunk,
      calls: chunk.calls.map((entry) => {
        if (entry.deferred === true) return calls.has(entry.id) ? entry : withoutFlag(entry);
        const outcome = deferred.get(entry.id);
        return outcome === undefined ? entry : withOutcome(entry, outcome);
      }),
    };
  });
}

function withOutcome(call: ToolCallEntry, outcome: ToolCallEntry): ToolCallEntry {
  const merged: Mutable<ToolCallEntry> = { ...call };
  for (const field of OUTCOME_FIELDS) {
    if (outcome[field] !== undefined) merged[field] = outcome[field] as never;
  }
  return merged;
}

/** A deferred result whose call is elsewhere: shown as a tool part of its own, like an orphan. */
function withoutFlag(entry: ToolCallEntry): ToolCallEntry {
  const { deferred: _deferred, ...rest } = entry;
  return { ...rest, orphan: true };
}

/**
 * Moves a call's outcome to a deferred result entry (the inverse of {@link withDeferredOutcomes}
 * for one call): the call keeps everything else.
 *
 * @param call - the call entry, changed in place
 * @returns the deferred result entry
 */
export function takeDeferredOutcome(call: Mutable<ToolCallEntry>): ToolCallEntry {
  const entry: Mutable<ToolCallEntry> = { id: call.id, name: call.name, deferred: true };
  for (const field of OUTCOME_FIELDS) {
    if (call[field] !== undefined) entry[field] = call[field] as never;
    delete call[field];
  }
  return entry;
}
