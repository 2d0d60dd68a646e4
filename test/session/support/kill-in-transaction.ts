// A store whose process SIGKILLs itself right after a statement matching `when` ran: with the
// transaction of that statement open, before its COMMIT was sent. Test-only: a Kysely dialect that
// wraps the real one's driver (the store's SQL and code are untouched), on the SQLite file,
// PostgreSQL and MariaDB alike.
import Database from 'better-sqlite3';
import {
  type CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  Kysely,
  MysqlDialect,
  PostgresDialect,
  SqliteDialect,
} from 'kysely';
import { createPool } from 'mysql2';
import pg from 'pg';
import { type ChunkStore, createChunkStore, guardPgPool } from '../../../src/store/index.js';
import type { HarnessSpec } from '../../store/support/dialects.js';
import { MYSQL_URL, POSTGRES_URL } from '../../support/services.js';

function killingConnection(
  connection: DatabaseConnection,
  when: (sql: string) => boolean,
): DatabaseConnection {
  return {
    async executeQuery<R>(query: CompiledQuery) {
      const result = await connection.executeQuery<R>(query);
      // The statement ran; its transaction is open: the process dies here, nothing after it runs.
      if (when(query.sql)) process.kill(process.pid, 'SIGKILL');
      return result;
    },
    streamQuery: (query, chunkSize) => connection.streamQuery(query, chunkSize),
  };
}

function killingDialect(inner: Dialect, when: (sql: string) => boolean): Dialect {
  return {
    createAdapter: () => inner.createAdapter(),
    createIntrospector: (db) => inner.createIntrospector(db),
    createQueryCompiler: () => inner.createQueryCompiler(),
    createDriver(): Driver {
      const driver = inner.createDriver();
      const wrapped = new WeakMap<DatabaseConnection, DatabaseConnection>();
      const outer = (connection: DatabaseConnection) => {
        let w = wrapped.get(connection);
        if (w === undefined) {
          w = killingConnection(connection, when);
          wrapped.set(connection, w);
        }
        return w;
      };
      const inners = new WeakMap<DatabaseConnection, DatabaseConnection>();
      return {
        init: () => driver.init(),
        async acquireConnection() {
          const connection = await driver.acquireConnection();
          const w = outer(connection);
          inners.set(w, connection);
          return w;
        },
        beginTransaction: (c, settings) => driver.beginTransaction(inners.get(c) ?? c, settings),
        commitTransaction: (c) => driver.commitTransaction(inners.get(c) ?? c),
        rollbackTransaction: (c) => driver.rollbackTransaction(inners.get(c) ?? c),
        releaseConnection: (c) => driver.releaseConnection(inners.get(c) ?? c),
        destroy: () => driver.destroy(),
      };
    },
  };
}

/**
 * Opens the harness's store through a driver that kills the process after a statement `when`
 * matches.
 *
 * @param spec - the harness's database
 * @param when - the statements to die after
 */
export function openKillingStore(spec: HarnessSpec, when: (sql: string) => boolean): ChunkStore {
  const inner: Dialect =
    spec.name === 'sqlite'
      ? new SqliteDialect({
          database: () => Promise.resolve(new Database(spec.file as string, { timeout: 10_000 })),
        })
      : spec.name === 'postgres'
        ? new PostgresDialect({
            pool: guardPgPool(new pg.Pool({ connectionString: POSTGRES_URL, max: 2 })),
          })
        : new MysqlDialect({ pool: createPool({ uri: MYSQL_URL, connectionLimit: 2 }) });
  const db = new Kysely<unknown>({ dialect: killingDialect(inner, when) });
  const store = createChunkStore({ db, dialect: spec.name }, { tablePrefix: spec.prefix });
  return {
    ...store,
    async close() {
      await store.close();
      await db.destroy();
    },
  };
}
