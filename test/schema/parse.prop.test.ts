// The parse functions take anything: a value that neither JSON.stringify nor String() can print
// (a null-prototype object holding a BigInt, a cycle) must still give a ChunklogError (parse*)
// or a failed result (safe*), never a raw TypeError from building the error message.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ChunklogError } from '../../src/errors/index.js';
import {
  ChunkEventSchema,
  parseChatMessage,
  parseChunk,
  parseChunkEvent,
  parseChunkPage,
  parseChunkRow,
  parseChunkRowDraft,
  safeParseChunkEvent,
} from '../../src/schema/index.js';

/** A null-prototype object: no toString, no valueOf, no toJSON. */
function bare(entries: Record<string, unknown>): Record<string, unknown> {
  return Object.assign(Object.create(null) as Record<string, unknown>, entries);
}

/** Values neither JSON.stringify nor String() can print. */
const unprintable = fc.oneof(
  fc.bigInt().map((n) => bare({ n })),
  fc.constant(null).map(() => {
    const cycle = bare({ type: 'text-delta' });
    cycle.self = cycle;
    return cycle;
  }),
  fc.constant(null).map(() => {
    const cycle: Record<string, unknown> = { type: 'text', step: 0 };
    cycle.text = cycle;
    return cycle;
  }),
  fc.constant(bare({})),
  fc.bigInt(),
);

const anything = fc.anything({
  withBigInt: true,
  withNullPrototype: true,
  withObjectString: true,
  withBoxedValues: true,
  withMap: true,
  withSet: true,
  withTypedArray: true,
  withSparseArray: true,
  withDate: true,
});

/** Anything, with unprintable values at the top and where a valid-looking value would be. */
const hostile = fc.oneof(
  anything,
  unprintable,
  fc.record({ type: fc.constantFrom('text-delta', 'text', 'turn-start'), text: unprintable }),
  fc.record({ type: fc.constant('text'), step: unprintable, text: fc.string() }),
  fc.record({ turnId: unprintable, step: fc.constant(0), role: fc.constant('user') }),
  fc.record({
    id: fc.constant('m'),
    turnId: fc.constant('t'),
    role: unprintable,
    chunks: unprintable,
  }),
  fc.record({ chunks: fc.array(unprintable, { maxLength: 2 }), total: unprintable }),
  anything.map((v) => bare({ type: 'text-delta', text: v })),
);

const parsers: ReadonlyArray<readonly [string, (value: unknown) => unknown]> = [
  ['parseChunkEvent', parseChunkEvent],
  ['parseChunk', parseChunk],
  ['parseChunkRow', parseChunkRow],
  ['parseChunkRowDraft', parseChunkRowDraft],
  ['parseChatMessage', parseChatMessage],
  ['parseChunkPage', parseChunkPage],
];

describe('parse functions over hostile values', () => {
  it('property: parse* returns or throws a ChunklogError, never anything else, for any value', () => {
    fc.assert(
      fc.property(hostile, (value) => {
        for (const [, parse] of parsers) {
          try {
            parse(value);
          } catch (error) {
            if (!ChunklogError.isInstance(error)) return false;
            if (typeof error.message !== 'string' || error.message.length === 0) return false;
          }
        }
        return true;
      }),
      { numRuns: 400 },
    );
  });

  it('property: safeParseChunkEvent never throws and fails with invalid-event on a non-event', () => {
    fc.assert(
      fc.property(hostile, (value) => {
        const result = safeParseChunkEvent(value);
        return (
          result.success || (result.error.code === 'invalid-event' && result.error.message !== '')
        );
      }),
      { numRuns: 400 },
    );
  });

  it('property: parseChunkEvent accepts and refuses what the schema does, delta-shaped values included (its hand check of deltas agrees with zod)', () => {
    const deltaLike = fc.record(
      {
        type: fc.constantFrom('text-delta', 'reasoning-delta', 'text-start'),
        id: fc.oneof(fc.string(), fc.constant(undefined), fc.integer()),
        text: fc.oneof(fc.string(), fc.integer(), fc.constant(undefined)),
        extra: fc.string(),
        providerMetadata: fc.constant({ anthropic: { signature: 's' } }),
      },
      { requiredKeys: ['type'] },
    );
    fc.assert(
      fc.property(deltaLike, (value) => {
        const zod = ChunkEventSchema.safeParse(value);
        let ours: unknown;
        try {
          ours = parseChunkEvent(value);
        } catch (error) {
          expect((error as ChunklogError).code).toBe('invalid-event');
          ours = undefined;
        }
        expect(ours !== undefined).toBe(zod.success);
        if (zod.success) expect(ours).toStrictEqual(zod.data);
      }),
      { numRuns: 500 },
    );
  });

  it('names the value it could not print', () => {
    const result = safeParseChunkEvent({ type: 'text-delta', text: bare({ big: 10n }) });
    expect(result.success).toBe(false);
    if (!result.success) expect(result.error.message).toMatch(/at text: .*\(got \{"big":"10n"\}\)/);
    const cycle: Record<string, unknown> = { type: 'text', step: 0 };
    cycle.text = cycle;
    let caught: unknown;
    try {
      parseChunk(cycle);
    } catch (error) {
      caught = error;
    }
    expect(ChunklogError.hasCode(caught, 'invalid-chunk')).toBe(true);
    expect((caught as Error).message).toMatch(/\[Circular\]/);
  });
});
