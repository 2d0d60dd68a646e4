// The row transforms over what the reducer really produces: any sequence of schema-valid chunk
// events, folded by the reducer, explodes to rows that group back to the same chunks, also when
// stored as JSON and read back in pages.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type ChunkRow,
  explodeTurn,
  foldTurn,
  groupRowsToMessages,
  mergeRowsBySeq,
} from '../../src/index.js';
import { chunkEventsArb } from '../support/event-arbitraries.js';

describe('explode / group over reducer output (property)', () => {
  it('for any chunk list the reducer can produce, groupRowsToMessages(explodeTurn(chunks)) gives it back', () => {
    fc.assert(
      fc.property(chunkEventsArb({ maxLength: 80 }), (events) => {
        const { chunks } = foldTurn(events);
        const rows = explodeTurn('turn', chunks, { role: 'assistant' });
        const expected = chunks.filter((c) => c.type !== 'tool-batch' || c.calls.length > 0);
        const messages = groupRowsToMessages(rows);
        expect(messages.flatMap((m) => m.chunks)).toStrictEqual(expected);
        expect(messages.map((m) => m.id)).toEqual(expected.length > 0 ? ['turn:assistant'] : []);
      }),
      { numRuns: 500 },
    );
  });

  it('stored as JSON and loaded in overlapping pages in any order, the turn groups the same', () => {
    fc.assert(
      fc.property(
        chunkEventsArb({ maxLength: 60 }).chain((events) => {
          const rows = explodeTurn('turn', foldTurn(events).chunks, { role: 'assistant' }).map(
            (d, i) => ({ ...d, threadId: 'th', seq: i + 1 }) as ChunkRow,
          );
          const stored = JSON.parse(JSON.stringify(rows)) as ChunkRow[];
          return fc.tuple(
            fc.constant(stored),
            fc
              .array(fc.tuple(fc.nat(stored.length), fc.nat(stored.length)), { maxLength: 5 })
              .map((cuts) => [
                ...cuts.map(([a, b]) => stored.slice(Math.min(a, b), Math.max(a, b))),
                stored,
              ]),
          );
        }),
        ([stored, pages]) => {
          const whole = groupRowsToMessages(stored);
          expect(groupRowsToMessages(mergeRowsBySeq(...[...pages].reverse()))).toStrictEqual(whole);
        },
      ),
      { numRuns: 300 },
    );
  });
});
