import type { ToolCallEntry } from '../schema/chunk.js';
import type { ProviderMetadata } from '../schema/json.js';
import type { AssistantPart, ToolPart, ToolResultOutput } from './ai-types.js';
import type { ResolvedOptions } from './options.js';

type ToolCallPart = Extract<AssistantPart, { type: 'tool-call' }>;
type ToolResultPart = Extract<ToolPart, { type: 'tool-result' }>;
type ApprovalRequestPart = Extract<AssistantPart, { type: 'tool-approval-request' }>;
type ApprovalResponsePart = Extract<ToolPart, { type: 'tool-approval-response' }>;

/** Whether anything final happened to the call: a result, an error or a denial. */
export function hasOutcome(entry: ToolCallEntry): boolean {
  return entry.result !== undefined || entry.isError === true || entry.denied === true;
}

/** Whether the call waits for a user's approval (asked, not answered, no outcome). */
export function awaitsApproval(entry: ToolCallEntry): boolean {
  return (
    entry.approval !== undefined && entry.approval.approved === undefined && !hasOutcome(entry)
  );
}

/** The `tool-call` part of a call, as the AI SDK's response messages hold it. */
export function toolCallPart(entry: ToolCallEntry): ToolCallPart {
  const input = entry.invalid === true && typeof entry.input !== 'object' ? {} : entry.input;
  const part: ToolCallPart = {
    type: 'tool-call',
    toolCallId: entry.id,
    toolName: entry.name,
    input,
  };
  if (entry.providerExecuted !== undefined) part.providerExecuted = entry.providerExecuted;
  if (entry.providerMetadata !== undefined) part.providerOptions = entry.providerMetadata;
  return part;
}

/** The `tool-approval-request` part of a call that needed approval. */
export function approvalRequestPart(entry: ToolCallEntry): ApprovalRequestPart | undefined {
  const approval = entry.approval;
  if (approval === undefined) return undefined;
  const part: ApprovalRequestPart = {
    type: 'tool-approval-request',
    approvalId: approval.id,
    toolCallId: entry.id,
  };
  // The schema keeps one `reason`: the request's while the approval is pending, the answer's
  // once answered (then it goes on the response part).
  if (approval.approved === undefined && approval.reason !== undefined)
    part.reason = approval.reason;
  if (approval.isAutomatic !== undefined) part.isAutomatic = approval.isAutomatic;
  // The AI SDK's HMAC over approval id, call id, tool name and input: needed to answer the
  // request from a stored history when the app sets `experimental_toolApprovalSecret`.
  if (approval.signature !== undefined) part.signature = approval.signature;
  return part;
}

/** The `tool-approval-response` part of an answered approval. */
export function approvalResponsePart(entry: ToolCallEntry): ApprovalResponsePart | undefined {
  const approval = entry.approval;
  if (approval?.approved === undefined) return undefined;
  const part: ApprovalResponsePart = {
    type: 'tool-approval-response',
    approvalId: approval.id,
    approved: approval.approved,
  };
  if (approval.reason !== undefined) part.reason = approval.reason;
  if (entry.providerExecuted !== undefined) part.providerExecuted = entry.providerExecuted;
  return part;
}

/**
 * The output the AI SDK sends for a call's outcome: a denial as `execution-denied` (with the
 * approval's reason), a local tool's error as `error-text`, a provider-executed tool's error as
 * `error-json`, a string result as `text`, anything else as `json`.
 */
export function outcomeOutput(entry: ToolCallEntry, options: ResolvedOptions): ToolResultOutput {
  if (entry.denied === true) return deniedOutput(entry.approval?.reason);
  const result = entry.result ?? null;
  if (entry.isError === true) {
    return entry.providerExecuted !== true && typeof result === 'string'
      ? { type: 'error-text', value: result }
      : { type: 'error-json', value: result };
  }
  const mapped = entry.providerExecuted === true ? undefined : options.toolResultOutput?.(entry);
  if (mapped !== undefined) return mapped;
  return typeof result === 'string'
    ? { type: 'text', value: result }
    : { type: 'json', value: result };
}

/** The output of a denied call: `execution-denied`, with the approval's reason when it has one. */
export function deniedOutput(reason: string | undefined): ToolResultOutput {
  return reason === undefined ? { type: 'execution-denied' } : { type: 'execution-denied', reason };
}

/**
 * A `tool-result` part.
 *
 * @param entry - the call
 * @param output - what the model is sent
 * @param providerOptions - the part's provider options, as the AI SDK's loop sends them (see
 *   `toModelMessages`: a local result's are its call's metadata, a provider-executed result's its
 *   own), or undefined for none
 */
export function toolResultPart(
  entry: ToolCallEntry,
  output: ToolResultOutput,
  providerOptions: ProviderMetadata | undefined,
): ToolResultPart {
  const part: ToolResultPart = {
    type: 'tool-result',
    toolCallId: entry.id,
    toolName: entry.name,
    output,
  };
  if (providerOptions !== undefined) part.providerOptions = providerOptions;
  return part;
}
