import type { Chunk, ToolBatchChunk, ToolCallEntry } from '../schema/chunk.js';
import type { TurnStateImpl } from './turn-state.js';

/** Where a tool call entry is: its batch's absolute index and its position in the batch. */
export interface EntryAt {
  readonly index: number;
  readonly position: number;
  readonly entry: ToolCallEntry;
}

/**
 * Finds the entry of a call anywhere in the turn's held chunks, searching from the end.
 *
 * @param d - the state
 * @param match - which entry
 * @returns where it is, or undefined
 */
export function findEntry(
  d: TurnStateImpl,
  match: (entry: ToolCallEntry) => boolean,
): EntryAt | undefined {
  for (let index = d.end() - 1; index >= d.evicted; index--) {
    const chunk = d.get(index) as Chunk;
    if (chunk.type !== 'tool-batch') continue;
    for (let position = chunk.calls.length - 1; position >= 0; position--) {
      const entry = chunk.calls[position] as ToolCallEntry;
      if (match(entry)) return { index, position, entry };
    }
  }
  return undefined;
}

/** The entry of call `id` (never a deferred result of it), searching from the end. */
export function findCall(d: TurnStateImpl, id: string): EntryAt | undefined {
  return findEntry(d, (entry) => entry.id === id && entry.deferred !== true);
}

/** Replaces an entry in its batch. */
export function replaceEntry(d: TurnStateImpl, at: EntryAt, entry: ToolCallEntry): void {
  if (entry === at.entry) return;
  const batch = d.get(at.index) as ToolBatchChunk;
  const calls = batch.calls.slice();
  calls[at.position] = entry;
  d.replace(at.index, { ...batch, calls });
}

/** Whether a batch holds deferred results (a batch holds either calls or deferred results). */
function holdsDeferred(batch: ToolBatchChunk): boolean {
  return batch.calls[batch.calls.length - 1]?.deferred === true;
}

/**
 * Adds an entry: to the last chunk when it is a tool batch of the current step of the same kind
 * (calls join calls, deferred results join deferred results), else to a new batch.
 *
 * @returns the absolute index of its batch
 */
export function addEntry(d: TurnStateImpl, entry: ToolCallEntry): number {
  const last = d.last();
  if (
    last !== undefined &&
    last.type === 'tool-batch' &&
    last.step === d.step &&
    holdsDeferred(last) === (entry.deferred === true)
  ) {
    const index = d.end() - 1;
    d.replace(index, { ...last, calls: [...last.calls, entry] });
    return index;
  }
  return d.append({ type: 'tool-batch', step: d.step, calls: [entry] });
}

/** The entry with `key` set to `value`, or without `key` when `value` is undefined. */
export function withField<K extends keyof ToolCallEntry>(
  entry: ToolCallEntry,
  key: K,
  value: ToolCallEntry[K],
): ToolCallEntry {
  if (value === undefined) {
    if (!Object.hasOwn(entry, key)) return entry;
    const { [key]: _dropped, ...rest } = entry;
    return rest as ToolCallEntry;
  }
  return entry[key] === value ? entry : { ...entry, [key]: value };
}
