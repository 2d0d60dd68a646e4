// The AI SDK adapter trusts the parts streamText makes, but refuses what is not a part or not a
// stream at once, with a ChunklogError instead of a TypeError later.
import { describe, expect, it } from 'vitest';
import { iterateStream, toChunkEventStream, toChunkEvents } from '../../src/events/index.js';
import { thrown } from '../support/chunklog-error.js';

describe('events trust boundaries', () => {
  it('toChunkEvents refuses a part that is not an object with a type', () => {
    for (const part of [null, undefined, 'text-delta', { text: 'x' }]) {
      const error = thrown(() => toChunkEvents(part as never));
      expect(error.code).toBe('invalid-option');
      expect(error.option).toBe('part');
    }
  });

  it('toChunkEventStream and iterateStream refuse a non-stream when called, not when read', () => {
    for (const run of [() => toChunkEventStream(5 as never), () => iterateStream({} as never)]) {
      const error = thrown(run);
      expect(error.code).toBe('invalid-option');
      expect(error.option).toBe('stream');
    }
  });
});
