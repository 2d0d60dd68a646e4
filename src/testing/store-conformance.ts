// The store conformance kit: the store suite of chunklog, runnable against any setup. It is
// written for vitest but does not import it (vitest refuses `require()`, and chunklog/testing
// must load without it): the test functions come in as an argument, or from the globals.

import { invalidOption, readOptions } from '../errors/invalid-option.js';
import { describeAlternativesSuite } from './store-conformance/alternatives-suite.js';
import {
  type ChunkStoreConformanceOptions,
  type ChunkStoreFactory,
  globalTestApi,
} from './store-conformance/api.js';
import { describeAppendSuite } from './store-conformance/append-suite.js';
import { describeConcurrencySuite } from './store-conformance/concurrency-suite.js';
import { describeForksSuite } from './store-conformance/forks-suite.js';
import { createKit } from './store-conformance/kit.js';
import { describePagesSuite } from './store-conformance/pages-suite.js';
import { describeThreadsSuite } from './store-conformance/threads-suite.js';
import { describeTurnsSuite } from './store-conformance/turns-suite.js';

export type {
  ChunkStoreConformanceOptions,
  ChunkStoreFactory,
  ConformanceAssertion,
  ConformanceTestApi,
} from './store-conformance/api.js';
export { sampleDrafts, textDrafts } from './store-conformance/drafts.js';

/**
 * Declares chunklog's store conformance suite with vitest: invariant 6 of chunklog (dense,
 * strictly increasing seqs per thread under concurrent writers; a turn visible whole or not at
 * all; threads isolated; a turn id appended twice stored once) and the rest of the
 * `ChunkStore` contract (pages both ways, turn lookups, imported timestamps, not-found,
 * validation, truncate, fork, delete, list; forks by reference through chains of forks;
 * alternatives: the branch points and every version `getAlternatives` lists as versions are
 * made, switched to, truncated past and deleted, and its errors). Run it against your own
 * Kysely dialect to prove your setup holds them. Give it tables of its own (a table prefix): it
 * creates threads with random ids and deletes them afterwards.
 *
 * @param name - the suite's name (for example the dialect)
 * @param factory - opens a new store over the database under test, see {@link ChunkStoreFactory}
 * @param options - the test functions (`{ api: vitest }`), concurrency settings, or `skip`
 * @throws {ChunklogError} `missing-dependency` when no test functions are given or global;
 *   `invalid-option` for a malformed argument or option
 *
 * @example
 * ```ts
 * // test/store.test.ts — run with vitest
 * import * as vitest from 'vitest';
 * import { Kysely } from 'kysely';
 * import { LibsqlDialect } from '@libsql/kysely-libsql';
 * import { createChunkStore } from 'chunklog/store';
 * import { describeChunkStore } from 'chunklog/testing';
 *
 * describeChunkStore(
 *   'libSQL',
 *   () =>
 *     createChunkStore(
 *       { db: new Kysely({ dialect: new LibsqlDialect({ url: 'file:test.db' }) }), dialect: 'sqlite' },
 *       { tablePrefix: 'conformance_' },
 *     ),
 *   { api: vitest },
 * );
 * ```
 */
export function describeChunkStore(
  name: string,
  factory: ChunkStoreFactory,
  options: ChunkStoreConformanceOptions = {},
): void {
  checkConformanceArguments(name, factory, options);
  const api = options.api ?? globalTestApi();
  const kit = createKit(api, factory, {
    writers: options.writers ?? 3,
    turnsPerWriter: options.turnsPerWriter ?? 12,
  });
  (options.skip ? api.describe.skip : api.describe)(`chunk store conformance: ${name}`, () => {
    api.beforeAll(() => kit.start());
    api.afterAll(() => kit.finish());
    describeAppendSuite(kit);
    describeConcurrencySuite(kit);
    describePagesSuite(kit);
    describeTurnsSuite(kit);
    describeThreadsSuite(kit);
    describeForksSuite(kit);
    describeAlternativesSuite(kit);
  });
}

function checkConformanceArguments(name: unknown, factory: unknown, options: unknown): void {
  const where = 'describeChunkStore';
  if (typeof name !== 'string') invalidOption(where, 'name', 'the name must be a string', name);
  if (typeof factory !== 'function') {
    invalidOption(where, 'factory', 'the factory must be a function returning a store', factory);
  }
  const o = readOptions(options, where, ['api', 'writers', 'turnsPerWriter', 'skip']);
  for (const option of ['writers', 'turnsPerWriter'] as const) {
    const value = o[option];
    if (value !== undefined && !(Number.isSafeInteger(value) && (value as number) >= 1)) {
      invalidOption(where, option, `\`${option}\` must be a positive integer`, value);
    }
  }
  if (o.skip !== undefined && typeof o.skip !== 'boolean') {
    invalidOption(where, 'skip', '`skip` must be a boolean', o.skip);
  }
  const api = o.api as Record<string, unknown> | undefined;
  if (
    api !== undefined &&
    (typeof api !== 'object' ||
      api === null ||
      ['describe', 'it', 'expect', 'beforeAll', 'afterAll'].some(
        (k) => typeof api[k] !== 'function',
      ))
  ) {
    invalidOption(
      where,
      'api',
      '`api` must hold describe, it, expect, beforeAll and afterAll (pass vitest)',
      api,
    );
  }
}
