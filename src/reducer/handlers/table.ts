import type { ChunkEventOf, ChunkEventType } from '../../schema/chunk-event.js';
import type { TurnStateImpl } from '../turn-state.js';
import { blockDelta, endBlock, startBlock } from './blocks.js';
import { custom, error, file, source, steeringMessage, system } from './standalone.js';
import { stepFinish, stepStart } from './steps.js';
import {
  toolApprovalRequest,
  toolApprovalResponse,
  toolCall,
  toolInputDelta,
  toolInputStart,
  toolProgress,
  toolResult,
} from './tools.js';
import { turnEnd, turnStart } from './turn.js';

/** How the reducer applies one event of type `K` to a draft state. */
export type Handler<K extends ChunkEventType> = (
  draft: TurnStateImpl,
  event: ChunkEventOf<K>,
) => void;

/**
 * One handler per event type. A mapped type over {@link ChunkEventType}: an event type added
 * to the schema does not compile until it has a handler here.
 */
export const HANDLERS: { readonly [K in ChunkEventType]: Handler<K> } = {
  'turn-start': turnStart,
  'turn-end': turnEnd,
  'step-start': stepStart,
  'step-finish': stepFinish,
  'text-start': (d, e) => startBlock(d, 'text', e),
  'text-delta': (d, e) => blockDelta(d, 'text', e),
  'text-end': (d, e) => endBlock(d, 'text', e),
  'reasoning-start': (d, e) => startBlock(d, 'thinking', e),
  'reasoning-delta': (d, e) => blockDelta(d, 'thinking', e),
  'reasoning-end': (d, e) => endBlock(d, 'thinking', e),
  custom,
  'tool-input-start': toolInputStart,
  'tool-input-delta': toolInputDelta,
  'tool-call': toolCall,
  'tool-progress': toolProgress,
  'tool-result': toolResult,
  'tool-approval-request': toolApprovalRequest,
  'tool-approval-response': toolApprovalResponse,
  source,
  file,
  'steering-message': steeringMessage,
  error,
  system,
};
