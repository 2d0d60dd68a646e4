import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { foldTurn } from '../../src/reducer/index.js';
import {
  ChunkRowDraftSchema,
  type ChunkRowType,
  RowDataSchemas,
} from '../../src/schema/chunk-row.js';
import { exactDraft, rowDataIsExact } from '../../src/schema/row-data-check.js';
import { explodeTurn } from '../../src/transforms/explode-turn.js';
import { chunkEventsArb, jsonValueArb, metadataArb } from '../support/event-arbitraries.js';

const TYPES = Object.keys(RowDataSchemas) as ChunkRowType[];

/** Values near the shapes of row data: right fields, wrong fields, missing and extra ones. */
const fieldValueArb = fc.oneof(
  fc.string({ maxLength: 4 }),
  fc.constantFrom('notice', 'model-changed', 'cancelled', 'other', ''),
  fc.integer({ min: -3, max: 3 }),
  fc.constantFrom(0.5, Number.NaN, 2 ** 60, -0),
  fc.boolean(),
  fc.constant(null),
  fc.constant(undefined),
  jsonValueArb,
  metadataArb,
  fc.record({ id: fc.string({ maxLength: 3 }), approved: fc.boolean() }, { requiredKeys: ['id'] }),
  fc.constant(new Date(0)),
  fc.constant({ anthropic: { at: new Date(0) } }),
);
const KEYS = [
  'text',
  'id',
  'providerMetadata',
  'modelId',
  'name',
  'index',
  'input',
  'inputText',
  'callId',
  'result',
  'isError',
  'denied',
  'progress',
  'preliminary',
  'resultProviderMetadata',
  'deferred',
  'providerExecuted',
  'dynamic',
  'invalid',
  'title',
  'approval',
  'orphan',
  'message',
  'statusCode',
  'kind',
  'data',
  'mediaType',
  'url',
  'citations',
  'source',
  'extra',
  '__proto__',
];
const dataArb = fc.dictionary(fc.constantFrom(...KEYS), fieldValueArb, { maxKeys: 6 });

/** What zod says of `data`: accepted unchanged (deeply equal), or not. */
function zodKeepsIt(type: ChunkRowType, data: unknown): boolean {
  const parsed = RowDataSchemas[type].safeParse(data);
  if (!parsed.success) return false;
  try {
    expect(parsed.data).toStrictEqual(data);
    return true;
  } catch {
    return false;
  }
}

describe('rowDataIsExact', () => {
  it('accepts data only when zod accepts it and returns it unchanged', () => {
    fc.assert(
      fc.property(fc.constantFrom(...TYPES), dataArb, (type, data) => {
        if (rowDataIsExact(type, data)) expect(zodKeepsIt(type, data)).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });

  it('has no verdict for a type it does not know (an inherited name included)', () => {
    for (const type of ['toString', '__proto__', 'constructor', 'bogus']) {
      expect(rowDataIsExact(type as ChunkRowType, { text: 'x' })).toBe(false);
    }
  });

  it('accepts exactly what zod accepts unchanged, for the data of every row a turn stores', () => {
    fc.assert(
      fc.property(chunkEventsArb(), (events) => {
        const { chunks } = foldTurn(events);
        for (const draft of explodeTurn('t', chunks, { role: 'assistant' })) {
          // As the store reads it back: through JSON.
          const data: unknown = JSON.parse(JSON.stringify(draft.data));
          const exact = rowDataIsExact(draft.type, data);
          // Source and file rows, text with citations and a cut's truncation record are left to zod.
          const handChecked =
            !['source', 'file'].includes(draft.type) &&
            !('citations' in (data as object)) &&
            !('truncation' in (data as object));
          expect(exact).toBe(handChecked && zodKeepsIt(draft.type, data));
        }
      }),
      { numRuns: 300 },
    );
  });
});

/** Values near the shape of a row draft: right fields, wrong fields, missing and extra ones. */
const draftArb = fc
  .record(
    {
      turnId: fc.constantFrom('t1', 'turn-2', '', 7),
      step: fc.constantFrom(0, 1, 7, -1, 0.5, Number.NaN, 2 ** 60, '1'),
      role: fc.constantFrom('user', 'assistant', 'tool', 'system', 'admin'),
      // Mostly a type with data of its shape, sometimes anything near one.
      typed: fc.oneof(
        {
          weight: 3,
          arbitrary: fc.constantFrom(
            ['text', { text: 'hi' }],
            ['thinking', { text: 'hm', providerMetadata: { anthropic: { signature: 's' } } }],
            ['tool_call', { id: 'c', name: 'f', index: 0, input: { a: 1 } }],
            ['tool_result', { callId: 'c', name: 'f', result: 'ok' }],
            ['system', { kind: 'notice', text: 'n' }],
          ),
        },
        { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...TYPES, 'bogus'), dataArb) },
      ),
      // What else may be wrong with it.
      fault: fc.constantFrom('none', 'none', 'none', 'missing', 'extra', 'null-prototype'),
      missing: fc.constantFrom('turnId', 'step', 'role', 'type', 'data'),
    },
    { noNullPrototype: true },
  )
  .map(({ turnId, step, role, typed, fault, missing }) => {
    const draft: Record<string, unknown> = { turnId, step, role, type: typed[0], data: typed[1] };
    if (fault === 'missing') delete draft[missing];
    if (fault === 'extra') draft.seq = 3;
    return fault === 'null-prototype' ? Object.assign(Object.create(null), draft) : draft;
  });

describe('exactDraft', () => {
  it('returns a draft only when zod accepts the value and returns an equal one', () => {
    let taken = 0;
    fc.assert(
      fc.property(draftArb, (value) => {
        const exact = exactDraft(value);
        if (exact === undefined) return;
        taken++;
        const parsed = ChunkRowDraftSchema.safeParse(value);
        expect(parsed.success).toBe(true);
        expect(exact).toStrictEqual(parsed.data);
      }),
      { numRuns: 5000 },
    );
    // The values reach the fast path often enough for the property to say something.
    expect(taken).toBeGreaterThan(50);
  });

  it('takes every draft explodeTurn makes, bar those left to zod, and returns it equal', () => {
    fc.assert(
      fc.property(chunkEventsArb(), (events) => {
        const { chunks } = foldTurn(events);
        for (const draft of explodeTurn('t', chunks, { role: 'assistant' })) {
          const value: unknown = JSON.parse(JSON.stringify(draft));
          const handChecked =
            !['source', 'file'].includes(draft.type) &&
            !('citations' in (draft.data as object)) &&
            !('truncation' in (draft.data as object));
          const exact = exactDraft(value);
          expect(exact !== undefined).toBe(handChecked && zodKeepsIt(draft.type, draft.data));
          if (exact !== undefined) expect(exact).toStrictEqual(ChunkRowDraftSchema.parse(value));
        }
      }),
      { numRuns: 300 },
    );
  });
});
