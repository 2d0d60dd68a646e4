// The conformance kit: the test functions it is given, and its options.
import { ChunklogError } from '../../errors/chunklog-error.js';
import type { ChunkStore } from '../../store/types.js';

/**
 * Opens a store for the conformance kit. Each call must return a new store (a new connection or
 * pool) over the same database, so that the kit can write from several at once. The kit calls
 * `migrate()` on every store it opens and `close()` when it is done with it.
 */
export type ChunkStoreFactory = () => ChunkStore | Promise<ChunkStore>;

/** The matchers the kit uses, as vitest's (and Jest's) `expect` provides them. */
export interface ConformanceAssertion {
  toBe(expected: unknown): void;
  toEqual(expected: unknown): void;
  toStrictEqual(expected: unknown): void;
  toMatchObject(expected: object): void;
  toHaveLength(length: number): void;
  toBeUndefined(): void;
  toBeNull(): void;
  toMatch(expected: RegExp): void;
  toBeLessThanOrEqual(expected: number): void;
}

/**
 * The test functions the kit declares its suite with: vitest's (pass `import * as vitest from
 * 'vitest'`), or any runner with the same `describe`/`it`/`expect`/`beforeAll`/`afterAll`.
 */
export interface ConformanceTestApi {
  readonly describe: ((name: string, body: () => void) => void) & {
    readonly skip: (name: string, body: () => void) => void;
  };
  readonly it: (name: string, body: () => Promise<void>, timeout?: number) => void;
  readonly expect: (actual: unknown, message?: string) => ConformanceAssertion;
  readonly beforeAll: (body: () => Promise<void>) => void;
  readonly afterAll: (body: () => Promise<void>) => void;
}

/** Options of {@link describeChunkStore}. */
export interface ChunkStoreConformanceOptions {
  /**
   * The test functions: `import * as vitest from 'vitest'` and pass `vitest`. Default: the
   * global `describe`, `it`, `expect`, `beforeAll` and `afterAll` (vitest with `globals: true`,
   * Jest).
   */
  readonly api?: ConformanceTestApi | undefined;
  /** How many stores write at once in the concurrency tests. Default 3. */
  readonly writers?: number | undefined;
  /** How many turns each writer appends in the concurrency tests. Default 12. */
  readonly turnsPerWriter?: number | undefined;
  /** Skip the whole suite (for example when the database is not reachable). */
  readonly skip?: boolean | undefined;
}

/** The test functions from the globals (vitest with `globals: true`, Jest). */
export function globalTestApi(): ConformanceTestApi {
  const g = globalThis as Partial<Record<keyof ConformanceTestApi, unknown>>;
  if (
    typeof g.describe !== 'function' ||
    typeof g.it !== 'function' ||
    typeof g.expect !== 'function' ||
    typeof g.beforeAll !== 'function' ||
    typeof g.afterAll !== 'function'
  ) {
    throw new ChunklogError(
      'missing-dependency',
      "describeChunkStore needs a test runner: `import * as vitest from 'vitest'` and pass { api: vitest } (or enable vitest's globals).",
    );
  }
  return g as unknown as ConformanceTestApi;
}
