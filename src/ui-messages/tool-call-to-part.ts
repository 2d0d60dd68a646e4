import type { DynamicToolUIPart, ToolUIPart } from 'ai';
import type { JSONValue, ToolApproval, ToolCallEntry } from '../schema/index.js';

/** A tool part of a `UIMessage`, static (`tool-${name}`) or dynamic. */
export type AnyToolUIPart = ToolUIPart | DynamicToolUIPart;

/** The state of a tool part, as the AI SDK names it. */
export type ToolPartState = AnyToolUIPart['state'];

/**
 * The state a tool call is in, from what the log recorded about it.
 *
 * @param call - a tool call of a tool-batch chunk
 */
export function toolPartState(call: ToolCallEntry): ToolPartState {
  if (call.denied === true && call.approval !== undefined) return 'output-denied';
  if (call.result !== undefined) return call.isError === true ? 'output-error' : 'output-available';
  if (call.preliminary !== undefined) return 'output-available';
  if (call.approval !== undefined) {
    return call.approval.approved === undefined ? 'approval-requested' : 'approval-responded';
  }
  return call.input === undefined ? 'input-streaming' : 'input-available';
}

function errorText(result: JSONValue | undefined): string {
  if (typeof result === 'string') return result;
  return result === undefined ? '' : JSON.stringify(result);
}

function uiApproval(approval: ToolApproval): Record<string, unknown> {
  const pending = approval.approved === undefined;
  return {
    id: approval.id,
    ...(pending ? {} : { approved: approval.approved }),
    // A pending request's reason is why approval is needed; an answer's, why it was given.
    ...(approval.reason === undefined
      ? {}
      : pending
        ? { requestReason: approval.reason }
        : { reason: approval.reason }),
    ...(approval.isAutomatic === undefined ? {} : { isAutomatic: approval.isAutomatic }),
    ...(approval.signature === undefined ? {} : { signature: approval.signature }),
  };
}

/** The approval the AI SDK allows in `state`: granted on outputs, denied on a denial. */
function approvalFor(
  state: ToolPartState,
  approval: ToolApproval | undefined,
): Record<string, unknown> | undefined {
  if (approval === undefined) return undefined;
  switch (state) {
    case 'approval-requested':
    case 'approval-responded':
      return uiApproval(approval);
    case 'output-denied':
      return { ...uiApproval(approval), approved: false };
    case 'output-available':
    case 'output-error':
      return approval.approved === true ? uiApproval(approval) : undefined;
    default:
      return undefined;
  }
}

function parseInputText(text: string | undefined): JSONValue | undefined {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as JSONValue;
  } catch {
    return undefined;
  }
}

/**
 * The `UIMessage` tool part of one call: `tool-${name}`, or `dynamic-tool` for a dynamic tool, in
 * the state the log says it is in. A denied call with no approval (which the AI SDK never
 * produces) shows as an output error. The call's provider metadata is `callProviderMetadata`; the
 * result's is `resultProviderMetadata`, which the AI SDK allows only on an output (available or
 * error).
 *
 * @param call - a tool call of a tool-batch chunk
 * @returns the tool part
 */
export function toolCallToPart(call: ToolCallEntry): AnyToolUIPart {
  const state = toolPartState(call);
  const head =
    call.dynamic === true
      ? { type: 'dynamic-tool', toolName: call.name, toolCallId: call.id }
      : { type: `tool-${call.name}`, toolCallId: call.id };
  const part: Record<string, unknown> = {
    ...head,
    state,
    ...(call.title === undefined ? {} : { title: call.title }),
    ...(call.providerExecuted === undefined ? {} : { providerExecuted: call.providerExecuted }),
  };
  if (state === 'input-streaming') {
    const partial = parseInputText(call.inputText);
    if (partial !== undefined) part.input = partial;
    if (call.inputText !== undefined) part.rawInput = call.inputText;
  } else if (call.input !== undefined || state !== 'output-error') {
    part.input = call.input;
  }
  if (call.providerMetadata !== undefined) part.callProviderMetadata = call.providerMetadata;
  switch (state) {
    case 'output-available':
      if (call.result !== undefined) part.output = call.result;
      else {
        part.output = call.preliminary;
        part.preliminary = true;
      }
      if (call.resultProviderMetadata !== undefined)
        part.resultProviderMetadata = call.resultProviderMetadata;
      break;
    case 'output-error':
      part.errorText = errorText(call.result);
      if (call.resultProviderMetadata !== undefined)
        part.resultProviderMetadata = call.resultProviderMetadata;
      break;
    default:
      break;
  }
  const approval = approvalFor(state, call.approval);
  if (approval !== undefined) part.approval = approval;
  return part as unknown as AnyToolUIPart;
}
