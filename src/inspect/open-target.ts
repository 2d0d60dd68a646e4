import { Kysely, MysqlDialect, PostgresDialect, SqliteDialect } from 'kysely';
import { ChunklogError } from '../errors/chunklog-error.js';
import { createChunkStore } from '../store/create-chunk-store.js';
import { loadDependency } from '../store/load-dependency.js';
import type { ChunkStore } from '../store/types.js';

/** A store opened read-only for the inspector, and how to close it. */
export interface ReadOnlyStore {
  readonly store: ChunkStore;
  /** The target as the page shows it (a URL without its password). */
  readonly source: string;
  close(): Promise<void>;
}

type SqliteConstructor = new (
  path: string,
  options: { readonly: boolean; fileMustExist: boolean },
) => { close(): void; prepare: unknown };
interface PgModule {
  Pool: new (config: { connectionString: string; max: number; options: string }) => unknown;
}
interface MysqlModule {
  createPool(config: { uri: string; connectionLimit: number }): {
    on(event: 'connection', listener: (connection: { query(sql: string): unknown }) => void): void;
  };
}

/** A URL without its password, for display. */
function redact(target: string): string {
  try {
    const url = new URL(target);
    if (url.password) url.password = '***';
    return url.toString();
  } catch {
    return target;
  }
}

/**
 * Opens a chunk store read-only: an SQLite file (opened with SQLite's read-only flag; it must
 * exist), or a PostgreSQL or MySQL/MariaDB URL (every session read-only:
 * `default_transaction_read_only`, `SET SESSION TRANSACTION READ ONLY`). Never migrates.
 *
 * @param target - a file path, `postgres://…` or `mysql://…`
 * @param options - the store's table prefix
 * @returns the store, a display name, and close
 * @throws {ChunklogError} `missing-dependency` when the driver is not installed
 */
export async function openReadOnlyStore(
  target: string,
  options: { readonly tablePrefix?: string | undefined } = {},
): Promise<ReadOnlyStore> {
  const tables = options.tablePrefix !== undefined ? { tablePrefix: options.tablePrefix } : {};
  // biome-ignore lint/suspicious/noExplicitAny: the store takes a Kysely of any schema
  let db: Kysely<any>;
  if (/^postgres(ql)?:\/\//.test(target)) {
    const pg = await loadDependency<PgModule>('pg', 'chunklog inspect of a PostgreSQL URL');
    const pool = new pg.Pool({
      connectionString: target,
      max: 2,
      options: '-c default_transaction_read_only=on',
    });
    db = new Kysely({ dialect: new PostgresDialect({ pool: pool as never }) });
  } else if (/^mysql:\/\//.test(target)) {
    const mysql = await loadDependency<MysqlModule>('mysql2', 'chunklog inspect of a MySQL URL');
    const pool = mysql.createPool({ uri: target, connectionLimit: 2 });
    pool.on('connection', (connection) => connection.query('SET SESSION TRANSACTION READ ONLY'));
    db = new Kysely({ dialect: new MysqlDialect({ pool: pool as never }) });
  } else {
    const Database = await loadDependency<SqliteConstructor>(
      'better-sqlite3',
      'chunklog inspect of an SQLite file',
    );
    let file: InstanceType<SqliteConstructor>;
    try {
      file = new Database(target, { readonly: true, fileMustExist: true });
    } catch (error) {
      throw new ChunklogError(
        'invalid-option',
        `chunklog inspect: cannot open ${target} (${(error as Error).message})`,
        {
          option: 'target',
          value: target,
          cause: error,
        },
      );
    }
    db = new Kysely({ dialect: new SqliteDialect({ database: file as never }) });
  }
  const store = createChunkStore({ db }, tables);
  return {
    store,
    source: redact(target),
    async close() {
      await store.close();
      await db.destroy();
    },
  };
}
