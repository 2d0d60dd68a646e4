import type { ChunkEvent } from '../../../src/schema/index.js';

/** Events of one complete text block. */
export function textBlock(...deltas: string[]): ChunkEvent[] {
  return [
    { type: 'text-start' },
    ...deltas.map((text): ChunkEvent => ({ type: 'text-delta', text })),
    { type: 'text-end' },
  ];
}

/** Events of one complete reasoning block. */
export function reasoningBlock(...deltas: string[]): ChunkEvent[] {
  return [
    { type: 'reasoning-start' },
    ...deltas.map((text): ChunkEvent => ({ type: 'reasoning-delta', text })),
    { type: 'reasoning-end' },
  ];
}

/** A tool call with its result. */
export function toolRound(id: string, output: string): ChunkEvent[] {
  return [
    { type: 'tool-call', toolCallId: id, toolName: 'read', input: { id } },
    { type: 'tool-result', toolCallId: id, toolName: 'read', output },
  ];
}

/** A whole turn: start, `blocks` text blocks of one delta each, end. */
export function turnOf(turnId: string, blocks: number, prefix = turnId): ChunkEvent[] {
  const events: ChunkEvent[] = [
    { type: 'turn-start', turnId },
    { type: 'step-start', step: 0 },
  ];
  for (let i = 0; i < blocks; i++) events.push(...textBlock(`${prefix}-${i}`));
  events.push({ type: 'step-finish', step: 0, finishReason: 'stop' }, { type: 'turn-end' });
  return events;
}
