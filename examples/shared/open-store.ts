// Opens a chunk store from a command-line target: an SQLite file path, or a postgres:// or
// mysql:// URL. A store given `{ db }` leaves the Kysely instance to its owner, so `close` here
// closes both.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { type ChunkStore, createChunkStore, guardPgPool } from 'chunklog/store';
import { Kysely, MysqlDialect, PostgresDialect } from 'kysely';

export interface OpenedStore {
  readonly store: ChunkStore;
  /** Closes the store and, for a URL, the connection pool. */
  readonly close: () => Promise<void>;
}

/** Opens (and migrates) the store at `target`: a file path, `:memory:`, or a database URL. */
export async function openStore(target: string): Promise<OpenedStore> {
  if (/^postgres(ql)?:\/\//.test(target)) {
    const { default: pg } = await import('pg');
    const db = new Kysely<unknown>({
      dialect: new PostgresDialect({
        pool: guardPgPool(new pg.Pool({ connectionString: target, max: 4 })),
      }),
    });
    return opened(createChunkStore({ db }), () => db.destroy());
  }
  if (/^mysql:\/\//.test(target)) {
    const { createPool } = await import('mysql2');
    const db = new Kysely<unknown>({
      dialect: new MysqlDialect({ pool: createPool({ uri: target, connectionLimit: 4 }) }),
    });
    return opened(createChunkStore({ db }), () => db.destroy());
  }
  if (target !== ':memory:') mkdirSync(dirname(target), { recursive: true });
  return opened(createChunkStore({ sqlite: target }), async () => {});
}

async function opened(store: ChunkStore, destroy: () => Promise<void>): Promise<OpenedStore> {
  await store.migrate();
  return {
    store,
    close: async () => {
      await store.close();
      await destroy();
    },
  };
}
