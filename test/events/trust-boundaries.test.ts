// The AI SDK adapter trusts the parts streamText makes, but refuses what is not a part or not a
// stream at once, and a part it cannot read, with a ChunklogError instead of a TypeError.
import { describe, expect, it } from 'vitest';
import { iterateStream, toChunkEventStream, toChunkEvents } from '../../src/events/index.js';
import { parseChunkEvent } from '../../src/schema/index.js';
import { thrown } from '../support/chunklog-error.js';

describe('events trust boundaries', () => {
  it('toChunkEvents refuses a part that is not an object with a type', () => {
    for (const part of [null, undefined, 'text-delta', { text: 'x' }]) {
      const error = thrown(() => toChunkEvents(part as never));
      expect(error.code).toBe('invalid-option');
      expect(error.option).toBe('part');
    }
  });

  it('toChunkEvents names the part type and the field of a malformed part (no raw TypeError)', () => {
    for (const [part, path] of [
      [{ type: 'file' }, ['file']],
      [{ type: 'reasoning-file', file: null }, ['file']],
      [{ type: 'steering-message', id: 's', stepNumber: 1 }, ['message']],
      [{ type: 'steering-message', message: { role: 'user', content: 5 } }, ['message', 'content']],
      [{ type: 'steering-message', message: { content: [null] } }, ['message', 'content']],
      [{ type: 'tool-approval-request', approvalId: 'a' }, ['toolCall']],
      [{ type: 'tool-approval-response', approvalId: 'a', approved: true }, ['toolCall']],
      [{ type: 'text-end', id: 't', citations: [{ startIndex: 0 }] }, ['citations']],
      [{ type: 'text-end', id: 't', citations: null }, ['citations']],
    ] as const) {
      const error = thrown(() => toChunkEvents(part as never));
      expect(error.code).toBe('invalid-option');
      expect(error.option).toBe('part');
      expect(error.path).toStrictEqual(path);
      expect(error.message).toContain(`a \`${part.type}\` part needs \`${path.join('.')}\``);
      expect(error.cause).toBeInstanceOf(TypeError);
    }
  });

  it('toChunkEvents wraps any other failure to read a part, with what was thrown', () => {
    const file = {
      mediaType: 'image/png',
      get base64(): string {
        throw new RangeError('not base64');
      },
    };
    const error = thrown(() => toChunkEvents({ type: 'file', file } as never));
    expect(error.code).toBe('invalid-option');
    expect(error.option).toBe('part');
    expect(error.message).toContain('a `file` part');
    expect(error.message).toContain('not base64');
    expect(error.cause).toBeInstanceOf(RangeError);
  });

  it('toChunkEvents cuts a tool output nested deeper than MAX_JSON_DEPTH instead of overflowing', () => {
    let output: unknown = 'leaf';
    for (let i = 0; i < 20_000; i++) output = { child: output };
    const [event] = toChunkEvents({
      type: 'tool-result',
      toolCallId: 'c',
      toolName: 'read',
      input: {},
      output,
    } as never);
    expect(parseChunkEvent(event)).toStrictEqual(event);
    expect(JSON.stringify(event)).toContain('"[too deep]"');
  });

  it('toChunkEventStream and iterateStream refuse a non-stream when called, not when read', () => {
    for (const run of [() => toChunkEventStream(5 as never), () => iterateStream({} as never)]) {
      const error = thrown(run);
      expect(error.code).toBe('invalid-option');
      expect(error.option).toBe('stream');
    }
  });
});
