import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { foldTurn } from '../../src/reducer/index.js';
import { type ChunkRowType, RowDataSchemas } from '../../src/schema/chunk-row.js';
import { parseChunkRowDraft } from '../../src/schema/parse.js';
import { rowDataIsExact } from '../../src/schema/row-data-check.js';
import { exactDraft } from '../../src/transforms/exact-row.js';
import { explodeTurn } from '../../src/transforms/explode-turn.js';
import { chunkEventsArb, jsonValueArb, metadataArb } from '../support/event-arbitraries.js';

const TYPES = Object.keys(RowDataSchemas) as ChunkRowType[];

/** Values near the shapes of row data: right fields, wrong fields, missing and extra ones. */
const fieldValueArb = fc.oneof(
  fc.string({ maxLength: 4 }),
  fc.constantFrom('notice', 'model-changed', 'cancelled', 'other', ''),
  fc.constantFrom('auth', 'network', 'rate-limit', 'server'),
  fc.integer({ min: -3, max: 3 }),
  fc.constantFrom(0.5, Number.NaN, 2 ** 60, -0),
  fc.boolean(),
  fc.constant(null),
  fc.constant(undefined),
  jsonValueArb,
  metadataArb,
  fc.record({ id: fc.string({ maxLength: 3 }), approved: fc.boolean() }, { requiredKeys: ['id'] }),
  fc.array(
    fc.record(
      { id: fc.string({ maxLength: 3 }), text: fc.string({ maxLength: 3 }) },
      {
        requiredKeys: ['id'],
      },
    ),
    { maxLength: 2 },
  ),
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
  'retryable',
  'attempts',
  'provider',
  'data',
  'dropped',
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

/** The type and data of real rows: a turn with every common row type. */
const REAL = [
  ...explodeTurn('t', [{ type: 'text', step: 0, text: 'Hi' }], { role: 'user' }),
  ...explodeTurn(
    't',
    [
      {
        type: 'thinking',
        step: 0,
        text: 'hmm',
        providerMetadata: { anthropic: { signature: 's' } },
      },
      {
        type: 'tool-batch',
        step: 0,
        calls: [{ id: 'c1', name: 'read', input: { path: 'a' }, result: 'x', isError: false }],
      },
      { type: 'error', step: 1, message: 'boom' },
      { type: 'text', step: 1, text: 'done' },
    ],
    { role: 'assistant' },
  ),
].map((d) => ({ type: d.type, data: d.data }));

/** Objects near the shape of a row draft: its fields right or wrong, extra fields, any data. */
const draftLikeArb = fc
  .tuple(
    fc.record(
      {
        turnId: fc.oneof(fc.constantFrom('t1', '', 'turn-2'), fc.integer(), fc.constant(undefined)),
        step: fc.oneof(fc.constantFrom(0, 1, 7), fieldValueArb),
        role: fc.oneof(fc.constantFrom('user', 'assistant', 'tool', 'system'), fieldValueArb),
        seq: fieldValueArb,
        id: fc.string({ maxLength: 3 }),
      },
      { requiredKeys: ['turnId', 'step', 'role'] },
    ),
    fc.oneof(
      fc.constantFrom(...REAL),
      fc.record({
        type: fc.oneof(fc.constantFrom(...TYPES), fc.constantFrom('bogus', 'toString')),
        data: fc.oneof(dataArb, fieldValueArb),
      }),
    ),
  )
  .map(([fields, row]) => ({ ...fields, ...row }));

describe('exactDraft', () => {
  it('passes a draft only as exactly what parseChunkRowDraft returns for it (extra fields stripped)', () => {
    let passed = 0;
    fc.assert(
      fc.property(draftLikeArb, (value) => {
        const exact = exactDraft(value);
        if (exact === undefined) return;
        passed += 1;
        expect(exact).toStrictEqual(parseChunkRowDraft(value));
      }),
      { numRuns: 3000 },
    );
    // The property is not vacuous: valid drafts do come through the hand check.
    expect(passed).toBeGreaterThan(50);
  });

  it('passes the drafts of every turn the reducer folds, unchanged', () => {
    fc.assert(
      fc.property(chunkEventsArb(), (events) => {
        const { chunks } = foldTurn(events);
        for (const draft of explodeTurn('t', chunks, { role: 'assistant' })) {
          const exact = exactDraft(draft);
          if (exact !== undefined) expect(exact).toStrictEqual(parseChunkRowDraft(draft));
          else expect(rowDataIsExact(draft.type, draft.data)).toBe(false);
        }
      }),
      { numRuns: 200 },
    );
  });
});
