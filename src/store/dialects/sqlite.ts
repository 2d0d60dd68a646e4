import { sql } from 'kysely';
import type { StoreDialectAdapter } from './adapter.js';

/**
 * SQLite (better-sqlite3, libSQL, …): one writer at a time per file. Writes begin with
 * `BEGIN IMMEDIATE`, which takes the file's write lock up front (waiting up to the busy
 * timeout), so the seq read and the insert can never interleave with another process.
 */
export const sqliteAdapter: StoreDialectAdapter = {
  name: 'sqlite',
  idType: sql`text`,
  idCast: sql`text`,
  jsonType: sql`text`,
  jsonRefuses: undefined,
  textType: sql`text`,
  millisType: 'integer',
  beginImmediate: true,
  selectForUpdate: false,
  checkTurnWithLock: true,
  updateReturning: true,
  writableCte: false,
  writeIsolation: undefined,
  insertIgnore: 'on-conflict-do-nothing',
  createTableSuffix: undefined,
  createIndexIfNotExists: true,
  maxParameters: 32_766,
  tableCatalog: sql<{ name: string }>`select name from sqlite_master where type = 'table'`,
};
