// The relays' options are checked when the relay is made, before any connection: each bad value
// is refused with `invalid-option` naming the option (no database or Redis is needed here).
import { describe, expect, it } from 'vitest';
import { ChunklogError } from '../../src/errors/index.js';
import {
  createInProcessRelay,
  createPostgresRelay,
  createRedisRelay,
} from '../../src/relay/index.js';

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

// A misspelt option is refused rather than ignored: `prefx` would leave the default prefix, and
// two apps on one Redis would share events and control.
describe('unknown relay options', () => {
  it.each([
    ['createRedisRelay', () => createRedisRelay({ redis, prefx: 'x' } as never), 'prefx', 'prefix'],
    ['createPostgresRelay', () => createPostgresRelay({ pool, ttlMs: 5 } as never), 'ttlMs', ''],
    [
      'createPostgresRelay',
      () => createPostgresRelay({ pool, tabl: 'x' } as never),
      'tabl',
      'table',
    ],
    [
      'createInProcessRelay',
      () => createInProcessRelay({ replayLimt: 5 } as never),
      'replayLimt',
      'replayLimit',
    ],
  ])('%s refuses %s, naming it', (where, make, option, meant) => {
    let thrown: unknown;
    try {
      make();
    } catch (error) {
      thrown = error;
    }
    expect(ChunklogError.isInstance(thrown)).toBe(true);
    const error = thrown as ChunklogError;
    expect([error.code, error.option]).toEqual(['invalid-option', option]);
    expect(error.message).toContain(`${where}: unknown option \`${option}\``);
    if (meant !== '') expect(error.message).toContain(`did you mean \`${meant}\`?`);
  });

  it('takes every known option', () => {
    const onError = () => {};
    expect(
      refusal(() =>
        createRedisRelay({ redis, prefix: 'p', controlTimeoutMs: 1, ttlMs: 1, onError } as never),
      ),
    ).toBe('made');
    expect(
      refusal(() =>
        createPostgresRelay({
          pool,
          table: 't',
          controlTimeoutMs: 1,
          closeDrainMs: 1,
          onError,
        } as never),
      ),
    ).toBe('made');
    expect(refusal(() => createInProcessRelay({ replayLimit: 1, onListenerError: onError }))).toBe(
      'made',
    );
    expect(refusal(() => createInProcessRelay())).toBe('made');
  });

  it('refuses options that are not an object', () => {
    expect(refusal(() => createRedisRelay('redis://x' as never))).toEqual([
      'invalid-option',
      'options',
    ]);
  });
});
