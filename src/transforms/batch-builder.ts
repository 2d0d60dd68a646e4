import type { ToolCallEntry } from '../schema/chunk.js';
import type { ToolCallRowData, ToolResultRowData } from '../schema/chunk-row.js';

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** A tool-batch chunk being rebuilt: its calls array fills up as rows arrive. */
export interface BatchBuilder {
  readonly chunk: {
    readonly type: 'tool-batch';
    readonly step: number;
    readonly calls: Mutable<ToolCallEntry>[];
  };
  /** `data.index` of the last call row that joined, -1 when only orphan results did. */
  lastIndex: number;
  /** Per call: whether a result row has been merged into it (or it is a placeholder). */
  readonly answered: boolean[];
  /** Whether the batch holds deferred results (kept where they arrived) rather than calls. */
  readonly deferred: boolean;
}

/** An empty batch of step `step`. */
export function createBatch(step: number, deferred = false): BatchBuilder {
  return {
    chunk: { type: 'tool-batch', step, calls: [] },
    lastIndex: -1,
    answered: [],
    deferred,
  };
}

function callEntry(data: ToolCallRowData): Mutable<ToolCallEntry> {
  const { index: _index, ...entry } = data;
  return entry;
}

function mergeResult(entry: Mutable<ToolCallEntry>, data: ToolResultRowData): void {
  if (data.result !== undefined) entry.result = data.result;
  if (data.isError !== undefined) entry.isError = data.isError;
  if (data.denied !== undefined) entry.denied = data.denied;
  if (data.progress !== undefined) entry.progress = data.progress;
  if (data.preliminary !== undefined) entry.preliminary = data.preliminary;
  if (data.resultProviderMetadata !== undefined)
    entry.resultProviderMetadata = data.resultProviderMetadata;
  if (data.deferred === true) entry.deferred = true;
}

/** Merges a result into the batch's first unanswered call of its id; false when there is none. */
export function answer(batch: BatchBuilder, data: ToolResultRowData): boolean {
  const { calls } = batch.chunk;
  for (let i = 0; i < calls.length; i++) {
    const entry = calls[i] as Mutable<ToolCallEntry>;
    if (entry.id === data.callId && batch.answered[i] === false) {
      batch.answered[i] = true;
      mergeResult(entry, data);
      return true;
    }
  }
  return false;
}

/** Appends the call of a `tool_call` row. */
export function addCall(batch: BatchBuilder, data: ToolCallRowData): void {
  batch.chunk.calls.push(callEntry(data));
  batch.answered.push(false);
  batch.lastIndex = data.index;
}

/** Appends a deferred result (`deferred: true`): it stays where it arrived, apart from its call. */
export function addDeferred(batch: BatchBuilder, data: ToolResultRowData): void {
  const entry: Mutable<ToolCallEntry> = { id: data.callId, name: data.name };
  mergeResult(entry, data);
  batch.chunk.calls.push(entry);
  batch.answered.push(true);
}

/** Appends a placeholder for a result whose call row is absent (`orphan: true`). */
export function addPlaceholder(batch: BatchBuilder, data: ToolResultRowData): void {
  const entry: Mutable<ToolCallEntry> = { id: data.callId, name: data.name, orphan: true };
  mergeResult(entry, data);
  batch.chunk.calls.push(entry);
  batch.answered.push(true);
}
