// The differ's shortcuts change nothing it sends. Given the reducer's states it compares only the
// chunks a state did not share with the one before, and given the event too it sends a delta as
// the event's own text; given a plain list it compares every chunk and slices. For any event
// sequence, the three send the same stream chunks, update by update.
import type { UIMessageChunk } from 'ai';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createTurnState, reduceTurn } from '../../src/reducer/index.js';
import { CHUNK_EVENT_TYPES, type ChunkEvent } from '../../src/schema/index.js';
import { chunkList, UIChunkDiffer } from '../../src/ui-messages/index.js';
import { chunkEventsArb } from '../support/event-arbitraries.js';

/** What each way of feeding the differ sent, one array per update (and the finish). */
function sent(events: readonly ChunkEvent[]): UIMessageChunk[][][] {
  const withEvents = new UIChunkDiffer();
  const withStates = new UIChunkDiffer();
  const withLists = new UIChunkDiffer();
  const out: UIMessageChunk[][][] = [[], [], []];
  let state = createTurnState();
  for (const event of events) {
    state = reduceTurn(state, event);
    out[0]?.push(withEvents.update(state, event));
    out[1]?.push(withStates.update(state));
    out[2]?.push(withLists.update(chunkList(state.chunks, state.openIndex)));
  }
  out[0]?.push(withEvents.finish(state));
  out[1]?.push(withStates.finish(state));
  out[2]?.push(withLists.finish(chunkList(state.chunks)));
  return out;
}

// Mostly deltas, as a stream is, between the events that open, close and add chunks.
const streaming = fc
  .array(
    fc.oneof(
      { weight: 3, arbitrary: chunkEventsArb({ maxLength: 3 }) },
      {
        weight: 5,
        arbitrary: chunkEventsArb({
          maxLength: 8,
          types: ['text-delta', 'reasoning-delta', 'tool-input-delta', 'tool-progress'],
        }),
      },
    ),
    { maxLength: 12 },
  )
  .map((runs) => runs.flat());

describe('UIChunkDiffer shortcuts', () => {
  it('send what comparing every chunk sends, for any events', () => {
    fc.assert(
      fc.property(chunkEventsArb({ types: CHUNK_EVENT_TYPES, maxLength: 60 }), (events) => {
        const [withEvents, withStates, withLists] = sent(events);
        expect(withEvents).toStrictEqual(withLists);
        expect(withStates).toStrictEqual(withLists);
      }),
      { numRuns: 400 },
    );
  });

  it('send what comparing every chunk sends, for streams of deltas', () => {
    fc.assert(
      fc.property(streaming, (events) => {
        const [withEvents, withStates, withLists] = sent(events);
        expect(withEvents).toStrictEqual(withLists);
        expect(withStates).toStrictEqual(withLists);
      }),
      { numRuns: 400 },
    );
  });

  it('sends a delta as the event brought it, also into a block that is not the last chunk', () => {
    const events: ChunkEvent[] = [
      { type: 'reasoning-start', id: 'r' },
      { type: 'reasoning-delta', id: 'r', text: 'think' },
      { type: 'text-start', id: 'a' },
      { type: 'text-delta', id: 'a', text: 'Hi' },
      { type: 'reasoning-delta', id: 'r', text: 'ing' },
      { type: 'text-delta', id: 'a', text: ' there' },
    ];
    const [withEvents] = sent(events);
    expect(withEvents?.flat().filter((c) => c.type.endsWith('-delta'))).toStrictEqual([
      { type: 'reasoning-delta', id: 'r', delta: 'think' },
      { type: 'text-delta', id: 'a', delta: 'Hi' },
      { type: 'reasoning-delta', id: 'r', delta: 'ing' },
      { type: 'text-delta', id: 'a', delta: ' there' },
    ]);
  });
});
