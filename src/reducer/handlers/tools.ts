import type { ToolApproval, ToolBatchChunk, ToolCallEntry } from '../../schema/chunk.js';
import type { ChunkEventOf } from '../../schema/chunk-event.js';
import { mergeProviderMetadata } from '../metadata.js';
import { withoutOpen } from '../open-blocks.js';
import {
  addEntry,
  type EntryAt,
  findCall,
  findEntry,
  replaceEntry,
  withField,
} from '../tool-entries.js';
import type { TurnStateImpl } from '../turn-state.js';

/** Marks call `id` of the batch at `index` as streaming its input (its batch is open). */
function openCall(d: TurnStateImpl, id: string, index: number): void {
  if (!d.open.some((b) => b.kind === 'tool' && b.id === id)) {
    d.open = [...d.open, { kind: 'tool', id, index }];
  }
}

function closeCall(d: TurnStateImpl, id: string): void {
  const block = d.open.find((b) => b.kind === 'tool' && b.id === id);
  if (block !== undefined) d.open = withoutOpen(d.open, block);
}

/** The call part of an entry (name, flags, metadata) updated from a call event; no longer an orphan. */
function withCall(
  entry: ToolCallEntry,
  e: ChunkEventOf<'tool-input-start'> | ChunkEventOf<'tool-call'>,
): ToolCallEntry {
  let next = withField(entry, 'name', e.toolName);
  if (e.providerExecuted === true) next = withField(next, 'providerExecuted', true);
  if (e.dynamic === true) next = withField(next, 'dynamic', true);
  if (e.title !== undefined) next = withField(next, 'title', e.title);
  next = withField(
    next,
    'providerMetadata',
    mergeProviderMetadata(next.providerMetadata, e.providerMetadata),
  );
  return withField(next, 'orphan', undefined);
}

function callEntry(e: ChunkEventOf<'tool-input-start'> | ChunkEventOf<'tool-call'>): ToolCallEntry {
  return withCall({ id: e.toolCallId, name: e.toolName }, e);
}

/** An entry for a call id the turn has not seen called. */
function orphan(id: string, name = ''): ToolCallEntry {
  return { id, name, orphan: true };
}

/** `tool-input-start`: a call begins streaming its input; it joins the last batch of this step or opens one. */
export function toolInputStart(d: TurnStateImpl, e: ChunkEventOf<'tool-input-start'>): void {
  const at = findCall(d, e.toolCallId);
  if (at !== undefined) {
    replaceEntry(d, at, withCall(at.entry, e));
    if (at.entry.input === undefined) openCall(d, e.toolCallId, at.index);
    return;
  }
  openCall(d, e.toolCallId, addEntry(d, callEntry(e)));
}

/** `tool-input-delta`: appends to the call's `inputText` until its input is known. */
export function toolInputDelta(d: TurnStateImpl, e: ChunkEventOf<'tool-input-delta'>): void {
  const at = findCall(d, e.toolCallId);
  if (at === undefined) {
    openCall(d, e.toolCallId, addEntry(d, { id: e.toolCallId, name: '', inputText: e.delta }));
    return;
  }
  if (at.entry.input !== undefined) return;
  replaceEntry(d, at, { ...at.entry, inputText: (at.entry.inputText ?? '') + e.delta });
}

/** `tool-call`: the complete call; fills the entry its input streamed into, or joins/opens a batch. */
export function toolCall(d: TurnStateImpl, e: ChunkEventOf<'tool-call'>): void {
  closeCall(d, e.toolCallId);
  const at = findCall(d, e.toolCallId);
  if (at === undefined) {
    addEntry(d, { ...callEntry(e), input: e.input, ...(e.invalid === true && { invalid: true }) });
    return;
  }
  let next = withField(withCall(at.entry, e), 'inputText', undefined);
  next = { ...next, input: e.input };
  if (e.invalid === true) next = withField(next, 'invalid', true);
  replaceEntry(d, at, next);
}

/** Updates the entry of call `id` (found anywhere in the turn), or adds an orphan entry for it. */
function updateCall(
  d: TurnStateImpl,
  id: string,
  update: (entry: ToolCallEntry) => ToolCallEntry,
  name?: string,
): void {
  const at = findCall(d, id);
  if (at === undefined) addEntry(d, update(orphan(id, name)));
  else replaceEntry(d, at, update(at.entry));
}

/** `tool-progress`: progress text is appended, a preliminary output replaces the one before. */
export function toolProgress(d: TurnStateImpl, e: ChunkEventOf<'tool-progress'>): void {
  updateCall(d, e.toolCallId, (entry) => {
    let next = entry;
    if (e.text !== undefined) next = { ...next, progress: (next.progress ?? '') + e.text };
    if (e.output !== undefined) next = { ...next, preliminary: e.output };
    return next;
  });
}

/** The entry with the outcome of a `tool-result` event (and the result's own metadata). */
function withResult(entry: ToolCallEntry, e: ChunkEventOf<'tool-result'>): ToolCallEntry {
  let next: ToolCallEntry = { ...entry, result: e.output };
  next = withField(next, 'isError', e.isError === true ? true : undefined);
  next = withField(next, 'denied', e.denied === true ? true : undefined);
  if (next.name === '' && e.toolName !== undefined) next = withField(next, 'name', e.toolName);
  return withField(
    next,
    'resultProviderMetadata',
    mergeProviderMetadata(next.resultProviderMetadata, e.providerMetadata),
  );
}

/** Whether an entry already holds a result, an error or a denial. */
function hasOutcome(entry: ToolCallEntry): boolean {
  return entry.result !== undefined || entry.isError === true || entry.denied === true;
}

/**
 * Whether a result arriving now for the call at `at` arrives where its call is: in the call's
 * step and, for a provider-executed call (whose result goes back to the model in the assistant
 * message, in arrival order), right after the call with nothing in between.
 */
function arrivesAtCall(d: TurnStateImpl, at: EntryAt, providerExecuted: boolean): boolean {
  const batch = d.get(at.index) as ToolBatchChunk;
  if (batch.step !== d.step) return false;
  if (!providerExecuted) return true;
  return at.index === d.end() - 1 && at.position === batch.calls.length - 1;
}

/**
 * `tool-result`: sets the call's result (an error, a denial). Its provider metadata is the
 * result's own (`resultProviderMetadata`), never merged into the call's: a provider-executed
 * call and its result carry different item ids, and each goes back to the model with its own.
 * A result that arrives apart from its call (a provider-executed result after other content, any
 * result in a later step) is a **deferred result**: an entry of its own where it arrived
 * (`deferred: true`), so that the model gets it back where the provider sent it. A later result
 * of the same call replaces the outcome where the first one was put (the last result wins).
 */
export function toolResult(d: TurnStateImpl, e: ChunkEventOf<'tool-result'>): void {
  const deferred = findEntry(d, (entry) => entry.id === e.toolCallId && entry.deferred === true);
  if (deferred !== undefined) {
    replaceEntry(d, deferred, withResult(deferred.entry, e));
    return;
  }
  const at = findCall(d, e.toolCallId);
  if (at === undefined) {
    const entry = withResult(orphan(e.toolCallId, e.toolName), e);
    addEntry(d, e.providerExecuted === true ? withField(entry, 'providerExecuted', true) : entry);
    return;
  }
  const providerExecuted = e.providerExecuted === true || at.entry.providerExecuted === true;
  if (hasOutcome(at.entry) || arrivesAtCall(d, at, providerExecuted)) {
    const entry = withResult(at.entry, e);
    replaceEntry(d, at, providerExecuted ? withField(entry, 'providerExecuted', true) : entry);
    return;
  }
  if (providerExecuted && at.entry.providerExecuted !== true) {
    replaceEntry(d, at, withField(at.entry, 'providerExecuted', true));
  }
  addEntry(d, withResult({ id: at.entry.id, name: at.entry.name, deferred: true }, e));
}

/** `tool-approval-request`: records the pending approval on its call. */
export function toolApprovalRequest(
  d: TurnStateImpl,
  e: ChunkEventOf<'tool-approval-request'>,
): void {
  const approval: ToolApproval = {
    id: e.approvalId,
    ...(e.reason !== undefined && { reason: e.reason }),
    ...(e.isAutomatic !== undefined && { isAutomatic: e.isAutomatic }),
    ...(e.signature !== undefined && { signature: e.signature }),
  };
  updateCall(d, e.toolCallId, (entry) => ({ ...entry, approval }));
}

/** `tool-approval-response`: records the decision on the call (by call id, else by approval id). */
export function toolApprovalResponse(
  d: TurnStateImpl,
  e: ChunkEventOf<'tool-approval-response'>,
): void {
  const decide = (entry: ToolCallEntry): ToolCallEntry => ({
    ...entry,
    approval: {
      ...entry.approval,
      id: e.approvalId,
      approved: e.approved,
      ...(e.reason !== undefined && { reason: e.reason }),
    },
  });
  let at: EntryAt | undefined;
  if (e.toolCallId !== undefined) at = findCall(d, e.toolCallId);
  at ??= findEntry(d, (entry) => entry.approval?.id === e.approvalId);
  if (at === undefined) addEntry(d, decide(orphan(e.toolCallId ?? '')));
  else replaceEntry(d, at, decide(at.entry));
}
