import { describe, expect, it } from 'vitest';
import { ChunklogError } from '../../src/errors/index.js';
import {
  CHUNK_EVENT_TYPES,
  CHUNK_ROW_TYPES,
  CHUNK_TYPES,
  ChunkEventSchema,
  ChunkSchema,
  parseChunk,
  parseChunkEvent,
  parseChunkRow,
  safeParseChunkEvent,
  toJsonValue,
} from '../../src/schema/index.js';

describe('ChunkEventSchema', () => {
  it('accepts a minimal event of every type in CHUNK_EVENT_TYPES', () => {
    const minimal: Record<string, unknown> = {
      'turn-start': { turnId: 't1' },
      'turn-end': {},
      'step-start': {},
      'step-finish': { finishReason: 'stop' },
      'text-start': {},
      'text-delta': { text: 'a' },
      'text-end': {},
      'reasoning-start': {},
      'reasoning-delta': { text: '' },
      'reasoning-end': {},
      custom: { kind: 'anthropic.fallback' },
      'tool-input-start': { toolCallId: 'c', toolName: 'n' },
      'tool-input-delta': { toolCallId: 'c', delta: '{' },
      'tool-call': { toolCallId: 'c', toolName: 'n', input: {} },
      'tool-progress': { toolCallId: 'c', text: 'x' },
      'tool-result': { toolCallId: 'c', output: 1 },
      'tool-approval-request': { toolCallId: 'c', approvalId: 'a' },
      'tool-approval-response': { approvalId: 'a', approved: true },
      source: { source: { sourceType: 'url', id: 's', url: 'https://example.com' } },
      file: { mediaType: 'image/png', data: 'AA==' },
      'steering-message': { id: 's', text: 'hi', step: 1 },
      error: { message: 'boom', statusCode: 529 },
      system: { kind: 'notice', text: 'hello' },
    };
    expect(Object.keys(minimal).sort()).toEqual([...CHUNK_EVENT_TYPES].sort());
    for (const type of CHUNK_EVENT_TYPES) {
      const event = { type, ...(minimal[type] as object) };
      expect(ChunkEventSchema.parse(event)).toStrictEqual(event);
    }
  });

  it('names the offending path and value of a bad event', () => {
    const result = safeParseChunkEvent({
      type: 'tool-call',
      toolCallId: 'c',
      toolName: 'n',
      input: { a: [1, () => 1] },
    });
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(result.error).toBeInstanceOf(ChunklogError);
    expect(result.error.code).toBe('invalid-event');
    expect(result.error.path).toEqual(['input', 'a', 1]);
    expect(result.error.message).toContain('input.a[1]');
    expect(result.error.message).toContain('function');
  });

  it('rejects an unknown event type, listing the known ones', () => {
    expect(() => parseChunkEvent({ type: 'text-delat', text: 'x' })).toThrow(/text-delat/);
  });

  it('rejects a file with both data and url, and one with neither', () => {
    expect(() => parseChunkEvent({ type: 'file', mediaType: 'x', data: 'AA==', url: 'u' })).toThrow(
      /exactly one/,
    );
    expect(() => parseChunk({ type: 'file', step: 0, mediaType: 'x' })).toThrow(/exactly one/);
  });
});

describe('ChunkSchema', () => {
  it('knows every chunk type', () => {
    const samples = [
      { type: 'text', step: 0, text: '' },
      {
        type: 'thinking',
        step: 0,
        text: '',
        providerMetadata: { anthropic: { redactedData: 'x' } },
      },
      {
        type: 'tool-batch',
        step: 1,
        calls: [{ id: 'c', name: 'n', input: { q: 1 }, result: [1, 'a'] }],
      },
      { type: 'error', step: 0, message: 'm', statusCode: 500 },
      { type: 'system', step: 0, kind: 'cancelled', text: 'stopped' },
      { type: 'steering', step: 1, id: 's', text: 'also' },
      {
        type: 'source',
        step: 0,
        source: { sourceType: 'document', id: 'd', mediaType: 'application/pdf', title: 't' },
      },
      { type: 'file', step: 0, mediaType: 'image/png', url: 'https://x' },
      {
        type: 'custom',
        step: 0,
        kind: 'anthropic.fallback',
        providerMetadata: { anthropic: { from: 'a' } },
      },
      { type: 'data', step: 0, name: 'weather', id: 'w1', data: { city: 'Oslo', temp: [1, null] } },
    ];
    expect(samples.map((s) => s.type)).toEqual(CHUNK_TYPES);
    for (const sample of samples) expect(ChunkSchema.parse(sample)).toStrictEqual(sample);
  });

  it('rejects a negative or fractional step', () => {
    expect(() => parseChunk({ type: 'text', step: -1, text: '' })).toThrow(/step/);
    expect(() => parseChunk({ type: 'text', step: 0.5, text: '' })).toThrow(/step/);
  });
});

describe('ChunkRowSchema', () => {
  it('checks data against the schema of the row type', () => {
    const row = {
      threadId: 'th',
      seq: 3,
      turnId: 'u',
      step: 0,
      role: 'tool',
      type: 'tool_result',
      data: { callId: 'c', name: 'n', result: 'ok' },
    };
    expect(parseChunkRow(row)).toStrictEqual(row);
    expect(() => parseChunkRow({ ...row, data: { name: 'n' } })).toThrow(/data\.callId/);
    expect(() => parseChunkRow({ ...row, seq: 0 })).toThrow(/seq/);
    expect(CHUNK_ROW_TYPES).toHaveLength(11);
  });
});

describe('toJsonValue', () => {
  it('turns what JSON.stringify would into plain JSON and leaves JSON alone', () => {
    const plain = { a: [1, 'x', null, { b: true }] };
    expect(toJsonValue(plain)).toBe(plain);
    expect(toJsonValue({ d: new Date(0), u: undefined, n: 1n, e: new Error('x') })).toStrictEqual({
      d: '1970-01-01T00:00:00.000Z',
      n: '1',
      e: { name: 'Error', message: 'x' },
    });
    expect(toJsonValue(undefined)).toBeNull();
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    expect(toJsonValue(cyclic)).toStrictEqual({ a: 1, self: '[circular]' });
  });
});

describe('ChunklogError', () => {
  it('is detected across copies by its brand, not its prototype', () => {
    const error = new ChunklogError('thread-not-found', 'no such thread', { threadId: 't' });
    const copy = Object.assign(Object.create(Error.prototype), error);
    Object.defineProperty(copy, Symbol.for('chunklog.error'), { value: true });
    expect(ChunklogError.isInstance(copy)).toBe(true);
    expect(ChunklogError.isInstance(new Error('x'))).toBe(false);
    expect(ChunklogError.hasCode(error, 'thread-not-found')).toBe(true);
    expect(error.threadId).toBe('t');
  });
});
