import { sql } from 'kysely';
import type { StoreDialectAdapter } from './adapter.js';

/**
 * MySQL and MariaDB (`mysql2`): like PostgreSQL, a row lock on the thread (`SELECT … FOR
 * UPDATE`) in a `READ COMMITTED` transaction. Ids are `VARBINARY` so that they compare byte for
 * byte (the default collations ignore case and trailing spaces); tables are InnoDB.
 */
export const mysqlAdapter: StoreDialectAdapter = {
  name: 'mysql',
  idType: sql`varbinary(255)`,
  idCast: sql`binary`,
  jsonType: sql`json`,
  jsonRefuses: /\\ud[89a-f]/,
  textType: sql`longtext character set utf8mb4 collate utf8mb4_bin`,
  millisType: 'bigint',
  beginImmediate: false,
  selectForUpdate: true,
  checkTurnWithLock: false,
  updateReturning: false,
  writableCte: false,
  writeIsolation: 'read committed',
  insertIgnore: 'on-duplicate-key-update',
  createTableSuffix: sql`engine = InnoDB default charset = utf8mb4`,
  createIndexIfNotExists: false,
  maxParameters: 65_535,
  tableCatalog: sql<{
    name: string;
  }>`select table_name as name from information_schema.tables where table_schema = database()`,
};
