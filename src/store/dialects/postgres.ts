import { CompiledQuery, sql } from 'kysely';
import type { StoreDialectAdapter } from './adapter.js';

/**
 * PostgreSQL (`pg`, and PostgreSQL-compatible servers): the thread row is locked with
 * `SELECT … FOR UPDATE` inside a `READ COMMITTED` transaction, which serializes the writers of
 * one thread and nobody else.
 */
export const postgresAdapter: StoreDialectAdapter = {
  name: 'postgres',
  idType: sql`text`,
  idCast: sql`text`,
  jsonType: sql`jsonb`,
  jsonRefuses: /\\u(?:0000|d[89a-f])/,
  textType: sql`text`,
  millisType: 'bigint',
  beginImmediate: false,
  selectForUpdate: true,
  checkTurnWithLock: false,
  updateReturning: true,
  writableCte: true,
  writeIsolation: 'read committed',
  insertIgnore: 'on-conflict-do-nothing',
  createTableSuffix: undefined,
  createIndexIfNotExists: true,
  maxParameters: 65_535,
  tableCatalog: sql<{
    name: string;
  }>`select tablename as name from pg_catalog.pg_tables where schemaname = current_schema()`,
  // A multi-statement simple query (no parameters: `ms` is the store's validated integer option),
  // so the timeouts cost no round trip of their own.
  beginWithTimeouts: (ms) => {
    const limit = String(Math.trunc(ms));
    return CompiledQuery.raw(
      `start transaction isolation level read committed; set local statement_timeout = ${limit}; set local idle_in_transaction_session_timeout = ${limit}`,
    );
  },
};
