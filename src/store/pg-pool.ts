import { Kysely, PostgresDialect, type PostgresPool } from 'kysely';
import { loadDependency } from './load-dependency.js';

/** The parts of a `pg` client the wiring touches, typed structurally. */
export interface PgClientEvents {
  on(event: 'error', listener: (error: unknown) => void): unknown;
}

/** The parts of a `pg` pool the wiring touches, typed structurally. */
export interface PgPoolEvents {
  on(event: 'connect', listener: (client: PgClientEvents) => void): unknown;
  on(event: 'error', listener: (error: unknown) => void): unknown;
}

const ignore = (): void => {};

/**
 * Wires a `pg` pool so that a connection that drops cannot kill the process: an `error` listener
 * on every client it makes, and one on the pool. pg-pool listens for a client's `error` only
 * while the client sits idle; while a client is checked out (as it is for every query and
 * transaction the store runs through Kysely) a dropped connection fails the query in flight —
 * which the store reports — and also emits `error` on the client, which, heard by nobody, is an
 * uncaught exception. Call it once on the pool you give Kysely; `createChunkStore({ postgres })`
 * does it on the pool it makes.
 *
 * @param pool - a `pg` Pool
 * @returns the same pool
 *
 * @example
 * ```ts
 * import { Kysely, PostgresDialect } from 'kysely';
 * import pg from 'pg';
 * import { createChunkStore, guardPgPool } from 'chunklog/store';
 *
 * const pool = guardPgPool(new pg.Pool({ connectionString: process.env.DATABASE_URL }));
 * const store = createChunkStore({ db: new Kysely({ dialect: new PostgresDialect({ pool }) }) });
 * ```
 */
export function guardPgPool<P extends PgPoolEvents>(pool: P): P {
  pool.on('connect', (client) => {
    client.on('error', ignore);
  });
  pool.on('error', ignore);
  return pool;
}

/** What `createChunkStore({ postgres })` takes: a connection string or `pg`'s pool options. */
export type PostgresTarget = string | Readonly<Record<string, unknown>>;

type PgPoolConstructor = new (config: Record<string, unknown>) => PostgresPool & PgPoolEvents;

/**
 * A Kysely instance over a `pg` pool the store owns, wired by {@link guardPgPool}; `pg` is
 * imported on first use.
 *
 * @param target - a connection string, or `pg`'s pool options
 * @returns the Kysely instance
 */
export function openPostgres(target: PostgresTarget): Kysely<unknown> {
  const config = typeof target === 'string' ? { connectionString: target } : { ...target };
  return new Kysely<unknown>({
    dialect: new PostgresDialect({
      pool: async () => {
        const pg = await loadDependency<{ Pool: PgPoolConstructor }>(
          'pg',
          'createChunkStore({ postgres })',
        );
        return guardPgPool(new pg.Pool(config));
      },
    }),
  });
}
