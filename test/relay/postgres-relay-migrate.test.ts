// Several instances that start together each call the PostgreSQL relay's migrate() on a new
// table: all must succeed (a bare CREATE TABLE IF NOT EXISTS races in PostgreSQL and fails one
// of them with "relation already exists", which took an instance down in CI).
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { createPostgresRelay } from '../../src/relay/index.js';
import { POSTGRES_URL, postgresAvailable } from '../support/services.js';

const up = await postgresAvailable();
const pools: pg.Pool[] = [];
const table = `relay_migrate_${Math.random().toString(36).slice(2, 10)}`;

afterAll(async () => {
  await pools[0]?.query(`DROP TABLE IF EXISTS ${table}`);
  for (const pool of pools) await pool.end();
});

describe.skipIf(!up)('the PostgreSQL relay migrate()', () => {
  it('succeeds when ten instances run it at once on a new table, and creates table and indexes once', async () => {
    const relays = Array.from({ length: 10 }, () => {
      const pool = new pg.Pool({ connectionString: POSTGRES_URL, max: 2 });
      pool.on('error', () => {});
      pools.push(pool);
      return createPostgresRelay({ pool, table });
    });
    const outcomes = await Promise.allSettled(relays.map((relay) => relay.migrate()));
    expect(outcomes.filter((o) => o.status === 'rejected')).toEqual([]);
    const indexes = await (pools[0] as pg.Pool).query<{ indexname: string }>(
      'SELECT indexname FROM pg_indexes WHERE tablename = $1 ORDER BY indexname',
      [table],
    );
    expect(indexes.rows.map((r) => r.indexname)).toEqual([
      `${table}_pkey`,
      `${table}_thread`,
      `${table}_turn`,
    ]);
    // Once created, migrate() is a no-op that still succeeds.
    await expect((relays[0] as (typeof relays)[number]).migrate()).resolves.toBeUndefined();
    for (const relay of relays) await relay.close();
  });
});
