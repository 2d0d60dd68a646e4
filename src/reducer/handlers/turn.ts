import type { ChunkEventOf } from '../../schema/chunk-event.js';
import type { TurnStateImpl } from '../turn-state.js';
import { closeAll } from './blocks.js';

/** `turn-start`: sets the turn's ids. */
export function turnStart(d: TurnStateImpl, e: ChunkEventOf<'turn-start'>): void {
  d.turnId = e.turnId;
  if (e.assistantId !== undefined) d.assistantId = e.assistantId;
}

/** `turn-end`: closes everything and records the finish reason and usage. */
export function turnEnd(d: TurnStateImpl, e: ChunkEventOf<'turn-end'>): void {
  closeAll(d);
  d.ended = true;
  if (e.finishReason !== undefined) d.finishReason = e.finishReason;
  if (e.usage !== undefined) d.usage = e.usage;
}
