// What the retention tests share: a day in milliseconds, the clock's start, and a turn of one
// question and its answer.
import type { ChunkRowDraft } from '../../../src/schema/index.js';

/** A day, in milliseconds. */
export const DAY = 86_400_000;

/** When the retention tests' clocks start. */
export const T0 = Date.UTC(2026, 0, 1);

/** A turn of two rows: the user's question and the assistant's answer. */
export function qa(turnId: string, question: string): ChunkRowDraft[] {
  return [
    { turnId, step: 0, role: 'user', type: 'text', data: { text: question } },
    { turnId, step: 0, role: 'assistant', type: 'text', data: { text: `answer to ${question}` } },
  ];
}
