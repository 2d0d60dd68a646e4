// examples/postgres-workers against the local PostgreSQL: worker processes, one killed mid-turn
// and one dying after a write, and still every turn stored exactly once.
import pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { POSTGRES_URL, postgresAvailable } from '../support/services.js';
import { ensureBuilt, runExample } from './support.js';

const hasPostgres = await postgresAvailable();
beforeAll(() => {
  if (hasPostgres) ensureBuilt();
});

describe.skipIf(!hasPostgres)('examples/postgres-workers', () => {
  it('stores every turn of every thread exactly once, in order, while workers die', async () => {
    const { code, stdout, stderr } = await runExample(
      'examples/postgres-workers/main.ts',
      ['--url', POSTGRES_URL, '--workers', '4', '--threads', '6', '--turns', '5'],
      { timeoutMs: 90_000 },
    );
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toContain('30 turns queued on 6 threads; 4 workers');

    // A worker was killed in the middle of a turn, and its job was run again by another.
    const killed = /\*\* killing (w\d) \(SIGKILL\)/.exec(stdout)?.[1];
    expect(killed).toBeDefined();
    expect(stdout).not.toContain(`${killed} no jobs left`);
    // Another died after storing thread-2/turn-2; the retry found it stored (hasTurn) and did not
    // run the model again.
    const crashed = /(w\d) crashing after storing thread-2\/turn-2, before marking it done/.exec(
      stdout,
    )?.[1];
    expect(crashed).toBeDefined();
    expect(crashed).not.toBe(killed);
    expect(stdout).toMatch(/w\d start thread-2\/turn-2 \(attempt 2\)/);
    expect(stdout).toMatch(
      /w\d stored thread-2\/turn-2: it was already stored by an earlier attempt, not run again/,
    );
    expect(stdout.match(/stored thread-2\/turn-2 \(\d+ rows/g)).toHaveLength(1);

    for (let t = 1; t <= 6; t++) {
      expect(stdout).toContain(`thread-${t}        5         5           0  1–15       complete`);
    }
    expect(stdout).toContain(
      '30 of 30 turns stored, each exactly once; 30 jobs done, 2 of them retried',
    );
    expect(stdout).toContain('no turn lost or duplicated');

    // It dropped its tables.
    const prefix = /tables (pgw_\w+_)\*/.exec(stdout)?.[1];
    expect(prefix).toBeDefined();
    const client = new pg.Client({ connectionString: POSTGRES_URL });
    await client.connect();
    try {
      const { rows } = await client.query(
        'select tablename from pg_tables where tablename like $1',
        [`${prefix}%`],
      );
      expect(rows).toEqual([]);
    } finally {
      await client.end();
    }
  }, 120_000);
});
