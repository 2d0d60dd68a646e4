import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TOKEN_USAGE_KEYS } from '../../src/schema/usage.js';
import { isExactStepUsage } from '../../src/store/exact-step-usage.js';
import { StepUsageSchema } from '../../src/store/queries/usage.js';

/** Values near the fields of a step usage: in range, out of range, of the wrong kind. */
const valueArb = fc.oneof(
  fc.integer({ min: -2, max: 5 }),
  fc.constantFrom(0.5, -0, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53, 2 ** 53 - 1),
  fc.string({ maxLength: 3 }),
  fc.constantFrom('x'.repeat(64), 'x'.repeat(65), 'x'.repeat(1000), 'x'.repeat(1001)),
  fc.constant(undefined),
  fc.constant(null),
  fc.boolean(),
  fc.constant(new Date(0)),
  fc.constant([1]),
);
const usageArb = fc.oneof(
  fc.dictionary(fc.constantFrom<string>(...TOKEN_USAGE_KEYS, 'other', '__proto__'), valueArb, {
    maxKeys: 4,
  }),
  valueArb,
  fc.constant(Object.create(null) as object),
);
/** Step usages as a session records them. */
const validArb = fc.record(
  {
    step: fc.nat(),
    modelId: fc.string({ maxLength: 20 }),
    finishReason: fc.constantFrom('stop', 'tool-calls', 'length'),
    usage: fc.record(
      {
        inputTokens: fc.nat(),
        outputTokens: fc.nat(),
        totalTokens: fc.nat(),
        reasoningTokens: fc.nat(),
        cacheReadTokens: fc.nat(),
        cacheWriteTokens: fc.nat(),
      },
      { requiredKeys: [], noNullPrototype: true },
    ),
    durationMs: fc.nat(),
  },
  { requiredKeys: ['step', 'usage'], noNullPrototype: true },
);

/** A recorded step usage with one key set to a value near its kind, or one key added. */
const nearArb = fc
  .tuple(
    validArb,
    fc.constantFrom('step', 'modelId', 'finishReason', 'usage', 'durationMs', 'extra', '__proto__'),
    fc.oneof(valueArb, usageArb),
  )
  .map(([value, key, near]) => ({ ...value, [key]: near }));
const stepArb = fc.oneof(
  nearArb,
  fc.record(
    {
      step: valueArb,
      modelId: valueArb,
      finishReason: valueArb,
      usage: usageArb,
      durationMs: valueArb,
      extra: valueArb,
    },
    { requiredKeys: [] },
  ),
  valueArb,
);
describe('isExactStepUsage', () => {
  /** The schema accepts `value` and gives it back unchanged (what the fast path stands for). */
  function expectSchemaKeepsAsIs(value: unknown): void {
    const parsed = StepUsageSchema.safeParse(value);
    expect(parsed.success).toBe(true);
    expect(parsed.data).toStrictEqual(value);
  }

  it('accepts only what the schema accepts and returns unchanged', () => {
    fc.assert(
      fc.property(stepArb, (value) => {
        if (isExactStepUsage(value)) expectSchemaKeepsAsIs(value);
      }),
      { numRuns: 2000 },
    );
  });

  it('accepts the step usages a session records (the fast path is taken)', () => {
    fc.assert(
      fc.property(validArb, (value) => {
        expectSchemaKeepsAsIs(value);
        expect(isExactStepUsage(value)).toBe(true);
      }),
    );
  });

  it('leaves a value of another kind to the schema', () => {
    for (const value of [null, 1, [], new Date(0), Object.create(null)]) {
      expect(isExactStepUsage(value)).toBe(false);
    }
    expect(isExactStepUsage({ step: 0, usage: {}, extra: 1 })).toBe(false);
    expect(isExactStepUsage({ step: 0 })).toBe(false);
    expect(isExactStepUsage(JSON.parse('{"step":0,"usage":{},"__proto__":{}}'))).toBe(false);
  });
});
