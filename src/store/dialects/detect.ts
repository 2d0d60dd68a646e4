import { type Kysely, MysqlAdapter, PostgresAdapter, SqliteAdapter } from 'kysely';
import { ChunklogError } from '../../errors/chunklog-error.js';
import type { StoreDialectAdapter, StoreDialectName } from './adapter.js';
import { mysqlAdapter } from './mysql.js';
import { postgresAdapter } from './postgres.js';
import { sqliteAdapter } from './sqlite.js';

const adapters: Record<StoreDialectName, StoreDialectAdapter> = {
  sqlite: sqliteAdapter,
  postgres: postgresAdapter,
  mysql: mysqlAdapter,
};

/**
 * The store adapter of a dialect name (already checked).
 *
 * @param name - the dialect
 * @returns its adapter
 */
export function dialectAdapter(name: StoreDialectName): StoreDialectAdapter {
  return adapters[name];
}

/**
 * The store adapter for `name`, or for the dialect of `db` when no name is given: Kysely's own
 * adapter classes are recognised (also from another copy of Kysely, by class name).
 *
 * @throws {ChunklogError} `invalid-option` when the dialect cannot be told
 */
export function resolveDialect(
  // biome-ignore lint/suspicious/noExplicitAny: any Kysely instance will do
  db: Kysely<any>,
  name: StoreDialectName | undefined,
): StoreDialectAdapter {
  if (name !== undefined) {
    const adapter = adapters[name];
    if (adapter === undefined) {
      throw new ChunklogError(
        'invalid-option',
        `Unknown dialect ${JSON.stringify(name)}: use 'sqlite', 'postgres' or 'mysql'.`,
        { option: 'dialect', value: name },
      );
    }
    return adapter;
  }
  const kyselyAdapter: unknown = db.getExecutor().adapter;
  if (kyselyAdapter instanceof SqliteAdapter) return sqliteAdapter;
  if (kyselyAdapter instanceof PostgresAdapter) return postgresAdapter;
  if (kyselyAdapter instanceof MysqlAdapter) return mysqlAdapter;
  const className = (kyselyAdapter as { constructor?: { name?: unknown } } | null)?.constructor
    ?.name;
  const label = typeof className === 'string' ? className : 'unknown';
  if (/sqlite|libsql|d1/i.test(label)) return sqliteAdapter;
  if (/postgres|pglite|neon|cockroach/i.test(label)) return postgresAdapter;
  if (/mysql|maria|planetscale/i.test(label)) return mysqlAdapter;
  throw new ChunklogError(
    'invalid-option',
    `Cannot tell the SQL dialect of this Kysely instance (adapter ${label}): pass { dialect: 'sqlite' | 'postgres' | 'mysql' }.`,
    { option: 'dialect' },
  );
}
