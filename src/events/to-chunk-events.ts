import type { TextStreamPart, ToolSet } from 'ai';
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
 * Maps one AI SDK v7 stream part (`streamText().stream`, formerly `fullStream`) to the chunk
 * events it means: zero or one event, each plain JSON (it survives
 * `JSON.parse(JSON.stringify(e))` unchanged and validates against `ChunkEventSchema`). Pure.
 * `start`, `tool-input-end`, `raw` and `ping` map to no event; `start-step` gives a
 * `step-start` without a number (use {@link toChunkEventStream} to number steps). The full
 * table is in `docs/event-mapping.md`.
 *
 * @param part - one stream part
 * @returns the events, in order (a fresh array; empty for parts that carry nothing for the log)
 *
 * @example
 * ```ts
 * const result = streamText({ model, prompt: 'Hello' });
 * for await (const part of result.stream) {
 *   for (const event of toChunkEvents(part)) socket.send(JSON.stringify(event));
 * }
 * ```
 */
export function toChunkEvents(part: TextStreamPart<ToolSet>): ChunkEvent[] {
  switch (part.type) {
    case 'start':
    case 'tool-input-end':
    case 'raw':
    case 'ping':
      return [];
    case 'start-step':
      return [fromStartStep(part)];
    case 'finish-step':
      return [fromFinishStep(part)];
    case 'finish':
      return [fromFinish(part)];
    case 'abort':
      return [fromAbort(part)];
    case 'error':
      return [fromError(part)];
    case 'text-start':
      return [fromTextStart(part)];
    case 'text-delta':
      return [fromTextDelta(part)];
    case 'text-end':
      return [fromTextEnd(part)];
    case 'reasoning-start':
      return [fromReasoningStart(part)];
    case 'reasoning-delta':
      return [fromReasoningDelta(part)];
    case 'reasoning-end':
      return [fromReasoningEnd(part)];
    case 'custom':
      return [fromCustom(part)];
    case 'source':
      return [fromSource(part)];
    case 'file':
    case 'reasoning-file':
      return [fromFile(part)];
    case 'steering-message':
      return [fromSteeringMessage(part)];
    case 'tool-input-start':
      return [fromToolInputStart(part)];
    case 'tool-input-delta':
      return [fromToolInputDelta(part)];
    case 'tool-call':
      return [fromToolCall(part)];
    case 'tool-result':
      return [fromToolResult(part)];
    case 'tool-error':
      return [fromToolError(part)];
    case 'tool-output-denied':
      return [fromToolOutputDenied(part)];
    case 'tool-approval-request':
      return [fromToolApprovalRequest(part)];
    case 'tool-approval-response':
      return [fromToolApprovalResponse(part)];
    default:
      return unknownPart(part);
  }
}

// A part type this version does not know (a newer `ai`) maps to no event rather than throwing;
// the `never` makes a type added to the installed `ai` a compile error until it is handled.
function unknownPart(_part: never): ChunkEvent[] {
  return [];
}
