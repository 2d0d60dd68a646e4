// On PostgreSQL a write transaction begins with one round trip that also sets the server-side
// timeouts (`statement_timeout`, `idle_in_transaction_session_timeout`) to the store's
// `timeoutMs`, for that transaction only: a stalled client cannot hold a thread's lock for good,
// and the application's pooled connections keep their own settings.
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { postgresAdapter } from '../../src/store/dialects/postgres.js';
import { createChunkStore } from '../../src/store/index.js';
import { textDrafts } from '../../src/testing/index.js';
import { dropStoreTables } from '../support/drop-store-tables.js';
import { POSTGRES_URL } from '../support/services.js';
import { availableDialects, randomPrefix } from './support/dialects.js';

const available = await availableDialects();
const pools: pg.Pool[] = [];
afterAll(async () => {
  for (const pool of pools) await pool.end();
});

describe.skipIf(!available.includes('postgres'))('a write transaction on PostgreSQL', () => {
  const settings = async (client: pg.PoolClient) => {
    const timeout = await client.query('show statement_timeout');
    const idle = await client.query('show idle_in_transaction_session_timeout');
    return [timeout.rows[0]?.statement_timeout, idle.rows[0]?.idle_in_transaction_session_timeout];
  };

  /** A Kysely over a pool whose clients record the text of every query they send. */
  const recordingDatabase = () => {
    const sent: string[] = [];
    const pool = new pg.Pool({ connectionString: POSTGRES_URL, max: 2 });
    pools.push(pool);
    pool.on('connect', (client) => {
      const query = client.query.bind(client) as (...args: unknown[]) => unknown;
      (client as { query: unknown }).query = (...args: unknown[]) => {
        const text = typeof args[0] === 'string' ? args[0] : (args[0] as { text?: string }).text;
        sent.push(String(text));
        return query(...args);
      };
    });
    // biome-ignore lint/suspicious/noExplicitAny: the store takes a Kysely of any schema
    const db = new Kysely<any>({ dialect: new PostgresDialect({ pool }) });
    return { sent, pool, db, prefix: randomPrefix() };
  };

  it('begins with the timeouts set for the transaction only, in one statement', async () => {
    const pool = new pg.Pool({ connectionString: POSTGRES_URL, max: 1 });
    pools.push(pool);
    const client = await pool.connect();
    try {
      const before = await settings(client);
      await client.query(postgresAdapter.beginWithTimeouts?.(4321).sql ?? 'begin');
      expect(await settings(client)).toEqual(['4321ms', '4321ms']);
      const level = await client.query('show transaction_isolation');
      expect(level.rows[0]?.transaction_isolation).toBe('read committed');
      await client.query('commit');
      expect(await settings(client)).toEqual(before);
      // Rolled back, the same.
      await client.query(postgresAdapter.beginWithTimeouts?.(77).sql ?? 'begin');
      await client.query('rollback');
      expect(await settings(client)).toEqual(before);
    } finally {
      client.release();
    }
  });

  it("appendTurn's transaction starts with that statement, and the turn is stored", async () => {
    const { sent, pool, db, prefix } = recordingDatabase();
    const store = createChunkStore({ db }, { tablePrefix: prefix, timeoutMs: 2468 });
    try {
      await store.migrate();
      sent.length = 0;
      const rows = await store.appendTurn('begin', textDrafts('t1', 2));
      expect(rows.map((r) => r.seq)).toEqual([1, 2]);
      expect(sent[0]).toBe(postgresAdapter.beginWithTimeouts?.(2468).sql);
      expect(sent[sent.length - 1]).toBe('commit');
      expect(sent.filter((s) => /set_config|^begin|^start transaction/i.test(s))).toHaveLength(1);
      expect((await store.getRows('begin')).map((r) => r.seq)).toEqual([1, 2]);
    } finally {
      await store.close();
      await dropStoreTables(db, prefix);
      await db.destroy();
      pools.splice(pools.indexOf(pool), 1);
    }
  });
  it('beginTurn of a new turn sends four statements, and a turn begun before is found', async () => {
    const { sent, pool, db, prefix } = recordingDatabase();
    const store = createChunkStore({ db }, { tablePrefix: prefix });
    try {
      await store.migrate();
      await store.appendTurn('begin', textDrafts('t0', 1));
      sent.length = 0;
      const begun = await store.beginTurn('begin', textDrafts('t1', 2));
      expect(begun.created).toBe(true);
      expect(begun.rows.map((r) => r.seq)).toEqual([2, 3]);
      // BEGIN, the thread's advance, the rows with the turn-id check and the turn's row, COMMIT.
      expect(sent).toHaveLength(4);
      expect(sent[2]).toMatch(/insert into .*turns/i);
      expect((await store.getTurnInfo('begin', 't1'))?.status).toBe('running');
      // Again: nothing is written twice; the turn begun before is read back.
      const again = await store.beginTurn('begin', textDrafts('t1', 2));
      expect(again).toMatchObject({ created: false, status: 'running' });
      expect(again.rows.map((r) => r.seq)).toEqual([2, 3]);
      expect((await store.getThread('begin')).total).toBe(3);
    } finally {
      await store.close();
      await dropStoreTables(db, prefix);
      await db.destroy();
      pools.splice(pools.indexOf(pool), 1);
    }
  });
});
