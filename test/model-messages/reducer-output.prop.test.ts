// toModelMessages over what the reducer really produces from any event sequence (cancelled and
// crashed turns included): the same promises as over hand-shaped chunks.
import fc from 'fast-check';
import { describe, it } from 'vitest';
import {
  type Chunk,
  type ChunkRow,
  explodeTurn,
  foldTurn,
  groupRowsToMessages,
  toModelMessages,
} from '../../src/index.js';
import { chunkEventsArb } from '../support/event-arbitraries.js';
import { checkInvariants } from './support/invariants.js';

/** System and error chunks marked so their absence from the output can be checked. */
function mark(chunks: readonly Chunk[]): Chunk[] {
  return chunks.map((c, i) => {
    if (c.type === 'system') return { ...c, text: `\u0001sys ${i}` };
    if (c.type === 'error') return { ...c, message: `\u0001err ${i}` };
    return c;
  });
}

describe('toModelMessages over reducer output (property)', () => {
  it('never sends a tool call without a result, a system or error chunk, or a system message', () => {
    fc.assert(
      fc.property(
        fc.array(chunkEventsArb({ maxLength: 40 }), { minLength: 1, maxLength: 4 }),
        (turns) => {
          const rows: ChunkRow[] = [];
          turns.forEach((events, t) => {
            const drafts = [
              ...explodeTurn(`t${t}`, [{ type: 'text', step: 0, text: `question ${t}` }], {
                role: 'user',
              }),
              ...explodeTurn(`t${t}`, mark(foldTurn(events).chunks), { role: 'assistant' }),
            ];
            for (const d of drafts)
              rows.push({ ...d, threadId: 'th', seq: rows.length + 1 } as ChunkRow);
          });
          checkInvariants(toModelMessages(groupRowsToMessages(rows)));
        },
      ),
      { numRuns: 300 },
    );
  });
});
