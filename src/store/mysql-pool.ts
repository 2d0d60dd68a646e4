import { Kysely, MysqlDialect, type MysqlPool } from 'kysely';
import { loadDependency } from './load-dependency.js';

/**
 * What `createChunkStore({ mysql })` takes: a connection string (`mysql://user:pass@host:3306/db`)
 * or `mysql2`'s pool options.
 */
export type MysqlTarget = string | Readonly<Record<string, unknown>>;

/**
 * A Kysely instance over a `mysql2` pool the store owns; `mysql2` is imported on first use.
 *
 * @param target - a connection string, or `mysql2`'s pool options
 * @returns the Kysely instance
 */
export function openMysql(target: MysqlTarget): Kysely<unknown> {
  const config = typeof target === 'string' ? { uri: target } : { ...target };
  return new Kysely<unknown>({
    dialect: new MysqlDialect({
      pool: async () => {
        const mysql = await loadDependency<{ createPool(config: object): MysqlPool }>(
          'mysql2',
          'createChunkStore({ mysql })',
        );
        return mysql.createPool(config);
      },
    }),
  });
}
