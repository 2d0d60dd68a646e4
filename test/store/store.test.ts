// Dialect-specific behaviour of the store: corrupt rows, JSON column modes, error wrapping,
// dialect detection, table names, plugins, concurrent migrations, the SQLite opener.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CamelCasePlugin, Kysely, sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { ChunklogError } from '../../src/errors/index.js';
import type { ChunkRowDraft } from '../../src/schema/chunk-row.js';
import { resolveDialect } from '../../src/store/dialects/detect.js';
import { createChunkStore } from '../../src/store/index.js';
import { loadDependency } from '../../src/store/load-dependency.js';
import { describeChunkStore, textDrafts } from '../../src/testing/index.js';
import { dropStoreTables } from '../support/drop-store-tables.js';
import {
  availableDialects,
  createHarness,
  type DialectHarness,
  randomPrefix,
} from './support/dialects.js';

const available = await availableDialects();
const harnesses: DialectHarness[] = [];
afterAll(async () => {
  for (const h of harnesses) await h.dispose();
});

async function codeOf(work: Promise<unknown>): Promise<ChunklogError> {
  try {
    await work;
  } catch (error) {
    if (ChunklogError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a ChunklogError');
}

for (const name of ['sqlite', 'postgres', 'mysql'] as const) {
  describe.skipIf(!available.includes(name))(`store on ${name}`, () => {
    const harness = () => {
      const h = createHarness(name);
      harnesses.push(h);
      return h;
    };

    it('reports a corrupt row by thread and seq, or skips it when asked', async () => {
      const h = harness();
      const store = h.openStore();
      await store.migrate();
      await store.appendTurn('corrupt', textDrafts('a', 3));
      await store.appendTurn('corrupt', textDrafts('b', 2));
      const chunks = `${h.prefix}chunks`;
      await sql`update ${sql.table(chunks)} set data = ${JSON.stringify({ text: 5 })} where seq = 2`.execute(
        h.raw,
      );
      await sql`update ${sql.table(chunks)} set type = 'nonsense' where seq = 4`.execute(h.raw);
      const error = await codeOf(store.getChunks('corrupt', { limit: 10 }));
      expect(error.code).toBe('corrupt-row');
      expect(error.threadId).toBe('corrupt');
      expect([2, 4]).toContain(error.seq);
      expect(error.message).toMatch(/Row \d of thread "corrupt" is corrupt/);
      expect((await codeOf(store.getRows('corrupt'))).seq).toBe(2);

      const skipped = await store.getChunks('corrupt', { limit: 2, onCorruptRow: 'skip' });
      expect(skipped.chunks.map((r) => r.seq)).toEqual([5]);
      expect(skipped).toMatchObject({ total: 5, oldestSeq: 4, hasMore: true });
      expect((await store.getRows('corrupt', { onCorruptRow: 'skip' })).map((r) => r.seq)).toEqual([
        1, 3, 5,
      ]);
      const lenient = h.openStore({ onCorruptRow: 'skip' });
      expect((await lenient.getRows('corrupt')).map((r) => r.seq)).toEqual([1, 3, 5]);
      await sql`update ${sql.table(chunks)} set version = 2 where seq = 1`.execute(h.raw);
      expect((await codeOf(store.getRows('corrupt'))).message).toMatch(/format version 2/);
      await lenient.close();
      await store.close();
    });

    it('wraps database errors with the driver error as cause (a missing table: not-migrated)', async () => {
      const h = harness();
      const store = h.openStore();
      const error = await codeOf(store.appendTurn('t', textDrafts('a', 1)));
      expect(error.code).toBe('not-migrated');
      expect(error.threadId).toBe('t');
      expect(error.cause).toBeInstanceOf(Error);
      expect(ChunklogError.isInstance(error.cause)).toBe(false);
      await store.close();
    });

    it('keeps each prefix apart, and takes explicit table names', async () => {
      const h = harness();
      const a = h.openStore();
      const other = randomPrefix();
      const b = h.openStore({
        tables: {
          threads: `${other}threads`,
          chunks: `${other}chunks`,
          migrations: `${other}migrations`,
          migrationLock: `${other}migration_lock`,
          usage: `${other}usage`,
          snapshots: `${other}snapshots`,
          historyStates: `${other}history_states`,
          turns: `${other}turns`,
          leases: `${other}leases`,
        },
      });
      await Promise.all([a.migrate(), b.migrate()]);
      await a.appendTurn('same', textDrafts('a', 2));
      await b.appendTurn('same', textDrafts('b', 1));
      expect((await a.getRows('same')).map((r) => r.turnId)).toEqual(['a', 'a']);
      expect((await b.getRows('same')).map((r) => r.turnId)).toEqual(['b']);
      expect(b.tables.chunks).toBe(`${other}chunks`);
      await b.close();
      await dropStoreTables(h.raw, other);
      await a.close();
    });

    it('migrates from several stores at once', async () => {
      const h = harness();
      const stores = Array.from({ length: 4 }, () => h.openStore());
      await Promise.all(stores.map((s) => s.migrate()));
      await Promise.all(stores.map((s) => s.migrate()));
      await stores[0]?.appendTurn('m', textDrafts('x', 1));
      for (const s of stores) await s.close();
    });

    it('runs its queries without the Kysely instance’s plugins', async () => {
      const h = harness();
      const store = h.openStore();
      await store.migrate();
      await store.close();
      const camel = h.raw.withPlugin(new CamelCasePlugin());
      const withPlugin = createChunkStore({ db: camel }, { tablePrefix: h.prefix });
      expect(withPlugin.dialect).toBe(name);
      const rows = await withPlugin.appendTurn('plugins', textDrafts('turn_one', 2));
      expect(rows.map((r) => [r.turnId, r.seq])).toEqual([
        ['turn_one', 1],
        ['turn_one', 2],
      ]);
      expect((await withPlugin.getChunks('plugins', { limit: 5 })).total).toBe(2);
      await withPlugin.close();
    });

    it('stores strings that native JSON refuses when json is text, and keeps key order', async () => {
      const h = harness();
      const store = h.openStore({ json: 'text' });
      await store.migrate();
      const odd = 'nul \u0000 lone \ud800 end';
      const drafts: ChunkRowDraft[] = [
        { turnId: 't', step: 0, role: 'assistant', type: 'text', data: { text: odd } },
        {
          turnId: 't',
          step: 0,
          role: 'assistant',
          type: 'tool_call',
          data: { id: 'c', name: 'n', index: 0, input: { zeta: 1, alpha: { y: 2, b: 3 } } },
        },
      ];
      await store.appendTurn('exact', drafts);
      const back = await store.getRows('exact');
      expect(back[0]?.data).toStrictEqual({ text: odd });
      expect(JSON.stringify(back[1]?.data)).toBe(JSON.stringify(drafts[1]?.data));
      await store.close();
    });

    it('stores, in native JSON columns, strings they refuse (NUL, lone surrogates) exact, in row data and metadata', async () => {
      const h = harness();
      const store = h.openStore();
      await store.migrate();
      if (name === 'postgres') {
        const type = await sql<{
          t: string;
        }>`select data_type as t from information_schema.columns where table_name = ${`${h.prefix}chunks`} and column_name = 'data'`.execute(
          h.raw,
        );
        expect(type.rows[0]?.t).toBe('jsonb');
      }
      const odd = 'nul \u0000 lone \ud800 low \udc00 end';
      const drafts: ChunkRowDraft[] = [
        ...textDrafts('t', 1),
        { turnId: 't', step: 0, role: 'assistant', type: 'text', data: { text: odd } },
        {
          turnId: 't',
          step: 0,
          role: 'assistant',
          type: 'tool_call',
          data: { id: 'c', name: 'n', index: 0, input: { zeta: 1, path: 'a\u0000b' } },
        },
        { turnId: 't', step: 0, role: 'assistant', type: 'text', data: { text: 'plain' } },
      ];
      const metadata = { note: odd, 'chunklog:json': 'a key of ours, given by the user' };
      await store.createThread('nul', { metadata });
      const written = await store.appendTurn('nul', drafts);
      expect(written.map((r) => r.data)).toStrictEqual(drafts.map((d) => d.data));
      const back = await store.getRows('nul');
      expect(back.map((r) => r.data)).toStrictEqual(drafts.map((d) => d.data));
      expect((await store.getThread('nul')).metadata).toStrictEqual(metadata);
      await store.updateThread('nul', { metadata: { only: '\u0000' } });
      expect((await store.getThread('nul')).metadata).toStrictEqual({ only: '\u0000' });
      // A fresh store reads them back as well (nothing kept in memory).
      const again = h.openStore();
      expect((await again.getRows('nul')).map((r) => r.data)).toStrictEqual(
        drafts.map((d) => d.data),
      );
      await again.close();
      await store.close();
    });

    if (name === 'mysql') {
      it('keys ids as VARBINARY and data as JSON', async () => {
        const h = harness();
        const store = h.openStore();
        await store.migrate();
        const types = await sql<{
          c: string;
          t: string;
        }>`select column_name as c, data_type as t from information_schema.columns where table_schema = database() and table_name = ${`${h.prefix}chunks`}`.execute(
          h.raw,
        );
        const byName = Object.fromEntries(types.rows.map((r) => [r.c, r.t.toLowerCase()]));
        expect(byName.thread_id).toBe('varbinary');
        expect(byName.turn_id).toBe('varbinary');
        expect(['json', 'longtext']).toContain(byName.data);
        await store.close();
      });
    }

    it('tells its dialect from the Kysely adapter', () => {
      const h = harness();
      expect(resolveDialect(h.raw, undefined).name).toBe(name);
      expect(createChunkStore({ db: h.raw }).dialect).toBe(name);
    });
  });
}

describe('createChunkStore', () => {
  it('opens an in-memory SQLite database', async () => {
    const store = createChunkStore({ sqlite: ':memory:' });
    await store.migrate();
    await store.appendTurn('mem', textDrafts('a', 2));
    expect((await store.getChunks('mem', { limit: 1 })).total).toBe(2);
    await store.close();
  });

  it('opens a SQLite file in WAL mode with foreign keys on', async () => {
    const h = createHarness('sqlite');
    harnesses.push(h);
    const store = createChunkStore({ sqlite: h.file as string }, { tablePrefix: h.prefix });
    await store.migrate();
    await store.appendTurn('wal', textDrafts('a', 1));
    const mode = await sql<{ journal_mode: string }>`pragma journal_mode`.execute(h.raw);
    expect(mode.rows[0]?.journal_mode).toBe('wal');
    await store.close();
  });

  it('creates the missing folders of a SQLite file (not for :memory:)', async () => {
    const root = mkdtempSync(join(tmpdir(), 'chunklog-sqlite-'));
    try {
      const file = join(root, 'not', 'yet', 'chat.db');
      const store = createChunkStore({ sqlite: file });
      await store.migrate();
      await store.appendTurn('deep', textDrafts('a', 1));
      expect((await store.getThread('deep')).total).toBe(1);
      await store.close();
      expect(existsSync(file)).toBe(true);
      const memory = createChunkStore({ sqlite: ':memory:' });
      await memory.migrate();
      await memory.close();
      expect(existsSync(':memory:')).toBe(false);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('checks its options', () => {
    const bad: Array<[unknown, unknown]> = [
      [{ sqlite: ':memory:' }, { tablePrefix: 'bad-prefix' }],
      [{ sqlite: ':memory:' }, { tables: { chunks: 'x'.repeat(49) } }],
      [{ sqlite: ':memory:' }, { tables: { chunks: 'same', threads: 'same' } }],
      [{ sqlite: ':memory:' }, { json: 'xml' }],
      [{ sqlite: ':memory:' }, { onCorruptRow: 'ignore' }],
      [{ sqlite: 42 }, {}],
      [{}, {}],
      [{ db: new Kysely({ dialect: fakeDialect() }) }, {}],
    ];
    for (const [target, options] of bad) {
      expect(() => createChunkStore(target as never, options as never)).toThrow(
        expect.objectContaining({ code: 'invalid-option' }),
      );
    }
    const store = createChunkStore({
      db: new Kysely({ dialect: fakeDialect() }),
      dialect: 'postgres',
    });
    expect(store.dialect).toBe('postgres');
  });

  it('the conformance kit asks for test functions when there are no globals', () => {
    expect(() =>
      describeChunkStore('nothing', () => createChunkStore({ sqlite: ':memory:' })),
    ).toThrow(expect.objectContaining({ code: 'missing-dependency' }));
  });

  it('says what to install when a driver is missing', async () => {
    const error = await codeOf(
      loadDependency('chunklog-no-such-driver', 'createChunkStore({ sqlite })'),
    );
    expect(error.code).toBe('missing-dependency');
    expect(error.message).toContain('npm install chunklog-no-such-driver');
  });

  it('getMessages groups the thread rows with groupRowsToMessages', async () => {
    const store = createChunkStore({ sqlite: ':memory:' });
    await store.migrate();
    await store.appendTurn('m', [...textDrafts('a', 1, 'user'), ...textDrafts('a', 2)]);
    const messages = await store.getMessages('m');
    expect(messages.map((m) => [m.id, m.chunks.length])).toEqual([
      ['a:user', 1],
      ['a:assistant', 2],
    ]);
    await store.close();
  });
});

/** A Kysely dialect whose adapter no one knows. */
function fakeDialect() {
  class WeirdAdapter {
    supportsTransactionalDdl = false;
    supportsReturning = false;
    async acquireMigrationLock() {}
    async releaseMigrationLock() {}
  }
  return {
    createAdapter: () => new WeirdAdapter(),
    createDriver: () => ({
      init: async () => {},
      acquireConnection: async () => ({
        executeQuery: async () => ({ rows: [] }),
        streamQuery: async function* () {},
      }),
      beginTransaction: async () => {},
      commitTransaction: async () => {},
      rollbackTransaction: async () => {},
      releaseConnection: async () => {},
      destroy: async () => {},
    }),
    createIntrospector: () => ({}) as never,
    createQueryCompiler: () => ({}) as never,
  } as never;
}
