import type {
  ToolApprovalRequestEvent,
  ToolApprovalResponseEvent,
  ToolCallEvent,
  ToolInputDeltaEvent,
  ToolInputStartEvent,
  ToolProgressEvent,
  ToolResultEvent,
} from '../schema/chunk-event.js';
import { toolErrorOutput } from './errors.js';
import { jsonMetadata, plainJson } from './json-safe.js';
import type { StreamPartOf } from './part-types.js';

// Flags are written only when true: the AI SDK sends `dynamic: false` on every static call, and
// an absent flag means false everywhere in the schema.

/** `tool-input-start` → `tool-input-start` (`id` becomes `toolCallId`). */
export function fromToolInputStart(part: StreamPartOf<'tool-input-start'>): ToolInputStartEvent {
  const providerMetadata = jsonMetadata(part.providerMetadata);
  return {
    type: 'tool-input-start',
    toolCallId: part.id,
    toolName: part.toolName,
    ...(part.providerExecuted === true && { providerExecuted: true }),
    ...(providerMetadata && { providerMetadata }),
    ...(part.dynamic === true && { dynamic: true }),
    ...(part.title !== undefined && { title: part.title }),
  };
}

/** `tool-input-delta` → `tool-input-delta` (`id` becomes `toolCallId`). */
export function fromToolInputDelta(part: StreamPartOf<'tool-input-delta'>): ToolInputDeltaEvent {
  return { type: 'tool-input-delta', toolCallId: part.id, delta: part.delta };
}

/** `tool-call` → `tool-call` with its input as JSON. */
export function fromToolCall(part: StreamPartOf<'tool-call'>): ToolCallEvent {
  const providerMetadata = jsonMetadata(part.providerMetadata);
  return {
    type: 'tool-call',
    toolCallId: part.toolCallId,
    toolName: part.toolName,
    input: plainJson(part.input),
    ...(part.providerExecuted === true && { providerExecuted: true }),
    ...(providerMetadata && { providerMetadata }),
    ...(part.dynamic === true && { dynamic: true }),
    ...(part.invalid === true && { invalid: true }),
    ...(part.title !== undefined && { title: part.title }),
  };
}

/**
 * `tool-result` → `tool-result` with its output as JSON; a preliminary result (a generator
 * tool's `yield`) → `tool-progress { output }`.
 */
export function fromToolResult(
  part: StreamPartOf<'tool-result'>,
): ToolResultEvent | ToolProgressEvent {
  const output = plainJson(part.output);
  if (part.preliminary === true) {
    return { type: 'tool-progress', toolCallId: part.toolCallId, output };
  }
  const providerMetadata = jsonMetadata(part.providerMetadata);
  return {
    type: 'tool-result',
    toolCallId: part.toolCallId,
    toolName: part.toolName,
    output,
    ...(part.providerExecuted === true && { providerExecuted: true }),
    ...(providerMetadata && { providerMetadata }),
  };
}

/** `tool-error` → `tool-result { isError: true }` whose output is what the model is sent. */
export function fromToolError(part: StreamPartOf<'tool-error'>): ToolResultEvent {
  const providerExecuted = part.providerExecuted === true;
  const providerMetadata = jsonMetadata(part.providerMetadata);
  return {
    type: 'tool-result',
    toolCallId: part.toolCallId,
    toolName: part.toolName,
    output: toolErrorOutput(part.error, providerExecuted),
    isError: true,
    ...(providerExecuted && { providerExecuted: true }),
    ...(providerMetadata && { providerMetadata }),
  };
}

/** `tool-output-denied` → `tool-result { output: null, isError: true, denied: true }`. */
export function fromToolOutputDenied(part: StreamPartOf<'tool-output-denied'>): ToolResultEvent {
  return {
    type: 'tool-result',
    toolCallId: part.toolCallId,
    toolName: part.toolName,
    output: null,
    isError: true,
    denied: true,
    ...(part.providerExecuted === true && { providerExecuted: true }),
  };
}

/** `tool-approval-request` → `tool-approval-request` for the call it names. */
export function fromToolApprovalRequest(
  part: StreamPartOf<'tool-approval-request'>,
): ToolApprovalRequestEvent {
  return {
    type: 'tool-approval-request',
    toolCallId: part.toolCall.toolCallId,
    approvalId: part.approvalId,
    ...(part.reason !== undefined && { reason: part.reason }),
    ...(part.isAutomatic !== undefined && { isAutomatic: part.isAutomatic }),
    ...(part.signature !== undefined && { signature: part.signature }),
  };
}

/** `tool-approval-response` → `tool-approval-response`, naming the call it answers. */
export function fromToolApprovalResponse(
  part: StreamPartOf<'tool-approval-response'>,
): ToolApprovalResponseEvent {
  return {
    type: 'tool-approval-response',
    approvalId: part.approvalId,
    approved: part.approved,
    ...(part.reason !== undefined && { reason: part.reason }),
    toolCallId: part.toolCall.toolCallId,
  };
}
