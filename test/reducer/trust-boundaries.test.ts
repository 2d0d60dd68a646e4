// The reducer trusts its events (it runs once per delta); the validating path for events from
// outside the process is parseChunkEvent before reduceTurn. Its other entry points check their
// arguments.
import { describe, expect, it } from 'vitest';
import { createTurnState, foldStream, foldTurn, reduceTurn } from '../../src/reducer/index.js';
import { type ChunkEvent, parseChunkEvent, safeParseChunkEvent } from '../../src/schema/index.js';
import { rejected, thrown } from '../support/chunklog-error.js';

const events: ChunkEvent[] = [
  { type: 'turn-start', turnId: 't1' },
  { type: 'text-start', id: 'a' },
  { type: 'text-delta', id: 'a', text: 'Hello' },
];

describe('reducer trust boundaries', () => {
  it('the validating path refuses a wire event before the reducer runs, leaving the state as it was', () => {
    const state = foldTurn(events);
    const before = JSON.stringify(state);
    const wire: unknown = JSON.parse('{"type":"text-delta","id":"a","text":42}');
    const error = thrown(() => reduceTurn(state, parseChunkEvent(wire)));
    expect(error.code).toBe('invalid-event');
    expect(error.path).toEqual(['text']);
    expect(error.value).toBe(42);
    expect(JSON.stringify(state)).toBe(before);
    expect(state.chunks).toEqual([{ type: 'text', step: 0, id: 'a', text: 'Hello' }]);
    // The same path without throwing, then the valid event folds in.
    const checked = safeParseChunkEvent({ type: 'text-delta', id: 'a', text: '!' });
    expect(checked.success).toBe(true);
    if (checked.success)
      expect(reduceTurn(state, checked.value).chunks[0]).toMatchObject({ text: 'Hello!' });
  });

  it('reduceTurn itself trusts its input: an unknown event type is ignored, not thrown on', () => {
    const state = foldTurn(events);
    const next = reduceTurn(state, { type: 'from-a-newer-producer' } as unknown as ChunkEvent);
    expect(next.chunks).toEqual(state.chunks);
  });

  it('createTurnState checks its ids', () => {
    for (const [init, option] of [
      [5, 'init'],
      [{ turnId: 5 }, 'turnId'],
      [{ turnId: '' }, 'turnId'],
      [{ assistantId: [] }, 'assistantId'],
    ] as const) {
      const error = thrown(() => createTurnState(init as never));
      expect(error.code).toBe('invalid-option');
      expect(error.option).toBe(option);
    }
    expect(createTurnState({ turnId: 't', assistantId: null as never }).assistantId).toBeNull();
  });

  it('foldStream rejects what is not a stream with invalid-option', async () => {
    const error = await rejected(foldStream(42 as never));
    expect(error.code).toBe('invalid-option');
    expect(error.option).toBe('stream');
  });
});
