import type { TurnState } from '../reducer/index.js';
import type { ChunkEvent } from '../schema/chunk-event.js';
import type { TurnRows } from './turn-rows.js';

let verify = false;

/**
 * Test hook: after every event, check the targeted row count against a full recount and throw on
 * a difference. Not part of the public API.
 *
 * @param on - whether to verify
 */
export function verifyRowCounts(on: boolean): void {
  verify = on;
}

/**
 * Counts the rows of every chunk a state holds, and re-indexes its tool calls. O(chunks held).
 *
 * @param rows - the turn's row cache
 * @param state - the state
 * @returns the row count
 */
export function countRows(rows: TurnRows, state: TurnState): number {
  rows.calls.clear();
  let count = 0;
  for (let i = 0; i < state.chunkCount; i++) {
    const chunk = state.chunkAt(i);
    count += rows.countOf(chunk);
    if (chunk !== undefined) rows.indexCalls(chunk, state.evicted + i);
  }
  return count;
}

function callIdOf(event: ChunkEvent): string | undefined {
  switch (event.type) {
    case 'tool-input-start':
    case 'tool-input-delta':
    case 'tool-call':
    case 'tool-progress':
    case 'tool-result':
      return event.toolCallId;
    default:
      return undefined;
  }
}

/**
 * The change in row count that one event made, looking only where the reducer can have changed
 * something: from the first open chunk (or the last chunk) to the end — open blocks, the closed
 * tail, appended chunks — and the tool batch holding the event's call. Chunks are compared by
 * identity (the reducer shares unchanged ones) and only changed ones are exploded. Undefined when
 * only a full recount can tell: a chunk was removed, or an approval (found by approval id).
 */
function targetedChange(
  rows: TurnRows,
  before: TurnState,
  after: TurnState,
  event: ChunkEvent,
): number | undefined {
  if (
    before.evicted !== after.evicted ||
    after.chunkCount < before.chunkCount ||
    event.type === 'tool-approval-request' ||
    event.type === 'tool-approval-response'
  ) {
    return undefined;
  }
  const last = before.chunkCount - 1;
  const from = Math.max(0, Math.min(before.openIndex ?? last, after.openIndex ?? last, last));
  let delta = 0;
  const compare = (i: number): void => {
    const a = before.chunkAt(i);
    const b = after.chunkAt(i);
    if (a === b) return;
    delta += rows.countOf(b) - rows.countOf(a);
    if (b !== undefined) rows.indexCalls(b, after.evicted + i);
  };
  for (let i = from; i < after.chunkCount; i++) compare(i);
  const callId = callIdOf(event);
  // Every batch holding an entry of the call: its own entry, and deferred results of it in
  // later batches (an event updates the call's own entry, which may lie before `from`).
  const where = callId === undefined ? undefined : rows.calls.get(callId);
  if (where !== undefined) {
    for (const at of [...where]) {
      const i = at - after.evicted;
      if (i >= 0 && i < from) compare(i);
    }
  }
  return delta;
}

/** Recount every so many events at the least: a safety net, amortized O(1) per event. */
const RECOUNT_EVERY = 256;

/**
 * The row count of `after`, from the count of `before` and the event between them.
 *
 * @param rows - the turn's row cache
 * @param before - the state before the event
 * @param after - the state after it
 * @param event - the event
 * @param count - the row count of `before`
 * @param sinceRecount - events since the last full recount
 * @returns the new count and the events since the last full recount
 */
export function nextRowCount(
  rows: TurnRows,
  before: TurnState,
  after: TurnState,
  event: ChunkEvent,
  count: number,
  sinceRecount: number,
): { readonly count: number; readonly sinceRecount: number } {
  const delta = targetedChange(rows, before, after, event);
  const due = sinceRecount + 1 >= Math.max(RECOUNT_EVERY, after.chunkCount);
  if (delta !== undefined && !due && !verify)
    return { count: count + delta, sinceRecount: sinceRecount + 1 };
  const full = countRows(rows, after);
  if (verify && delta !== undefined && count + delta !== full) {
    throw new Error(
      `row count drifted after ${event.type}: targeted ${count + delta}, recounted ${full}`,
    );
  }
  return { count: full, sinceRecount: 0 };
}
