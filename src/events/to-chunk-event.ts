import type { TextStreamPart, ToolSet } from 'ai';
import { ChunklogError } from '../errors/chunklog-error.js';
import type { ChunkEvent } from '../schema/chunk-event.js';
import {
  fromReasoningDelta,
  fromReasoningEnd,
  fromReasoningStart,
  fromTextDelta,
  fromTextEnd,
  fromTextStart,
} from './block-parts.js';
import { fromCustom, fromFile, fromSource, fromSteeringMessage } from './content-parts.js';
import {
  fromAbort,
  fromError,
  fromFinish,
  fromFinishStep,
  fromStartStep,
} from './lifecycle-parts.js';
import { malformedPart } from './malformed-part.js';
import {
  fromToolApprovalRequest,
  fromToolApprovalResponse,
  fromToolCall,
  fromToolError,
  fromToolInputDelta,
  fromToolInputStart,
  fromToolOutputDenied,
  fromToolResult,
} from './tool-parts.js';

/**
 * Maps one AI SDK v7 stream part to the chunk event it means, or `undefined` for a part that
 * carries nothing for the log (`start`, `tool-input-end`, `raw`, `ping`, or a part type this
 * version does not know). The event is plain JSON. Pure. {@link toChunkEvents} is the same as
 * a list. The part is trusted to be what the AI SDK streams (only that it is an object with a
 * `type` is checked): it comes from `streamText` in the same process, not over a wire.
 *
 * @param part - one stream part
 * @returns the event, or undefined
 * @throws {ChunklogError} `invalid-option` (option `part`) when `part` is not an object with a
 *   string `type`, or when reading it fails (a field the part's type has is missing or of the
 *   wrong kind: the message names the type and the field, `path` the field)
 *
 * @example
 * ```ts
 * toChunkEvent({ type: 'text-delta', id: '0', text: 'Hi' });
 * // { type: 'text-delta', id: '0', text: 'Hi' }
 * ```
 */
export function toChunkEvent(part: TextStreamPart<ToolSet>): ChunkEvent | undefined {
  if (typeof part !== 'object' || part === null || typeof part.type !== 'string') {
    throw new ChunklogError(
      'invalid-option',
      'toChunkEvents: a stream part must be an object with a string `type`',
      { option: 'part', value: part },
    );
  }
  try {
    return mapPart(part);
  } catch (error) {
    if (ChunklogError.isInstance(error)) throw error;
    throw malformedPart(part, error);
  }
}

function mapPart(part: TextStreamPart<ToolSet>): ChunkEvent | undefined {
  switch (part.type) {
    case 'start':
    case 'tool-input-end':
    case 'raw':
    case 'ping':
      return undefined;
    case 'start-step':
      return fromStartStep(part);
    case 'finish-step':
      return fromFinishStep(part);
    case 'finish':
      return fromFinish(part);
    case 'abort':
      return fromAbort(part);
    case 'error':
      return fromError(part);
    case 'text-start':
      return fromTextStart(part);
    case 'text-delta':
      return fromTextDelta(part);
    case 'text-end':
      return fromTextEnd(part);
    case 'reasoning-start':
      return fromReasoningStart(part);
    case 'reasoning-delta':
      return fromReasoningDelta(part);
    case 'reasoning-end':
      return fromReasoningEnd(part);
    case 'custom':
      return fromCustom(part);
    case 'source':
      return fromSource(part);
    case 'file':
    case 'reasoning-file':
      return fromFile(part);
    case 'steering-message':
      return fromSteeringMessage(part);
    case 'tool-input-start':
      return fromToolInputStart(part);
    case 'tool-input-delta':
      return fromToolInputDelta(part);
    case 'tool-call':
      return fromToolCall(part);
    case 'tool-result':
      return fromToolResult(part);
    case 'tool-error':
      return fromToolError(part);
    case 'tool-output-denied':
      return fromToolOutputDenied(part);
    case 'tool-approval-request':
      return fromToolApprovalRequest(part);
    case 'tool-approval-response':
      return fromToolApprovalResponse(part);
    default:
      return unknownPart(part);
  }
}

// A part type this version does not know (a newer `ai`) maps to no event rather than throwing;
// the `never` makes a type added to the installed `ai` a compile error until it is handled.
function unknownPart(_part: never): undefined {
  return undefined;
}
