// The store conformance kit: the store suite of chunklog, runnable against any setup. It is
// written for vitest but does not import it (vitest refuses `require()`, and chunklog/testing
// must load without it): the test functions come in as an argument, or from the globals.
import { ChunklogError, type ChunklogErrorCode } from '../errors/chunklog-error.js';
import type { ChunkRow, ChunkRowDraft } from '../schema/chunk-row.js';
import type { ChunkStore } from '../store/types.js';

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

/**
 * A draft of each row type, with awkward but valid content (unicode, nested JSON, metadata).
 *
 * @example
 * ```ts
 * await store.appendTurn('t', sampleDrafts('turn-1'));
 * ```
 */
export function sampleDrafts(turnId: string, extra = ''): ChunkRowDraft[] {
  return [
    { turnId, step: 0, role: 'user', type: 'text', data: { text: `Hello ${extra} — ünïcödé 🎉` } },
    {
      turnId,
      step: 0,
      role: 'assistant',
      type: 'thinking',
      data: {
        text: 'thinking…',
        providerMetadata: { anthropic: { signature: 'sig==', nested: { a: [1, 2.5, null] } } },
        modelId: 'model-1',
      },
    },
    {
      turnId,
      step: 0,
      role: 'assistant',
      type: 'tool_call',
      data: { id: 'call-1', name: 'search', index: 0, input: { q: 'x', n: 3, deep: { t: true } } },
    },
    {
      turnId,
      step: 0,
      role: 'tool',
      type: 'tool_result',
      data: { callId: 'call-1', name: 'search', result: ['a', { b: -1e-7 }], progress: 'line\n' },
    },
    { turnId, step: 1, role: 'assistant', type: 'text', data: { text: 'Done.', id: 'b1' } },
    {
      turnId,
      step: 1,
      role: 'assistant',
      type: 'error',
      data: { message: 'overloaded', statusCode: 529 },
    },
    { turnId, step: 1, role: 'assistant', type: 'system', data: { kind: 'notice', text: 'note' } },
    {
      turnId,
      step: 1,
      role: 'assistant',
      type: 'source',
      data: { source: { sourceType: 'url', id: 's1', url: 'https://example.com/' } },
    },
    {
      turnId,
      step: 1,
      role: 'assistant',
      type: 'file',
      data: { mediaType: 'image/png', data: 'AA==' },
    },
    { turnId, step: 1, role: 'assistant', type: 'custom', data: { kind: 'anthropic.fallback' } },
    { turnId, step: 1, role: 'user', type: 'steering', data: { id: 'st1', text: 'also this' } },
  ];
}

/**
 * `n` text drafts of one turn (texts `${turnId}#${i}`).
 *
 * @example
 * ```ts
 * await store.appendTurn('t', textDrafts('turn-2', 50));
 * ```
 */
export function textDrafts(
  turnId: string,
  n: number,
  role: 'user' | 'assistant' = 'assistant',
): ChunkRowDraft[] {
  return Array.from({ length: n }, (_, i) => ({
    turnId,
    step: 0,
    role,
    type: 'text' as const,
    data: { text: `${turnId}#${i}` },
  }));
}

/** The drafts of stored rows (what was appended). */
function draftsOf(rows: readonly ChunkRow[]): ChunkRowDraft[] {
  return rows.map(
    (r) =>
      ({
        turnId: r.turnId,
        step: r.step,
        role: r.role,
        type: r.type,
        data: r.data,
      }) as ChunkRowDraft,
  );
}

/** The test functions from the globals (vitest with `globals: true`, Jest). */
function globalTestApi(): ConformanceTestApi {
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

/**
 * Declares chunklog's store conformance suite with vitest: invariant 6 of chunklog (dense,
 * strictly increasing seqs per thread under concurrent writers; a turn visible whole or not at
 * all; threads isolated; a turn id appended twice stored once) and the rest of the
 * `ChunkStore` contract (pages, not-found, validation, truncate, fork, delete, list). Run it
 * against your own Kysely dialect to prove your setup holds them. Give it tables of its own
 * (a table prefix): it creates threads with random ids and deletes them afterwards.
 *
 * @param name - the suite's name (for example the dialect)
 * @param factory - opens a new store over the database under test, see {@link ChunkStoreFactory}
 * @param options - the test functions (`{ api: vitest }`), concurrency settings, or `skip`
 * @throws {ChunklogError} `missing-dependency` when no test functions are given or global
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
  const { describe, it, expect, beforeAll, afterAll } = options.api ?? globalTestApi();
  async function expectCode(
    promise: Promise<unknown>,
    code: ChunklogErrorCode,
  ): Promise<ChunklogError> {
    try {
      await promise;
    } catch (error) {
      expect(ChunklogError.hasCode(error, code), `expected ${code}, got ${String(error)}`).toBe(
        true,
      );
      return error as ChunklogError;
    }
    throw new Error(`expected a ${code} error, but the call succeeded`);
  }

  /** Checks that the thread's rows are seqs 1..n and that each turn is one whole run of rows. */
  function expectDenseWholeTurns(
    rows: readonly ChunkRow[],
    turnSizes: ReadonlyMap<string, number>,
  ): void {
    expect(rows.map((r) => r.seq)).toEqual(rows.map((_, i) => i + 1));
    const seen = new Map<string, number>();
    let previous: string | undefined;
    for (const row of rows) {
      if (row.turnId !== previous) {
        expect(seen.has(row.turnId), `turn ${row.turnId} is split or stored twice`).toBe(false);
        seen.set(row.turnId, 0);
        previous = row.turnId;
      }
      seen.set(row.turnId, (seen.get(row.turnId) ?? 0) + 1);
    }
    expect(new Map([...seen].sort())).toEqual(new Map([...turnSizes].sort()));
  }

  const writers = options.writers ?? 3;
  const turnsPerWriter = options.turnsPerWriter ?? 12;
  const run = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
  let counter = 0;
  const fresh = (label: string) => `conf-${run}-${label}-${++counter}`;
  const opened: ChunkStore[] = [];
  const created = new Set<string>();
  let store: ChunkStore;

  const open = async (): Promise<ChunkStore> => {
    const s = await factory();
    opened.push(s);
    await s.migrate();
    return s;
  };
  const thread = (label: string) => {
    const id = fresh(label);
    created.add(id);
    return id;
  };

  (options.skip ? describe.skip : describe)(`chunk store conformance: ${name}`, () => {
    beforeAll(async () => {
      store = await open();
    });
    afterAll(async () => {
      if (store !== undefined) {
        for (const id of created) await store.deleteThread(id).catch(() => undefined);
      }
      for (const s of opened) await s.close();
    });

    describe('migrate', () => {
      it('is idempotent', async () => {
        await store.migrate();
        await store.migrate();
      });
    });

    describe('appendTurn', () => {
      it('stores every row type and reads it back unchanged, with dense seqs from 1', async () => {
        const t = thread('roundtrip');
        const drafts = sampleDrafts('turn-1');
        const rows = await store.appendTurn(t, drafts);
        expect(rows.map((r) => r.seq)).toEqual(drafts.map((_, i) => i + 1));
        expect(draftsOf(rows)).toStrictEqual(drafts);
        for (const row of rows) {
          expect(row.threadId).toBe(t);
          expect(typeof row.createdAt).toBe('string');
        }
        const back = await store.getRows(t);
        expect(back).toStrictEqual(rows);
        const second = await store.appendTurn(t, sampleDrafts('turn-2', 'again'));
        expect(second.map((r) => r.seq)).toEqual(drafts.map((_, i) => drafts.length + i + 1));
      });

      it('creates the thread it does not know yet', async () => {
        const t = thread('autocreate');
        await expectCode(store.getThread(t), 'thread-not-found');
        await store.appendTurn(t, textDrafts('a', 2));
        const info = await store.getThread(t);
        expect(info.id).toBe(t);
        expect(info.total).toBe(2);
      });

      it('stores a large turn whole', async () => {
        const t = thread('large');
        const rows = await store.appendTurn(t, textDrafts('big', 1234));
        expect(rows).toHaveLength(1234);
        const back = await store.getRows(t);
        expect(back.map((r) => r.seq)).toEqual(rows.map((_, i) => i + 1));
        expect(back.every((r) => r.turnId === 'big')).toBe(true);
      });

      it('does not store a turn id twice, and returns the stored rows', async () => {
        const t = thread('idempotent');
        const first = await store.appendTurn(t, textDrafts('once', 3));
        const again = await store.appendTurn(t, textDrafts('once', 5));
        expect(again).toStrictEqual(first);
        expect((await store.getThread(t)).total).toBe(3);
        const next = await store.appendTurn(t, textDrafts('next', 1));
        expect(next[0]?.seq).toBe(4);
      });

      it('validates every draft before writing anything', async () => {
        const t = thread('invalid');
        const bad = [
          ...textDrafts('v', 2),
          { turnId: 'v', step: 0, role: 'assistant', type: 'text', data: { text: 42 } },
        ] as unknown as ChunkRowDraft[];
        const error = await expectCode(store.appendTurn(t, bad), 'invalid-row');
        expect(error.path?.[0]).toBe(2);
        await expectCode(
          store.appendTurn(t, [...textDrafts('a', 1), ...textDrafts('b', 1)]),
          'invalid-row',
        );
        await expectCode(
          store.appendTurn(t, [{ ...textDrafts('x', 1)[0], step: -1 }] as ChunkRowDraft[]),
          'invalid-row',
        );
        await expectCode(store.getThread(t), 'thread-not-found');
        await expectCode(store.appendTurn('', textDrafts('x', 1)), 'invalid-option');
        await expectCode(store.appendTurn('a\u0000b', textDrafts('x', 1)), 'invalid-option');
        await expectCode(store.appendTurn('x'.repeat(256), textDrafts('x', 1)), 'invalid-option');
      });

      it('keeps threads apart', async () => {
        const a = thread('iso-a');
        const b = thread('iso-b');
        await store.appendTurn(a, textDrafts('same-turn', 2));
        await store.appendTurn(b, textDrafts('same-turn', 3));
        await store.appendTurn(a, textDrafts('a2', 1));
        expect((await store.getRows(a)).map((r) => [r.threadId, r.seq])).toEqual([
          [a, 1],
          [a, 2],
          [a, 3],
        ]);
        expect((await store.getRows(b)).map((r) => r.seq)).toEqual([1, 2, 3]);
        expect((await store.getRows(b)).every((r) => r.threadId === b)).toBe(true);
      });

      it('treats ids as exact strings (case, trailing spaces, unicode)', async () => {
        const base = thread('Exact');
        const variants = [base, base.toLowerCase(), `${base} `, `${base}é`, `${base}e\u0301`];
        for (const v of variants) created.add(v);
        for (const [i, v] of variants.entries())
          await store.appendTurn(v, textDrafts(`T ${i} `, i + 1));
        for (const [i, v] of variants.entries()) {
          const rows = await store.getRows(v);
          expect(rows.map((r) => [r.threadId, r.turnId])).toEqual(
            Array.from({ length: i + 1 }, () => [v, `T ${i} `]),
          );
        }
        await store.appendTurn(base, textDrafts('t x', 1));
        await store.appendTurn(base, textDrafts('T X', 1));
        expect((await store.getRows(base)).map((r) => r.turnId)).toEqual(['T 0 ', 't x', 'T X']);
      });
    });

    describe('concurrent writers', () => {
      it('allocate dense seqs and keep every turn whole, stored once', async () => {
        const t = thread('concurrent');
        const stores = [store, ...(await Promise.all(Array.from({ length: writers - 1 }, open)))];
        const sizes = new Map<string, number>();
        const jobs: Array<Promise<unknown>> = [];
        for (const [w, s] of stores.entries()) {
          jobs.push(
            (async () => {
              for (let i = 0; i < turnsPerWriter; i++) {
                const turnId = `w${w}-t${i}`;
                const size = 1 + ((w * 7 + i * 5) % 9);
                sizes.set(turnId, size);
                // Two concurrent appends of the same turn: a client retrying after a timeout.
                const [a, b] = await Promise.all([
                  s.appendTurn(t, textDrafts(turnId, size)),
                  stores[(w + 1) % stores.length]?.appendTurn(t, textDrafts(turnId, size)),
                ]);
                expect(b).toStrictEqual(a);
              }
            })(),
          );
        }
        await Promise.all(jobs);
        const rows = await store.getRows(t);
        expectDenseWholeTurns(rows, sizes);
        expect((await store.getThread(t)).total).toBe(rows.length);
      });

      it('never mix rows of concurrent threads', async () => {
        const ids = Array.from({ length: writers }, (_, i) => thread(`mix-${i}`));
        const stores = [store, ...(await Promise.all(Array.from({ length: writers - 1 }, open)))];
        await Promise.all(
          stores.flatMap((s, w) =>
            ids.map(async (id) => {
              for (let i = 0; i < 3; i++) await s.appendTurn(id, textDrafts(`${id}-${w}-${i}`, 2));
            }),
          ),
        );
        for (const id of ids) {
          const rows = await store.getRows(id);
          expect(rows).toHaveLength(writers * 3 * 2);
          expect(rows.every((r) => r.threadId === id && r.turnId.startsWith(id))).toBe(true);
          expect(rows.map((r) => r.seq)).toEqual(rows.map((_, i) => i + 1));
        }
      });
    });

    describe('getChunks', () => {
      it('pages backwards by keyset with total, oldestSeq and hasMore', async () => {
        const t = thread('pages');
        for (let i = 0; i < 7; i++) await store.appendTurn(t, textDrafts(`p${i}`, 3));
        const all = await store.getRows(t);
        expect(all).toHaveLength(21);
        const tail = await store.getChunks(t, { limit: 5 });
        expect(tail).toStrictEqual({
          chunks: all.slice(16),
          total: 21,
          oldestSeq: 17,
          hasMore: true,
        });
        const collected: ChunkRow[] = [...tail.chunks];
        let before = tail.oldestSeq;
        let pages = 1;
        while (before !== null) {
          const page = await store.getChunks(t, { limit: 5, before });
          expect(page.total).toBe(21);
          if (page.chunks.length === 0) {
            expect(page).toStrictEqual({ chunks: [], total: 21, oldestSeq: null, hasMore: false });
            break;
          }
          expect(page.oldestSeq).toBe(page.chunks[0]?.seq);
          expect(page.hasMore).toBe((page.oldestSeq ?? 0) > 1);
          collected.unshift(...page.chunks);
          pages++;
          if (!page.hasMore) break;
          before = page.oldestSeq;
        }
        expect(pages).toBe(5);
        expect(collected).toStrictEqual(all);
        expect(await store.getChunks(t, { limit: 1000, before: 3 })).toStrictEqual({
          chunks: all.slice(0, 2),
          total: 21,
          oldestSeq: 1,
          hasMore: false,
        });
        expect(await store.getChunks(t, { limit: 3, before: 500 })).toStrictEqual({
          chunks: all.slice(18),
          total: 21,
          oldestSeq: 19,
          hasMore: true,
        });
        expect(
          await store.getChunks(t, { limit: 3, before: Number.MAX_SAFE_INTEGER }),
        ).toStrictEqual(await store.getChunks(t, { limit: 3 }));
        expect(await store.getRows(t, { afterSeq: 19 })).toStrictEqual(all.slice(19));
        expect(await store.getRows(t, { afterSeq: Number.MAX_SAFE_INTEGER })).toStrictEqual([]);
        expect(await store.getChunks(t, { limit: 3, before: 1 })).toStrictEqual({
          chunks: [],
          total: 21,
          oldestSeq: null,
          hasMore: false,
        });
      });

      it('gives an empty page for an empty thread', async () => {
        const t = thread('empty');
        await store.createThread(t);
        expect(await store.getChunks(t, { limit: 10 })).toStrictEqual({
          chunks: [],
          total: 0,
          oldestSeq: null,
          hasMore: false,
        });
        expect(await store.getRows(t)).toEqual([]);
      });

      it('checks limit (1 to 1,000) and before', async () => {
        const t = thread('limits');
        await store.appendTurn(t, textDrafts('l', 1));
        for (const limit of [0, -1, 1001, 1.5, Number.NaN, '10' as unknown as number]) {
          const error = await expectCode(store.getChunks(t, { limit }), 'invalid-option');
          expect(error.option).toBe('limit');
        }
        await expectCode(store.getChunks(t, { limit: 10, before: -1 }), 'invalid-option');
        await expectCode(store.getChunks(t, { limit: 10, before: 1.5 }), 'invalid-option');
        expect((await store.getChunks(t, { limit: 1000 })).chunks).toHaveLength(1);
      });
    });

    describe('threads', () => {
      it('reading a thread that does not exist or was deleted is thread-not-found', async () => {
        const t = thread('missing');
        for (const call of [
          () => store.getChunks(t, { limit: 10 }),
          () => store.getRows(t),
          () => store.getThread(t),
          () => store.truncateAfter(t, 0),
          () => store.forkThread(t, { atSeq: 1 }),
        ]) {
          const error = await expectCode(call(), 'thread-not-found');
          expect(error.threadId).toBe(t);
        }
        await store.appendTurn(t, textDrafts('x', 2));
        expect(await store.deleteThread(t)).toBe(true);
        expect(await store.deleteThread(t)).toBe(false);
        await expectCode(store.getChunks(t, { limit: 10 }), 'thread-not-found');
        await expectCode(store.getRows(t), 'thread-not-found');
        const again = await store.appendTurn(t, textDrafts('x', 1));
        expect(again.map((r) => r.seq)).toEqual([1]);
      });

      it('creates threads with metadata, and refuses a taken id', async () => {
        const t = thread('create');
        const info = await store.createThread(t, { metadata: { title: 'Hi', tags: ['a'], n: 1 } });
        expect(info).toMatchObject({
          id: t,
          total: 0,
          metadata: { title: 'Hi', tags: ['a'], n: 1 },
        });
        expect(await store.getThread(t)).toStrictEqual(info);
        await expectCode(store.createThread(t), 'thread-exists');
        const generated = await store.createThread();
        created.add(generated.id);
        expect(generated.id).toMatch(/^[0-9a-f-]{36}$/);
        expect(generated.metadata).toBeUndefined();
        await expectCode(
          store.createThread(thread('badmeta'), {
            metadata: [1] as unknown as Record<string, never>,
          }),
          'invalid-option',
        );
      });

      it('lists threads by last activity, by keyset', async () => {
        const ids = [thread('list-a'), thread('list-b'), thread('list-c')];
        const pause = () => new Promise((resolve) => setTimeout(resolve, 15));
        for (const id of ids) {
          await store.appendTurn(id, textDrafts('1', 1));
          await pause();
        }
        await store.appendTurn(ids[0] as string, textDrafts('2', 1));
        const listed: string[] = [];
        let before: string | undefined;
        for (let pages = 0; pages < 10_000; pages++) {
          const page = await store.listThreads({ limit: 2, before });
          expect(page.threads.length).toBeLessThanOrEqual(2);
          listed.push(...page.threads.map((th) => th.id));
          if (!page.hasMore) {
            expect(page.nextBefore).toBeNull();
            break;
          }
          before = page.nextBefore ?? undefined;
        }
        expect(new Set(listed).size).toBe(listed.length);
        expect(listed.filter((id) => ids.includes(id))).toEqual([ids[0], ids[2], ids[1]]);
        const top = await store.listThreads({ limit: 1000 });
        const times = top.threads.map((th) => th.updatedAt);
        expect(times).toEqual([...times].sort().reverse());
        await expectCode(store.listThreads({ limit: 0 }), 'invalid-option');
        await expectCode(store.listThreads({ limit: 5, before: 'nonsense' }), 'invalid-option');
      });

      it('truncates after a seq, and the next turn continues from there', async () => {
        const t = thread('truncate');
        await store.appendTurn(t, textDrafts('a', 3));
        await store.appendTurn(t, textDrafts('b', 3));
        expect(await store.truncateAfter(t, 10)).toBe(0);
        expect(await store.truncateAfter(t, 3)).toBe(3);
        expect((await store.getThread(t)).total).toBe(3);
        expect((await store.getChunks(t, { limit: 10 })).total).toBe(3);
        const c = await store.appendTurn(t, textDrafts('c', 2));
        expect(c.map((r) => r.seq)).toEqual([4, 5]);
        const b = await store.appendTurn(t, textDrafts('b', 1));
        expect(b.map((r) => r.seq)).toEqual([6]);
        expect(await store.truncateAfter(t, 0)).toBe(6);
        expect(await store.getRows(t)).toEqual([]);
        await expectCode(store.truncateAfter(t, -1), 'invalid-option');
      });

      it('forks a thread at a seq into an independent thread', async () => {
        const t = thread('fork-src');
        await store.createThread(t, { metadata: { title: 'src' } });
        await store.appendTurn(t, textDrafts('a', 2));
        await store.appendTurn(t, textDrafts('b', 2));
        const source = await store.getRows(t);
        const forkId = thread('fork-dst');
        const fork = await store.forkThread(t, { atSeq: 3, newThreadId: forkId });
        expect(fork).toMatchObject({ id: forkId, total: 3, metadata: { title: 'src' } });
        const copied = await store.getRows(forkId);
        expect(copied).toStrictEqual(source.slice(0, 3).map((r) => ({ ...r, threadId: forkId })));
        const more = await store.appendTurn(forkId, textDrafts('c', 1));
        expect(more[0]?.seq).toBe(4);
        expect(await store.getRows(t)).toStrictEqual(source);
        // The fork holds the first rows of turn b; appending turn b there is a no-op.
        expect((await store.appendTurn(forkId, textDrafts('b', 2))).map((r) => r.seq)).toEqual([3]);
        const empty = await store.forkThread(t, { atSeq: 0, metadata: { title: 'empty' } });
        created.add(empty.id);
        expect(empty).toMatchObject({ total: 0, metadata: { title: 'empty' } });
        const whole = await store.forkThread(t, { atSeq: 99 });
        created.add(whole.id);
        expect(whole.total).toBe(4);
        await expectCode(store.forkThread(t, { atSeq: 1, newThreadId: forkId }), 'thread-exists');
        await expectCode(store.forkThread(t, { atSeq: -1 }), 'invalid-option');
      });
    });

    describe('close', () => {
      it('refuses calls after close', async () => {
        const s = await open();
        await s.close();
        await s.close();
        await expectCode((async () => s.getChunks(thread('closed'), { limit: 1 }))(), 'closed');
      });
    });
  });
}
