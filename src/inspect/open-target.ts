import { existsSync } from 'node:fs';
import { Kysely, MysqlDialect, PostgresDialect, SqliteDialect } from 'kysely';
import { ChunklogError } from '../errors/chunklog-error.js';
import { createChunkStore } from '../store/create-chunk-store.js';
import type { StoreEncryptionOptions } from '../store/encryption/key-provider.js';
import { loadDependency } from '../store/load-dependency.js';
import type { ChunkStore } from '../store/types.js';

/** A store opened from a command line's target, and how to close it. */
export interface OpenedStore {
  readonly store: ChunkStore;
  /** The target as the page shows it (a URL without its password). */
  readonly source: string;
  close(): Promise<void>;
}

/** A store opened read-only for the inspector (and `chunklog export`). */
export type ReadOnlyStore = OpenedStore;

/** Options of {@link openReadOnlyStore} and {@link openWritableStore}. */
export interface OpenTargetOptions {
  /** The store's table prefix. Default `chunklog_`. */
  readonly tablePrefix?: string | undefined;
  /** What opens it, for a missing driver's message (`chunklog import`). */
  readonly purpose?: string | undefined;
  /** The store's encryption (`createChunkStore`'s `encryption`), for an encrypted store. */
  readonly encryption?: StoreEncryptionOptions | undefined;
}

/** The `createChunkStore` options of a target opened with `options`. */
function storeOptions(options: OpenTargetOptions) {
  return {
    ...(options.tablePrefix === undefined ? {} : { tablePrefix: options.tablePrefix }),
    ...(options.encryption === undefined ? {} : { encryption: options.encryption }),
  };
}

type SqliteConstructor = new (
  path: string,
  options: { readonly: boolean; fileMustExist: boolean },
) => { close(): void; prepare: unknown };
interface PgModule {
  Pool: new (config: { connectionString: string; max: number; options?: string }) => unknown;
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

const isPostgres = (target: string) => /^postgres(ql)?:\/\//.test(target);
const isMysql = (target: string) => /^mysql:\/\//.test(target);

// biome-ignore lint/suspicious/noExplicitAny: the store takes a Kysely of any schema
type AnyKysely = Kysely<any>;

async function serverKysely(
  target: string,
  readOnly: boolean,
  purpose: string,
): Promise<AnyKysely> {
  if (isPostgres(target)) {
    const pg = await loadDependency<PgModule>('pg', `${purpose} of a PostgreSQL URL`);
    const pool = new pg.Pool({
      connectionString: target,
      max: 2,
      ...(readOnly ? { options: '-c default_transaction_read_only=on' } : {}),
    });
    return new Kysely({ dialect: new PostgresDialect({ pool: pool as never }) });
  }
  const mysql = await loadDependency<MysqlModule>('mysql2', `${purpose} of a MySQL URL`);
  const pool = mysql.createPool({ uri: target, connectionLimit: 2 });
  if (readOnly) {
    pool.on('connection', (connection) => connection.query('SET SESSION TRANSACTION READ ONLY'));
  }
  return new Kysely({ dialect: new MysqlDialect({ pool: pool as never }) });
}

function opened(store: ChunkStore, target: string, db?: AnyKysely): OpenedStore {
  return {
    store,
    source: redact(target),
    async close() {
      await store.close();
      await db?.destroy();
    },
  };
}

/**
 * Opens a chunk store read-only: an SQLite file (opened with SQLite's read-only flag; it must
 * exist), or a PostgreSQL or MySQL/MariaDB URL (every session read-only:
 * `default_transaction_read_only`, `SET SESSION TRANSACTION READ ONLY`). Never migrates.
 *
 * @param target - a file path, `postgres://…` or `mysql://…`
 * @param options - the store's table prefix
 * @returns the store, a display name, and close
 * @throws {ChunklogError} `store-failed` for an SQLite file that cannot be opened ("cannot open
 *   nope.db: no such file"; the driver's error is its `cause`); `missing-dependency` when the
 *   driver is not installed
 */
export async function openReadOnlyStore(
  target: string,
  options: OpenTargetOptions = {},
): Promise<ReadOnlyStore> {
  const tables = storeOptions(options);
  const purpose = options.purpose ?? 'chunklog inspect';
  if (isPostgres(target) || isMysql(target)) {
    const db = await serverKysely(target, true, purpose);
    return opened(createChunkStore({ db }, tables), target, db);
  }
  const Database = await loadDependency<SqliteConstructor>(
    'better-sqlite3',
    `${purpose} of an SQLite file`,
  );
  let file: InstanceType<SqliteConstructor>;
  try {
    file = new Database(target, { readonly: true, fileMustExist: true });
  } catch (error) {
    // A file that is not there is a failure to name plainly, not SQLite's "unable to open".
    const reason = existsSync(target) ? (error as Error).message : 'no such file';
    throw new ChunklogError('store-failed', `cannot open ${target}: ${reason}`, {
      value: target,
      cause: error,
    });
  }
  const db = new Kysely({ dialect: new SqliteDialect({ database: file as never }) });
  return opened(createChunkStore({ db }, tables), target, db);
}

/**
 * Opens a chunk store to write to (`chunklog import`): an SQLite file (created when missing, as
 * `createChunkStore({ sqlite })` does), or a PostgreSQL or MySQL/MariaDB URL. Never migrates.
 *
 * @param target - a file path, `postgres://…` or `mysql://…`
 * @param options - the store's table prefix
 * @returns the store, a display name, and close
 * @throws {ChunklogError} `missing-dependency` when the driver is not installed
 */
export async function openWritableStore(
  target: string,
  options: OpenTargetOptions = {},
): Promise<OpenedStore> {
  const tables = storeOptions(options);
  if (isPostgres(target) || isMysql(target)) {
    const db = await serverKysely(target, false, options.purpose ?? 'chunklog import');
    return opened(createChunkStore({ db }, tables), target, db);
  }
  return opened(createChunkStore({ sqlite: target }, tables), target);
}
