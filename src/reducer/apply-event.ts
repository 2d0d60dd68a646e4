import type { ChunkEvent } from '../schema/chunk-event.js';
import { blockDelta, endBlock, startBlock } from './handlers/blocks.js';
import { custom, error, file, source, steeringMessage, system } from './handlers/standalone.js';
import { stepFinish, stepStart } from './handlers/steps.js';
import {
  toolApprovalRequest,
  toolApprovalResponse,
  toolCall,
  toolInputDelta,
  toolInputStart,
  toolProgress,
  toolResult,
} from './handlers/tools.js';
import { turnEnd, turnStart } from './handlers/turn.js';
import type { TurnStateImpl } from './turn-state.js';

/**
 * Applies one event to an unpublished draft: the reducer's dispatch, one handler per event type.
 * A `switch` with a `never` default, so that an event type added to the schema does not compile
 * until it is handled (and so that V8 can inline the hot cases, which a lookup table of
 * closures defeats). The most frequent events come first. An event of an unknown type (not
 * schema-valid) is ignored rather than thrown on.
 */
export function applyEvent(d: TurnStateImpl, event: ChunkEvent): void {
  switch (event.type) {
    case 'text-delta':
      blockDelta(d, 'text', event);
      break;
    case 'reasoning-delta':
      blockDelta(d, 'thinking', event);
      break;
    case 'tool-input-delta':
      toolInputDelta(d, event);
      break;
    case 'tool-progress':
      toolProgress(d, event);
      break;
    case 'text-start':
      startBlock(d, 'text', event);
      break;
    case 'text-end':
      endBlock(d, 'text', event);
      break;
    case 'reasoning-start':
      startBlock(d, 'thinking', event);
      break;
    case 'reasoning-end':
      endBlock(d, 'thinking', event);
      break;
    case 'tool-input-start':
      toolInputStart(d, event);
      break;
    case 'tool-call':
      toolCall(d, event);
      break;
    case 'tool-result':
      toolResult(d, event);
      break;
    case 'tool-approval-request':
      toolApprovalRequest(d, event);
      break;
    case 'tool-approval-response':
      toolApprovalResponse(d, event);
      break;
    case 'custom':
      custom(d, event);
      break;
    case 'source':
      source(d, event);
      break;
    case 'file':
      file(d, event);
      break;
    case 'steering-message':
      steeringMessage(d, event);
      break;
    case 'error':
      error(d, event);
      break;
    case 'system':
      system(d, event);
      break;
    case 'step-start':
      stepStart(d, event);
      break;
    case 'step-finish':
      stepFinish(d, event);
      break;
    case 'turn-start':
      turnStart(d, event);
      break;
    case 'turn-end':
      turnEnd(d, event);
      break;
    default:
      unknownEvent(event);
  }
}

function unknownEvent(_event: never): void {}
