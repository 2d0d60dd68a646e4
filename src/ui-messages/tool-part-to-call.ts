import type { JSONValue, ProviderMetadata, ToolApproval, ToolCallEntry } from '../schema/index.js';
import type { UIMessageLocation } from './invalid-ui-message.js';
import type { AnyToolUIPart } from './tool-call-to-part.js';

/** Reports a field chunklog cannot keep (throws in strict mode, ignores it otherwise). */
export type ReportUnsupported = (field: string, location: UIMessageLocation) => void;

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

function approvalOf(
  part: AnyToolUIPart,
  location: UIMessageLocation,
  unsupported: ReportUnsupported,
): ToolApproval | undefined {
  const approval = (part as { approval?: Record<string, unknown> }).approval;
  if (approval === undefined) return undefined;
  const at = (key: string): UIMessageLocation => ({ ...location, field: ['approval', key] });
  if (approval.descriptor !== undefined) unsupported('approval.descriptor', at('descriptor'));
  if ('inputSchemaInput' in approval)
    unsupported('approval.inputSchemaInput', at('inputSchemaInput'));
  const result: Mutable<ToolApproval> = { id: String(approval.id) };
  if (typeof approval.approved === 'boolean') result.approved = approval.approved;
  if (typeof approval.requestReason === 'string') {
    // chunklog keeps one reason: the request's while pending, the answer's once answered.
    if (result.approved === undefined) result.reason = approval.requestReason;
    else unsupported('approval.requestReason', at('requestReason'));
  }
  if (typeof approval.reason === 'string') result.reason = approval.reason;
  if (typeof approval.isAutomatic === 'boolean') result.isAutomatic = approval.isAutomatic;
  if (typeof approval.signature === 'string') result.signature = approval.signature;
  return result;
}

/**
 * The tool call a `UIMessage` tool part records: its name and input, what happened to it
 * (output, error, denial, preliminary output, approval), and the provider metadata of the call
 * (`callProviderMetadata`) and of its result (`resultProviderMetadata`), each in its own field as
 * the log keeps them. Fields chunklog has no place for are reported.
 *
 * @param part - a validated tool part (`tool-${name}` or `dynamic-tool`), JSON only
 * @param location - where the part is, for errors
 * @param unsupported - called for each field that cannot be kept
 * @returns the tool call entry
 */
export function toolPartToCall(
  part: AnyToolUIPart,
  location: UIMessageLocation,
  unsupported: ReportUnsupported,
): Mutable<ToolCallEntry> {
  const any = part as AnyToolUIPart & Record<string, unknown>;
  const isDynamicPart = part.type === 'dynamic-tool';
  const call: Mutable<ToolCallEntry> = {
    id: part.toolCallId,
    name: isDynamicPart ? part.toolName : part.type.slice('tool-'.length),
  };
  if (any.toolMetadata !== undefined)
    unsupported('toolMetadata', { ...location, field: ['toolMetadata'] });
  if (any.inputEncoding === 'text') {
    unsupported('inputEncoding', { ...location, field: ['inputEncoding'] });
  }
  switch (part.state) {
    case 'input-streaming':
      if (typeof part.rawInput === 'string') call.inputText = part.rawInput;
      else if (part.input !== undefined) call.inputText = JSON.stringify(part.input);
      break;
    case 'output-error': {
      // The deprecated `rawInput` is what `convertToModelMessages` sends when `input` is missing.
      const input = part.input !== undefined ? part.input : any.rawInput;
      if (input !== undefined) call.input = input as JSONValue;
      break;
    }
    default:
      if (part.input !== undefined) call.input = part.input as JSONValue;
  }
  if (part.providerExecuted !== undefined) call.providerExecuted = part.providerExecuted;
  if (part.callProviderMetadata !== undefined)
    call.providerMetadata = part.callProviderMetadata as ProviderMetadata;
  if (any.resultProviderMetadata !== undefined)
    call.resultProviderMetadata = any.resultProviderMetadata as ProviderMetadata;
  // `dynamic: false` marks a static tool that validation could not check: it stays static.
  if (isDynamicPart && part.dynamic !== false) call.dynamic = true;
  if (part.title !== undefined) call.title = part.title;
  const approval = approvalOf(part, location, unsupported);
  if (approval !== undefined) call.approval = approval;
  switch (part.state) {
    case 'output-available':
      if (part.preliminary === true) call.preliminary = (part.output ?? null) as JSONValue;
      else call.result = (part.output ?? null) as JSONValue;
      break;
    case 'output-error':
      call.result = part.errorText;
      call.isError = true;
      break;
    case 'output-denied':
      call.result = null;
      call.isError = true;
      call.denied = true;
      break;
    default:
      break;
  }
  return call;
}
