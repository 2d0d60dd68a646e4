// A conversation of three question-and-answer turns on one dialect: what the alternatives and
// the export-of-versions tests start from.
import type { ChunkRowDraft } from '../../../src/schema/index.js';
import type { ChunkStore } from '../../../src/store/index.js';
import { createHarness, type DialectHarness, type DialectName } from './dialects.js';

/** A turn of a user question and its answer, one text row each. */
export function qa(
  turnId: string,
  question: string,
  answer = `answer to ${question}`,
): ChunkRowDraft[] {
  return [
    { turnId, step: 0, role: 'user', type: 'text', data: { text: question } },
    { turnId, step: 0, role: 'assistant', type: 'text', data: { text: answer } },
  ];
}

/**
 * A migrated store on `name` (its harness pushed onto `harnesses`, to dispose) on a clock that
 * ticks a millisecond per read, holding thread `chat` (titled `title`, when given) with turns
 * t1, t2 and t3.
 */
export async function openThreeTurnChat(
  name: DialectName,
  harnesses: DialectHarness[],
  title?: string,
): Promise<ChunkStore> {
  const harness = createHarness(name);
  harnesses.push(harness);
  let now = Date.UTC(2026, 0, 1);
  const store = harness.openStore({ now: () => now++ });
  await store.migrate();
  if (title !== undefined) await store.createThread('chat', { title });
  await store.appendTurn('chat', qa('t1', 'one'));
  await store.appendTurn('chat', qa('t2', 'two'));
  await store.appendTurn('chat', qa('t3', 'three'));
  return store;
}
