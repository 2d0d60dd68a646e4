// The public `…Schema` exports are classic zod views of the `zod/mini` definitions chunklog
// validates with: for any value they must say what the definition says (success, output,
// issues), and keep classic zod's methods and JSON Schema.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import type { ZodMiniType } from 'zod/mini';
import { foldTurn } from '../../src/reducer/index.js';
import { chatMessageMini } from '../../src/schema/chat-message.js';
import { chunkEventMini } from '../../src/schema/chunk-event.js';
import { chunkPageMini } from '../../src/schema/chunk-page.js';
import { chunkRowDraftMini, chunkRowMini } from '../../src/schema/chunk-row.js';
import { chunkMini, rowDataMini } from '../../src/schema/chunk-schemas.js';
import {
  CHUNK_ROW_TYPES,
  ChatMessageSchema,
  type ChunkEvent,
  ChunkEventSchema,
  ChunkPageSchema,
  type ChunkRow,
  ChunkRowDraftSchema,
  ChunkRowSchema,
  ChunkSchema,
  JsonValueSchema,
  RowDataSchemas,
  TokenUsageSchema,
  TurnStatusSchema,
} from '../../src/schema/index.js';
import { jsonValueMini } from '../../src/schema/json.js';
import { turnStatusMini } from '../../src/schema/turn-status.js';
import { tokenUsageMini } from '../../src/schema/usage.js';
import { explodeTurn, groupRowsToMessages } from '../../src/transforms/index.js';
import { chunkEventsArb } from '../support/event-arbitraries.js';

/** Plain JSON values as a page, a row or an event arrives over HTTP. */
const json = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

const turnArb = chunkEventsArb({ maxLength: 30 }).map((events) => {
  const chunks = foldTurn(events).chunks;
  const drafts = explodeTurn('t1', chunks, { role: 'assistant' });
  const rows: ChunkRow[] = drafts.map((draft, i) => ({ ...draft, threadId: 'th', seq: i + 1 }));
  return json({ events, chunks, drafts, rows });
});

/** A value, a value with one top-level field replaced or removed, or anything at all. */
function around(valid: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  const broken = fc
    .tuple(valid, fc.nat(), fc.option(fc.anything(), { nil: undefined }))
    .map(([value, pick, replacement]) => {
      if (typeof value !== 'object' || value === null) return replacement;
      const copy: Record<string, unknown> = { ...(value as Record<string, unknown>) };
      const keys = Object.keys(copy);
      const key = keys[pick % Math.max(keys.length, 1)] ?? 'type';
      if (replacement === undefined) delete copy[key];
      else copy[key] = replacement;
      return copy;
    });
  return fc.oneof(valid, broken, fc.anything());
}

const pick = <T>(list: readonly T[]): fc.Arbitrary<T | undefined> =>
  fc.nat().map((i) => list[i % Math.max(list.length, 1)]);

const pairs: ReadonlyArray<
  readonly [name: string, classic: z.ZodType, mini: ZodMiniType, values: fc.Arbitrary<unknown>]
> = [
  ['ChunkEventSchema', ChunkEventSchema, chunkEventMini, turnArb.chain((t) => pick(t.events))],
  ['ChunkSchema', ChunkSchema, chunkMini, turnArb.chain((t) => pick(t.chunks))],
  [
    'ChunkRowDraftSchema',
    ChunkRowDraftSchema,
    chunkRowDraftMini,
    turnArb.chain((t) => pick(t.drafts)),
  ],
  ['ChunkRowSchema', ChunkRowSchema, chunkRowMini, turnArb.chain((t) => pick(t.rows))],
  [
    'ChatMessageSchema',
    ChatMessageSchema,
    chatMessageMini,
    turnArb.chain((t) => pick(json(groupRowsToMessages(t.rows)))),
  ],
  [
    'ChunkPageSchema',
    ChunkPageSchema,
    chunkPageMini,
    turnArb.map((t) => ({
      chunks: t.rows,
      total: t.rows.length,
      oldestSeq: t.rows[0]?.seq ?? null,
      hasMore: false,
    })),
  ],
  [
    'TokenUsageSchema',
    TokenUsageSchema,
    tokenUsageMini,
    fc.record({ inputTokens: fc.nat(), outputTokens: fc.nat() }, { requiredKeys: [] }),
  ],
  ['TurnStatusSchema', TurnStatusSchema, turnStatusMini, fc.constantFrom('running', 'failed')],
  ['JsonValueSchema', JsonValueSchema, jsonValueMini, fc.jsonValue()],
  ...CHUNK_ROW_TYPES.map(
    (type) =>
      [
        `RowDataSchemas.${type}`,
        RowDataSchemas[type],
        rowDataMini[type],
        turnArb.chain((t) => pick(t.drafts.filter((d) => d.type === type).map((d) => d.data))),
      ] as const,
  ),
];

describe('the public schemas are classic zod views of the zod/mini definitions', () => {
  it.each(pairs)(
    '%s says what its definition says of any value (success, output, issues)',
    (_name, classic, mini, values) => {
      fc.assert(
        fc.property(around(values), (value) => {
          const viewed = classic.safeParse(value);
          const defined = mini.safeParse(value);
          expect(viewed.success).toBe(defined.success);
          if (viewed.success) expect(viewed.data).toStrictEqual(defined.data);
          else expect(viewed.error.issues).toEqual(defined.error?.issues);
        }),
        { numRuns: 150 },
      );
    },
  );

  it.each(pairs)(
    '%s is a classic zod schema with the JSON Schema of its definition',
    (_name, classic, mini) => {
      expect(classic).toBeInstanceOf(z.ZodType);
      for (const io of ['input', 'output'] as const) {
        expect(z.toJSONSchema(classic, { io })).toEqual(z.toJSONSchema(mini, { io }));
      }
    },
  );

  it("keeps classic zod's methods and composes with classic schemas", () => {
    const event: ChunkEvent = { type: 'text-delta', text: 'hi' };
    expect(ChunkEventSchema.optional().parse(undefined)).toBeUndefined();
    expect(ChunkEventSchema.array().parse([event])).toStrictEqual([event]);
    expect(z.object({ event: ChunkEventSchema }).parse({ event, extra: 1 })).toStrictEqual({
      event,
    });
    const counts = TokenUsageSchema.pipe(z.record(z.string(), z.number()));
    expect(counts.parse({ inputTokens: 3, unknown: 'dropped' })).toStrictEqual({ inputTokens: 3 });
    expect(z.object({ event: ChunkEventSchema }).safeParse({}).error?.issues[0]?.path).toEqual([
      'event',
    ]);
  });
});
