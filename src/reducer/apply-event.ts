import type { ChunkEvent } from '../schema/chunk-event.js';
import { HANDLERS, type Handler } from './handlers/table.js';
import type { TurnStateImpl } from './turn-state.js';

/**
 * Applies one event to an unpublished draft. Events of an unknown type (not schema-valid) are
 * ignored rather than thrown on.
 */
export function applyEvent(draft: TurnStateImpl, event: ChunkEvent): void {
  const handler = HANDLERS[event.type] as Handler<ChunkEvent['type']> | undefined;
  if (handler !== undefined) handler(draft, event as never);
}
