// Whatever an AI SDK stream part holds (dates, typed arrays, bigints, undefined members, errors,
// cycles), the events toChunkEvents makes from it are plain JSON and schema-valid.
import { APICallError, DefaultGeneratedFile, type TextStreamPart, type ToolSet } from 'ai';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { STREAM_PART_TYPES, type StreamPartType, toChunkEvents } from '../../src/events/index.js';
import { ChunkEventSchema } from '../../src/schema/index.js';

type Part = TextStreamPart<ToolSet>;

const weird = fc.anything({
  maxDepth: 2,
  withBigInt: true,
  withDate: true,
  withTypedArray: true,
  withSparseArray: true,
  withNullPrototype: true,
  withMap: true,
  withSet: true,
  withBoxedValues: true,
});
const cyclic = fc.constant(null).map(() => {
  const o: Record<string, unknown> = { a: 1 };
  o.self = o;
  return o;
});
const value = fc.oneof(weird, cyclic, fc.constant(undefined));
const metadata = fc.option(
  fc.dictionary(
    fc.string({ maxLength: 8 }),
    fc.dictionary(fc.string({ maxLength: 8 }), value, { maxKeys: 3 }),
    {
      maxKeys: 2,
    },
  ),
  { nil: undefined },
);
const error = fc.oneof(
  value,
  fc.string().map((m) => new Error(m)),
  fc
    .integer({ min: 100, max: 599 })
    .map(
      (statusCode) =>
        new APICallError({ message: 'failed', url: 'u', requestBodyValues: {}, statusCode }),
    ),
);
const id = fc.string({ maxLength: 4 });
const text = fc.string({ maxLength: 8 });
const flag = fc.option(fc.boolean(), { nil: undefined });
const count = fc.option(fc.oneof(fc.nat(), fc.double()), { nil: undefined });
const usage = fc.record({
  inputTokens: count,
  inputTokenDetails: fc.record({
    noCacheTokens: count,
    cacheReadTokens: count,
    cacheWriteTokens: count,
  }),
  outputTokens: count,
  outputTokenDetails: fc.record({ textTokens: count, reasoningTokens: count }),
  totalTokens: count,
});
const source = fc.oneof(
  fc.record({
    sourceType: fc.constant('url' as const),
    id,
    url: fc.webUrl(),
    title: fc.option(text, { nil: undefined }),
    providerMetadata: metadata,
  }),
  fc.record({
    sourceType: fc.constant('document' as const),
    id,
    mediaType: fc.constant('application/pdf'),
    title: text,
    filename: fc.option(text, { nil: undefined }),
    providerMetadata: metadata,
  }),
);
const toolCall = fc.record({
  type: fc.constant('tool-call' as const),
  toolCallId: id,
  toolName: text,
  input: value,
  providerExecuted: flag,
  providerMetadata: metadata,
  dynamic: fc.constant(true as const),
  invalid: flag,
  error: fc.option(error, { nil: undefined }),
  title: fc.option(text, { nil: undefined }),
});
const file = fc
  .record({
    bytes: fc.uint8Array({ maxLength: 16 }),
    mediaType: fc.constantFrom('image/png', 'text/plain'),
    providerMetadata: metadata,
  })
  .map(
    (f) =>
      new DefaultGeneratedFile({
        data: f.bytes,
        mediaType: f.mediaType,
        ...(f.providerMetadata && { providerMetadata: f.providerMetadata as never }),
      }),
  );

const parts: { [K in StreamPartType]: fc.Arbitrary<Part> } = {
  start: fc.constant({ type: 'start' }),
  'start-step': fc.constant({ type: 'start-step', request: {}, warnings: [] }),
  'text-start': fc.record({
    type: fc.constant('text-start' as const),
    id,
    providerMetadata: metadata,
  }) as fc.Arbitrary<Part>,
  'text-delta': fc.record({
    type: fc.constant('text-delta' as const),
    id,
    text,
    providerMetadata: metadata,
  }) as fc.Arbitrary<Part>,
  'text-end': fc.record({
    type: fc.constant('text-end' as const),
    id,
    providerMetadata: metadata,
    citations: fc.option(
      fc.array(
        fc.record({
          source: source.map((s) => ({ type: 'source' as const, ...s })),
          startIndex: count,
          endIndex: count,
          citedText: fc.option(text, { nil: undefined }),
        }),
        { maxLength: 2 },
      ),
      { nil: undefined },
    ),
  }) as fc.Arbitrary<Part>,
  'reasoning-start': fc.record({
    type: fc.constant('reasoning-start' as const),
    id,
    providerMetadata: metadata,
  }) as fc.Arbitrary<Part>,
  'reasoning-delta': fc.record({
    type: fc.constant('reasoning-delta' as const),
    id,
    text,
    providerMetadata: metadata,
  }) as fc.Arbitrary<Part>,
  'reasoning-end': fc.record({
    type: fc.constant('reasoning-end' as const),
    id,
    providerMetadata: metadata,
  }) as fc.Arbitrary<Part>,
  custom: fc.record({
    type: fc.constant('custom' as const),
    kind: fc.constantFrom('a.b', 'anthropic.fallback') as fc.Arbitrary<`${string}.${string}`>,
    providerMetadata: metadata,
  }) as fc.Arbitrary<Part>,
  'tool-input-start': fc.record({
    type: fc.constant('tool-input-start' as const),
    id,
    toolName: text,
    providerExecuted: flag,
    providerMetadata: metadata,
    dynamic: flag,
    title: fc.option(text, { nil: undefined }),
  }) as fc.Arbitrary<Part>,
  'tool-input-delta': fc.record({
    type: fc.constant('tool-input-delta' as const),
    id,
    delta: text,
  }) as fc.Arbitrary<Part>,
  'tool-input-end': fc.record({
    type: fc.constant('tool-input-end' as const),
    id,
  }) as fc.Arbitrary<Part>,
  'tool-call': toolCall as fc.Arbitrary<Part>,
  'tool-result': fc.record({
    type: fc.constant('tool-result' as const),
    toolCallId: id,
    toolName: text,
    input: value,
    output: value,
    providerExecuted: flag,
    providerMetadata: metadata,
    dynamic: fc.constant(true as const),
    preliminary: flag,
  }) as fc.Arbitrary<Part>,
  'tool-error': fc.record({
    type: fc.constant('tool-error' as const),
    toolCallId: id,
    toolName: text,
    input: value,
    error,
    providerExecuted: flag,
    providerMetadata: metadata,
    dynamic: fc.constant(true as const),
  }) as fc.Arbitrary<Part>,
  'tool-output-denied': fc.record({
    type: fc.constant('tool-output-denied' as const),
    toolCallId: id,
    toolName: text,
    providerExecuted: flag,
  }) as fc.Arbitrary<Part>,
  'tool-approval-request': fc.record({
    type: fc.constant('tool-approval-request' as const),
    approvalId: id,
    toolCall,
    reason: fc.option(text, { nil: undefined }),
    isAutomatic: flag,
    signature: fc.option(text, { nil: undefined }),
  }) as fc.Arbitrary<Part>,
  'tool-approval-response': fc.record({
    type: fc.constant('tool-approval-response' as const),
    approvalId: id,
    toolCall,
    approved: fc.boolean(),
    reason: fc.option(text, { nil: undefined }),
  }) as fc.Arbitrary<Part>,
  source: source.map((s) => ({ type: 'source' as const, ...s })) as fc.Arbitrary<Part>,
  file: fc.record({
    type: fc.constant('file' as const),
    file,
    providerMetadata: metadata,
  }) as fc.Arbitrary<Part>,
  'reasoning-file': fc.record({
    type: fc.constant('reasoning-file' as const),
    file,
    providerMetadata: metadata,
  }) as fc.Arbitrary<Part>,
  'steering-message': fc.record({
    type: fc.constant('steering-message' as const),
    id,
    message: fc.record({
      role: fc.constant('user' as const),
      content: fc.oneof(
        text,
        fc.array(fc.record({ type: fc.constant('text' as const), text }), { maxLength: 3 }),
      ),
    }),
    stepNumber: fc.nat({ max: 9 }),
  }) as fc.Arbitrary<Part>,
  'finish-step': fc.record({
    type: fc.constant('finish-step' as const),
    response: fc.record({ id, timestamp: fc.date(), modelId: text }),
    usage,
    performance: fc.constant({}),
    finishReason: fc.constantFrom(
      'stop',
      'length',
      'content-filter',
      'tool-calls',
      'error',
      'other',
    ),
    rawFinishReason: fc.option(text, { nil: undefined }),
    providerMetadata: metadata,
  }) as unknown as fc.Arbitrary<Part>,
  finish: fc.record({
    type: fc.constant('finish' as const),
    finishReason: fc.constantFrom('stop', 'error'),
    rawFinishReason: fc.constant(undefined),
    totalUsage: usage,
  }) as unknown as fc.Arbitrary<Part>,
  abort: fc.record({
    type: fc.constant('abort' as const),
    reason: fc.option(text, { nil: undefined }),
  }) as fc.Arbitrary<Part>,
  error: fc.record({ type: fc.constant('error' as const), error }) as fc.Arbitrary<Part>,
  raw: fc.record({ type: fc.constant('raw' as const), rawValue: value }) as fc.Arbitrary<Part>,
  ping: fc.constant({ type: 'ping' }),
};

describe('toChunkEvents properties', () => {
  it('covers every part type', () => {
    expect(Object.keys(parts).sort()).toEqual([...STREAM_PART_TYPES].sort());
  });

  it('every event is plain JSON and schema-valid, whatever the part holds', () => {
    fc.assert(
      fc.property(fc.oneof(...Object.values(parts)), (part) => {
        for (const event of toChunkEvents(part)) {
          expect(JSON.parse(JSON.stringify(event))).toStrictEqual(event);
          expect(ChunkEventSchema.parse(event)).toStrictEqual(event);
        }
      }),
      { numRuns: 500 },
    );
  });
});
