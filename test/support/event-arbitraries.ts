// fast-check arbitraries of schema-valid chunk events. Ids come from small pools so that random
// sequences hit the interesting interactions (a delta for an open block, a result for a known
// call, a second start with the same id), and every field the schema allows shows up.
import fc from 'fast-check';
import type {
  ChunkEvent,
  ChunkEventType,
  JSONValue,
  ProviderMetadata,
} from '../../src/schema/index.js';
import { CHUNK_EVENT_TYPES, ERROR_KINDS, SYSTEM_KINDS } from '../../src/schema/index.js';

/** A JSON value without `-0` (which JSON turns into `0`). */
export const jsonValueArb: fc.Arbitrary<JSONValue> = fc
  .jsonValue({ maxDepth: 2 })
  .map((v) => JSON.parse(JSON.stringify(v)) as JSONValue);

/** Provider metadata: a few providers with a few keys each. */
export const metadataArb: fc.Arbitrary<ProviderMetadata> = fc.dictionary(
  fc.constantFrom('anthropic', 'openai', 'google'),
  fc.dictionary(fc.constantFrom('signature', 'itemId', 'redactedData', 'x'), jsonValueArb, {
    maxKeys: 2,
    noNullPrototype: true,
  }),
  { minKeys: 1, maxKeys: 2, noNullPrototype: true },
);

const text = fc.string({ maxLength: 6 });
const blockId = fc.option(fc.constantFrom('a', 'b'), { nil: undefined });
const callId = fc.constantFrom('c1', 'c2', 'c3');
const approvalId = fc.constantFrom('p1', 'p2');
const step = fc.nat({ max: 6 });
const flag = fc.option(fc.boolean(), { nil: undefined });
const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });
const usage = fc.record(
  { inputTokens: fc.nat(), outputTokens: fc.nat(), totalTokens: fc.nat() },
  { requiredKeys: [] },
);
const finishReason = fc.constantFrom('stop', 'length', 'tool-calls', 'error', 'other');
const source = fc.oneof(
  fc.record({
    sourceType: fc.constant('url' as const),
    id: fc.string({ maxLength: 4 }),
    url: fc.webUrl(),
  }),
  fc.record({
    sourceType: fc.constant('document' as const),
    id: fc.string({ maxLength: 4 }),
    mediaType: fc.constant('application/pdf'),
    title: text,
  }),
);

/** Drops the keys whose value is undefined, as JSON would. */
function clean<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

const byType: { [K in ChunkEventType]: fc.Arbitrary<ChunkEvent> } = {
  'turn-start': fc
    .record({ turnId: fc.constantFrom('t1', 't2'), assistantId: maybe(text) })
    .map((b) => clean({ type: 'turn-start' as const, ...b })),
  'turn-end': fc
    .record({ finishReason: maybe(finishReason), usage: maybe(usage) })
    .map((b) => clean({ type: 'turn-end' as const, ...b })),
  'step-start': fc
    .record({ step: maybe(step), modelId: maybe(fc.constantFrom('m1', 'm2')) })
    .map((b) => clean({ type: 'step-start' as const, ...b })),
  'step-finish': fc
    .record({
      step: maybe(step),
      finishReason,
      usage: maybe(usage),
      modelId: maybe(fc.constantFrom('m1', 'm2')),
      providerMetadata: maybe(metadataArb),
    })
    .map((b) => clean({ type: 'step-finish' as const, ...b })),
  'text-start': fc
    .record({ id: blockId, providerMetadata: maybe(metadataArb) })
    .map((b) => clean({ type: 'text-start' as const, ...b })),
  'text-delta': fc
    .record({ id: blockId, text, providerMetadata: maybe(metadataArb) })
    .map((b) => clean({ type: 'text-delta' as const, ...b })),
  'text-end': fc
    .record({
      id: blockId,
      providerMetadata: maybe(metadataArb),
      citations: maybe(
        fc.array(fc.record({ source, citedText: maybe(text) }).map(clean), { maxLength: 2 }),
      ),
    })
    .map((b) => clean({ type: 'text-end' as const, ...b })),
  'reasoning-start': fc
    .record({ id: blockId, providerMetadata: maybe(metadataArb) })
    .map((b) => clean({ type: 'reasoning-start' as const, ...b })),
  'reasoning-delta': fc
    .record({ id: blockId, text, providerMetadata: maybe(metadataArb) })
    .map((b) => clean({ type: 'reasoning-delta' as const, ...b })),
  'reasoning-end': fc
    .record({ id: blockId, providerMetadata: maybe(metadataArb) })
    .map((b) => clean({ type: 'reasoning-end' as const, ...b })),
  custom: fc
    .record({
      kind: fc.constantFrom('anthropic.fallback', 'anthropic.message_start', 'x.y'),
      providerMetadata: maybe(metadataArb),
    })
    .map((b) => clean({ type: 'custom' as const, ...b })),
  'tool-input-start': fc
    .record({
      toolCallId: callId,
      toolName: fc.constantFrom('read', 'shell'),
      providerExecuted: flag,
      providerMetadata: maybe(metadataArb),
      dynamic: flag,
      title: maybe(text),
    })
    .map((b) => clean({ type: 'tool-input-start' as const, ...b })),
  'tool-input-delta': fc
    .record({ toolCallId: callId, delta: text })
    .map((b) => ({ type: 'tool-input-delta' as const, ...b })),
  'tool-call': fc
    .record({
      toolCallId: callId,
      toolName: fc.constantFrom('read', 'shell'),
      input: jsonValueArb,
      providerExecuted: flag,
      providerMetadata: maybe(metadataArb),
      dynamic: flag,
      invalid: flag,
      title: maybe(text),
    })
    .map((b) => clean({ type: 'tool-call' as const, ...b })),
  'tool-progress': fc
    .record({ toolCallId: callId, text: maybe(text), output: maybe(jsonValueArb) })
    .map((b) => clean({ type: 'tool-progress' as const, ...b })),
  'tool-result': fc
    .record({
      toolCallId: callId,
      toolName: maybe(fc.constantFrom('read', 'shell')),
      output: jsonValueArb,
      isError: flag,
      denied: flag,
      providerExecuted: flag,
      providerMetadata: maybe(metadataArb),
    })
    .map((b) => clean({ type: 'tool-result' as const, ...b })),
  'tool-approval-request': fc
    .record({
      toolCallId: callId,
      approvalId,
      reason: maybe(text),
      isAutomatic: flag,
      signature: maybe(text),
    })
    .map((b) => clean({ type: 'tool-approval-request' as const, ...b })),
  'tool-approval-response': fc
    .record({ approvalId, approved: fc.boolean(), reason: maybe(text), toolCallId: maybe(callId) })
    .map((b) => clean({ type: 'tool-approval-response' as const, ...b })),
  source: source.map((s) => ({ type: 'source' as const, source: clean(s) })),
  file: fc
    .record({
      mediaType: fc.constantFrom('image/png', 'text/plain'),
      content: fc.oneof(
        fc.base64String({ maxLength: 8 }).map((data) => ({ data })),
        fc.webUrl().map((url) => ({ url })),
      ),
      filename: maybe(text),
      providerMetadata: maybe(metadataArb),
      reasoning: flag,
    })
    .map(({ content, ...b }) => clean({ type: 'file' as const, ...b, ...content })),
  'steering-message': fc
    .record({ id: fc.constantFrom('s1', 's2'), text, step })
    .map((b) => ({ type: 'steering-message' as const, ...b })),
  error: fc
    .record({
      message: text,
      statusCode: maybe(fc.constantFrom(400, 401, 429, 500, 529)),
      kind: maybe(fc.constantFrom(...ERROR_KINDS)),
      retryable: maybe(fc.boolean()),
      attempts: maybe(fc.constantFrom(2, 3)),
      provider: maybe(fc.constantFrom('anthropic.messages', 'scripted')),
      modelId: maybe(fc.constantFrom('claude-x', 'm')),
    })
    .map((b) => clean({ type: 'error' as const, ...b })),
  system: fc
    .record({
      kind: fc.constantFrom(...SYSTEM_KINDS),
      text,
      dropped: maybe(fc.array(fc.record({ id: text, text }), { minLength: 1, maxLength: 2 })),
    })
    .map((b) => clean({ type: 'system' as const, ...b })),
};

/** Any schema-valid event, of any of the given types (default: all). */
export function chunkEventArb(
  types: readonly ChunkEventType[] = CHUNK_EVENT_TYPES,
): fc.Arbitrary<ChunkEvent> {
  // Through JSON: plain prototypes (fast-check may build null-prototype objects), no undefined.
  return fc
    .oneof(...types.map((t) => byType[t]))
    .map((e) => JSON.parse(JSON.stringify(e)) as ChunkEvent);
}

/** A sequence of schema-valid events, in any order. */
export function chunkEventsArb(
  options: { maxLength?: number; types?: readonly ChunkEventType[] } = {},
): fc.Arbitrary<ChunkEvent[]> {
  return fc.array(chunkEventArb(options.types), { maxLength: options.maxLength ?? 60 });
}

/** The types of events that have nothing to do with tool calls. */
export const NON_TOOL_EVENT_TYPES: readonly ChunkEventType[] = CHUNK_EVENT_TYPES.filter(
  (t) => !t.startsWith('tool-'),
);
