// The dialect matrix of the store suite: an SQLite file, PostgreSQL and MariaDB/MySQL. Every
// suite runs the same tests over each; a missing server skips its dialect (and says so), or
// fails the run under CHUNKLOG_REQUIRE_SERVICES=1.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Kysely, type LogEvent, MysqlDialect, PostgresDialect, SqliteDialect } from 'kysely';
import { createPool } from 'mysql2';
import pg from 'pg';
import {
  type ChunkStore,
  type ChunkStoreOptions,
  createChunkStore,
  guardPgPool,
} from '../../../src/store/index.js';
import { dropStoreTables } from '../../support/drop-store-tables.js';
import {
  MYSQL_URL,
  mysqlAvailable,
  POSTGRES_URL,
  postgresAvailable,
} from '../../support/services.js';

export type DialectName = 'sqlite' | 'postgres' | 'mysql';

/** One database of the matrix, with tables of its own (a random prefix). */
export interface DialectHarness {
  readonly name: DialectName;
  readonly prefix: string;
  /** For SQLite: the database file. */
  readonly file: string | undefined;
  /** A new store over this database (its own connection or pool); close() releases it. */
  openStore(options?: ChunkStoreOptions): ChunkStore;
  /** A Kysely instance for raw access (to corrupt rows, inspect tables). */
  // biome-ignore lint/suspicious/noExplicitAny: raw access to tables named at run time
  readonly raw: Kysely<any>;
  /** Drops the tables and releases everything. */
  dispose(): Promise<void>;
}

export function randomPrefix(): string {
  return `ck${Math.random().toString(36).slice(2, 8)}_`;
}

/** A Kysely instance on the dialect's test database; `log` gets the SQL of every query it runs. */
export function kyselyFor(
  name: DialectName,
  file: string | undefined,
  connections = 4,
  log?: (sql: string) => void,
  // biome-ignore lint/suspicious/noExplicitAny: raw access to tables named at run time
): Kysely<any> {
  const logged = log === undefined ? {} : { log: (event: LogEvent) => log(event.query.sql) };
  switch (name) {
    case 'sqlite':
      return new Kysely({
        ...logged,
        dialect: new SqliteDialect({
          database: () => {
            const db = new Database(file as string, { timeout: 10_000 });
            db.pragma('journal_mode = WAL');
            return Promise.resolve(db);
          },
        }),
      });
    case 'postgres':
      return new Kysely({
        ...logged,
        dialect: new PostgresDialect({
          pool: guardPgPool(new pg.Pool({ connectionString: POSTGRES_URL, max: connections })),
        }),
      });
    case 'mysql':
      return new Kysely({
        ...logged,
        dialect: new MysqlDialect({
          pool: createPool({ uri: MYSQL_URL, connectionLimit: connections }),
        }),
      });
  }
}

/** Connection settings a child process needs to open the same store. */
export interface HarnessSpec {
  readonly name: DialectName;
  readonly prefix: string;
  readonly file: string | undefined;
}

/** Opens a store from a {@link HarnessSpec} (used by the worker processes too). */
export function openStoreFromSpec(spec: HarnessSpec, options: ChunkStoreOptions = {}): ChunkStore {
  const opts = { ...options, tablePrefix: spec.prefix };
  if (spec.name === 'sqlite') return createChunkStore({ sqlite: spec.file as string }, opts);
  const db = kyselyFor(spec.name, undefined);
  const store = createChunkStore({ db }, opts);
  return {
    ...store,
    async close() {
      await store.close();
      await db.destroy();
    },
  };
}

export function createHarness(name: DialectName): DialectHarness {
  const prefix = randomPrefix();
  const dir = name === 'sqlite' ? mkdtempSync(join(tmpdir(), 'chunklog-store-')) : undefined;
  const file = dir === undefined ? undefined : join(dir, 'store.db');
  const raw = kyselyFor(name, file, 2);
  const spec: HarnessSpec = { name, prefix, file };
  return {
    name,
    prefix,
    file,
    raw,
    openStore: (options) => openStoreFromSpec(spec, options),
    async dispose() {
      await dropStoreTables(raw, prefix);
      await raw.destroy();
      if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The dialects whose servers answer, checked once per test file. */
export async function availableDialects(): Promise<DialectName[]> {
  const out: DialectName[] = ['sqlite'];
  if (await postgresAvailable()) out.push('postgres');
  if (await mysqlAvailable()) out.push('mysql');
  return out;
}
