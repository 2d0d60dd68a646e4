import { sql } from 'kysely';
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
  transactionTimeouts: (ms) =>
    sql`select set_config('statement_timeout', ${String(ms)}, true), set_config('idle_in_transaction_session_timeout', ${String(ms)}, true)`,
};
