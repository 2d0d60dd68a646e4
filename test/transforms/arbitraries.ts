// fast-check arbitraries of chunks and turns shaped like the reducer's output: steps never go
// backwards within a turn, a tool-batch has at least one call, call ids are unique within a turn,
// optional fields are absent rather than undefined, and everything is plain JSON.
import fc from 'fast-check';
import {
  type Chunk,
  ERROR_KINDS,
  type JSONValue,
  type ProviderMetadata,
  type SystemKind,
  type ToolCallEntry,
} from '../../src/schema/index.js';

const json: fc.Arbitrary<JSONValue> = fc.jsonValue({ maxDepth: 2 }).map(
  // -0 is not JSON-stable; normalise it so comparisons after JSON round trips hold.
  (v) => JSON.parse(JSON.stringify(v)) as JSONValue,
);

const word = fc.string({ minLength: 0, maxLength: 12 });
const id = fc.string({ minLength: 1, maxLength: 8 });

/** `{ provider: { key: json } }`. */
export const providerMetadataArb: fc.Arbitrary<ProviderMetadata> = fc.dictionary(
  fc.constantFrom('anthropic', 'openai', 'google'),
  fc.dictionary(fc.constantFrom('signature', 'itemId', 'redactedData', 'x'), json, {
    maxKeys: 2,
  }),
  { minKeys: 1, maxKeys: 2 },
);

function optional<T>(arb: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> {
  return fc.option(arb, { nil: undefined, freq: 2 });
}

/** A deep copy with plain prototypes (fast-check records have a null prototype). */
export function plain<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

/** Drops keys whose value is undefined (chunks never carry undefined members). */
export function compact<T extends object>(value: T): T {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) if (v !== undefined) out[k] = v;
  return out as T;
}

const systemKind: fc.Arbitrary<SystemKind> = fc.constantFrom(
  'notice',
  'model-changed',
  'config-reload',
  'cancelled',
  'interrupted',
  'resumed',
  'redacted',
);

/** A tool call entry with the given id. */
export function toolCallEntryArb(callId: string): fc.Arbitrary<ToolCallEntry> {
  return fc
    .record({
      name: word,
      input: optional(json),
      inputText: optional(word),
      result: optional(json),
      isError: optional(fc.boolean()),
      denied: optional(fc.boolean()),
      progress: optional(word),
      preliminary: optional(json),
      resultProviderMetadata: optional(providerMetadataArb),
      providerExecuted: optional(fc.boolean()),
      providerMetadata: optional(providerMetadataArb),
      dynamic: optional(fc.boolean()),
      invalid: optional(fc.boolean()),
      title: optional(word),
      approval: optional(
        fc
          .record({
            id,
            approved: optional(fc.boolean()),
            reason: optional(word),
            isAutomatic: optional(fc.boolean()),
          })
          .map(compact),
      ),
      orphan: optional(fc.constant(true)),
    })
    .map((entry) => compact({ id: callId, ...entry }));
}

type ChunkShape = Chunk extends infer C ? (C extends Chunk ? Omit<C, 'step'> : never) : never;

/** A chunk body without its step; tool-batches get call ids from `nextCallId`. */
function chunkBodyArb(nextCallId: () => string): fc.Arbitrary<ChunkShape> {
  return fc.oneof(
    {
      weight: 4,
      arbitrary: fc
        .record({
          type: fc.constant('text' as const),
          text: word,
          id: optional(id),
          providerMetadata: optional(providerMetadataArb),
        })
        .map(compact),
    },
    {
      weight: 3,
      arbitrary: fc
        .record({
          type: fc.constant('thinking' as const),
          text: word,
          id: optional(id),
          providerMetadata: optional(providerMetadataArb),
          modelId: optional(fc.constantFrom('model-a', 'model-b')),
        })
        .map(compact),
    },
    {
      weight: 3,
      arbitrary: fc
        .integer({ min: 1, max: 3 })
        .chain((n) => fc.tuple(...Array.from({ length: n }, () => toolCallEntryArb(nextCallId()))))
        .map((calls) => ({ type: 'tool-batch' as const, calls })),
    },
    {
      weight: 1,
      arbitrary: fc
        .record({
          type: fc.constant('error' as const),
          message: word,
          statusCode: optional(fc.integer({ min: 400, max: 599 })),
          kind: optional(fc.constantFrom(...ERROR_KINDS)),
          retryable: optional(fc.boolean()),
          attempts: optional(fc.integer({ min: 1, max: 5 })),
          provider: optional(fc.constantFrom('anthropic.messages', 'openai.responses')),
          modelId: optional(word),
        })
        .map(compact),
    },
    {
      weight: 1,
      arbitrary: fc.record({ type: fc.constant('system' as const), kind: systemKind, text: word }),
    },
    {
      weight: 1,
      arbitrary: fc.record({
        type: fc.constant('system' as const),
        kind: fc.constant('cancelled' as const),
        text: word,
        dropped: fc.array(
          fc.record({ id: word, text: word }).map((d) => ({ ...d })),
          { minLength: 1, maxLength: 2 },
        ),
      }),
    },
    {
      weight: 1,
      arbitrary: fc.record({
        type: fc.constant('system' as const),
        kind: fc.constant('redacted' as const),
        text: word,
        redaction: fc.record({
          counts: fc.dictionary(
            fc.constantFrom('email', 'api-key', 'card-number'),
            fc.nat(9).map((n) => n + 1),
            {
              minKeys: 1,
            },
          ),
        }),
      }),
    },
    { weight: 1, arbitrary: fc.record({ type: fc.constant('steering' as const), id, text: word }) },
    {
      weight: 1,
      arbitrary: fc.record({
        type: fc.constant('source' as const),
        source: fc.record({
          sourceType: fc.constant('url' as const),
          id,
          url: fc.constant('https://example.com/a'),
        }),
      }),
    },
    {
      weight: 1,
      arbitrary: fc
        .record({
          type: fc.constant('file' as const),
          mediaType: fc.constantFrom('image/png', 'text/plain'),
          filename: optional(word),
          reasoning: optional(fc.boolean()),
          inline: fc.boolean(),
        })
        .map(({ inline, ...f }) =>
          compact(inline ? { ...f, data: 'AAAA' } : { ...f, url: 'https://example.com/f.png' }),
        ),
    },
    {
      weight: 1,
      arbitrary: fc
        .record({
          type: fc.constant('custom' as const),
          kind: fc.constantFrom('anthropic.fallback', 'anthropic.message_start', 'x.y'),
          providerMetadata: optional(providerMetadataArb),
        })
        .map(compact),
    },
  );
}

/**
 * The chunks of one assistant turn as the reducer produces them: steps non-decreasing from 0,
 * tool-batches with unique call ids (prefixed with `prefix`).
 */
export function assistantChunksArb(prefix = 'c', maxLength = 10): fc.Arbitrary<Chunk[]> {
  return fc
    .array(fc.tuple(fc.integer({ min: 0, max: 4 }), fc.boolean()), { maxLength })
    .chain((shape) => {
      let n = 0;
      const nextCallId = () => `${prefix}${n++}`;
      return fc.tuple(...shape.map(() => chunkBodyArb(nextCallId))).map((bodies) => {
        let step = 0;
        return plain(
          bodies.map((body, i) => {
            if ((shape[i] as [number, boolean])[1]) step += 1;
            return { ...body, step } as Chunk;
          }),
        );
      });
    });
}

/** The chunks of a user message: text and files, step 0. */
export const userChunksArb: fc.Arbitrary<Chunk[]> = fc
  .array(
    fc.oneof(
      fc.record({ type: fc.constant('text' as const), step: fc.constant(0), text: word }),
      fc.record({
        type: fc.constant('file' as const),
        step: fc.constant(0),
        mediaType: fc.constant('image/png'),
        data: fc.constant('AAAA'),
      }),
    ),
    { minLength: 1, maxLength: 3 },
  )
  .map(plain);

/** One turn of a thread: a user message and the assistant's answer, or a system-only turn. */
export type TurnSpec =
  | {
      readonly kind: 'exchange';
      readonly turnId: string;
      readonly user: Chunk[];
      readonly assistant: Chunk[];
    }
  | { readonly kind: 'system'; readonly turnId: string; readonly chunks: Chunk[] };

/** A thread of turns with unique turn ids. */
export function threadArb(maxTurns = 6): fc.Arbitrary<TurnSpec[]> {
  return fc.array(fc.boolean(), { minLength: 1, maxLength: maxTurns }).chain((kinds) =>
    fc.tuple(
      ...kinds.map((isSystem, i): fc.Arbitrary<TurnSpec> => {
        const turnId = `t${i}`;
        if (isSystem) {
          return fc
            .array(
              fc.record({
                type: fc.constant('system' as const),
                step: fc.constant(0),
                kind: systemKind,
                text: word,
              }),
              { minLength: 1, maxLength: 2 },
            )
            .map((chunks) => ({ kind: 'system', turnId, chunks: plain(chunks) }));
        }
        return fc
          .tuple(userChunksArb, assistantChunksArb(`${turnId}c`, 8))
          .map(([user, assistant]) => ({ kind: 'exchange', turnId, user, assistant }));
      }),
    ),
  );
}
