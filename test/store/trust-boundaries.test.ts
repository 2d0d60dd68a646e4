// The store checks every option by name before it opens or queries anything, and every read's
// options; a refused call writes nothing.
import { afterEach, describe, expect, it } from 'vitest';
import { createChunkStore, storeMigrations } from '../../src/store/index.js';
import { textDrafts } from '../../src/testing/index.js';
import { rejected, thrown } from '../support/chunklog-error.js';

describe('store trust boundaries', () => {
  const stores: Array<{ close(): Promise<void> }> = [];
  afterEach(async () => {
    for (const store of stores.splice(0)) await store.close();
  });

  it('createChunkStore names the unknown or malformed option', () => {
    const memory = { sqlite: ':memory:' };
    for (const [target, options, option] of [
      [memory, { onCorruptRows: 'skip' }, 'onCorruptRows'],
      [memory, { now: 5 }, 'now'],
      [memory, { synchronous: 'Normal' }, 'synchronous'],
      [memory, { busyTimeoutMs: -1 }, 'busyTimeoutMs'],
      [memory, { statementCacheSize: 0 }, 'statementCacheSize'],
      [memory, { tablePrefix: 7 }, 'tablePrefix'],
      [memory, { tables: { thread: 'x' } }, 'thread'],
      [memory, null, 'options'],
      [{ db: {} }, {}, 'db'],
      [{ db: { getExecutor: () => ({}) } }, {}, 'db'],
      [{ sqlte: ':memory:' }, {}, 'sqlte'],
      [{}, {}, 'target'],
    ] as const) {
      const error = thrown(() => createChunkStore(target as never, options as never));
      expect(error.code).toBe('invalid-option');
      expect(error.option).toBe(option);
    }
  });

  it("an own-property check keeps `dialect: 'toString'` from passing as a dialect", async () => {
    const { Kysely, SqliteDialect } = await import('kysely');
    const db = new Kysely({ dialect: new SqliteDialect({ database: {} as never }) });
    const error = thrown(() => createChunkStore({ db, dialect: 'toString' as never }));
    expect(error.option).toBe('dialect');
  });

  it('reads and writes check their options and write nothing when refused', async () => {
    const store = createChunkStore({ sqlite: ':memory:' });
    stores.push(store);
    await store.migrate();
    await store.appendTurn('th', textDrafts('t1', 2));
    for (const [promise, option] of [
      [store.getChunks('th', { limit: 10, befor: 2 } as never), 'befor'],
      [store.getChunks('th', { limit: 10, onCorruptRow: 'ignore' } as never), 'onCorruptRow'],
      [store.getRows('th', null as never), 'options'],
      [store.getChunksAfter('th', { limit: 5, before: 2 } as never), 'before'],
      [store.getTurn('th', 't1', { onCorruptRow: 'drop' } as never), 'onCorruptRow'],
      [store.getTurn('th', '' as never), 'turnId'],
      [store.appendTurn('th', textDrafts('t3', 1), { createdAt: 'now' }), 'createdAt'],
      [store.appendTurn('th', textDrafts('t3', 1), { createdAt: '2026-11-30T12:00' }), 'createdAt'],
      [
        store.appendTurn('th', textDrafts('t3', 1), { createdAt: '2026-02-30T12:00Z' }),
        'createdAt',
      ],
      [store.appendTurn('th', textDrafts('t3', 1), { when: 1 } as never), 'when'],
      [store.getMessages('th', { onCorruptRow: 'drop' } as never), 'onCorruptRow'],
      [store.listThreads({ limit: 5, after: 'x' } as never), 'after'],
      [store.createThread('new', { meta: {} } as never), 'meta'],
      [store.forkThread('th', { atSeq: 1, newId: 'f' } as never), 'newId'],
    ] as const) {
      const error = await rejected(promise);
      expect(error.code).toBe('invalid-option');
      expect(error.option).toBe(option);
    }
    const draft = await rejected(
      store.appendTurn('th', [...textDrafts('t2', 1), { turnId: 't2', step: 0 }] as never),
    );
    expect(draft.code).toBe('invalid-row');
    expect(draft.path?.[0]).toBe(1);
    expect((await store.getThread('th')).total).toBe(2);
    expect((await store.listThreads({ limit: 10 })).threads.map((t) => t.id)).toEqual(['th']);
  });
});

describe('storeMigrations', () => {
  it('runs from your own Migrator with what a user has (dialect, table options)', async () => {
    const { Kysely, SqliteDialect } = await import('kysely');
    const { Migrator } = await import('kysely/migration');
    const Database = (await import('better-sqlite3')).default;
    const db = new Kysely<unknown>({
      dialect: new SqliteDialect({ database: new Database(':memory:') }),
    });
    const migrator = new Migrator({
      db,
      provider: {
        getMigrations: async () => storeMigrations({ dialect: 'sqlite', tablePrefix: 'mine_' }),
      },
    });
    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    const store = createChunkStore({ db }, { tablePrefix: 'mine_' });
    expect((await store.appendTurn('th', textDrafts('t1', 2))).map((r) => r.seq)).toEqual([1, 2]);
    await db.destroy();
  });

  it('names the missing or malformed option', () => {
    for (const [options, option] of [
      [{}, 'dialect'],
      [{ dialect: 'oracle' }, 'dialect'],
      [{ dialect: 'sqlite', json: 'xml' }, 'json'],
      [{ dialect: 'sqlite', prefix: 'x' }, 'prefix'],
      [{ dialect: 'sqlite', tablePrefix: 'bad-prefix' }, 'tablePrefix'],
    ] as const) {
      const error = thrown(() => storeMigrations(options as never));
      expect(error.code).toBe('invalid-option');
      expect(error.option).toBe(option);
    }
  });
});
