// The relays' options are checked when the relay is made, before any connection: each bad value
// is refused with `invalid-option` naming the option (no database or Redis is needed here).
import { describe, expect, it } from 'vitest';
import { ChunklogError } from '../../src/errors/index.js';
import { createPostgresRelay, createRedisRelay } from '../../src/relay/index.js';

/** The code and option of what `make` throws, or 'made' when it does not. */
function refusal(make: () => unknown): unknown {
  try {
    make();
    return 'made';
  } catch (error) {
    return ChunklogError.isInstance(error) ? [error.code, error.option] : String(error);
  }
}

const pool = { query: () => Promise.resolve(), connect: () => Promise.resolve() };
const redis = { call: () => Promise.resolve(), duplicate: () => redis };

describe('createPostgresRelay options', () => {
  it.each([
    ['pool', { pool: {} }],
    ['table', { pool, table: 'Bad-Name' }],
    ['controlTimeoutMs', { pool, controlTimeoutMs: 0 }],
    ['closeDrainMs', { pool, closeDrainMs: -1 }],
    ['closeDrainMs', { pool, closeDrainMs: 1.5 }],
  ])('refuses a bad %s, naming it', (option, options) => {
    expect(refusal(() => createPostgresRelay(options as never))).toEqual([
      'invalid-option',
      option,
    ]);
  });

  it('takes good values', () => {
    expect(
      refusal(() =>
        createPostgresRelay({ pool, closeDrainMs: 250, controlTimeoutMs: 1000 } as never),
      ),
    ).toBe('made');
  });
});

describe('createRedisRelay options', () => {
  it.each([
    ['redis', { redis: { call: () => {} } }],
    ['controlTimeoutMs', { redis, controlTimeoutMs: Number.NaN }],
    ['ttlMs', { redis, ttlMs: 0 }],
    ['prefix', { redis, prefix: '' }],
  ])('refuses a bad %s, naming it', (option, options) => {
    expect(refusal(() => createRedisRelay(options as never))).toEqual(['invalid-option', option]);
  });
});
