// `createChunkStore({ postgres })` and `({ mysql })`: the store opens a pool of its own from a
// URL or the driver's pool options, refuses a malformed one by name, and ends the pool on
// `close()`, so that a process that closed its store exits by itself.
import { fork } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ChunklogError } from '../../src/errors/index.js';
import { createChunkStore } from '../../src/store/index.js';
import { MYSQL_URL, mysqlAvailable, POSTGRES_URL, postgresAvailable } from '../support/services.js';
import { createHarness, type DialectHarness } from './support/dialects.js';

const targets = [
  { key: 'postgres', url: POSTGRES_URL, on: await postgresAvailable() },
  { key: 'mysql', url: MYSQL_URL, on: await mysqlAvailable() },
] as const;
const harnesses: DialectHarness[] = [];
afterAll(async () => {
  for (const h of harnesses) await h.dispose(); // drops the tables under its prefix
});

/** A fresh table prefix on the dialect, whose tables are dropped after the file. */
function freshPrefix(key: 'postgres' | 'mysql'): string {
  const harness = createHarness(key);
  harnesses.push(harness);
  return harness.prefix;
}

/** Runs the worker; resolves with its report once it exited by itself (code 0). */
function runWorker(key: string, url: string, prefix: string): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const child = fork(
      join(import.meta.dirname, 'support', 'owned-pool-worker.ts'),
      [key, url, prefix],
      {
        execArgv: ['--import', 'tsx'],
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      },
    );
    let report: unknown;
    child.on('message', (message) => {
      report = message;
    });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(report) : reject(new Error(`exit ${code}`))));
  });
}

for (const { key, url, on } of targets) {
  describe.skipIf(!on)(`createChunkStore({ ${key} })`, () => {
    it('writes and reads through a pool of its own, and close() ends it: the process exits by itself', async () => {
      const prefix = freshPrefix(key);
      expect(await runWorker(key, url, prefix)).toEqual({
        dialect: key,
        texts: [{ text: 'hello' }],
      });
    });

    // The worker gives pg's pool options and mysql2 a URL: here the other way round.
    it(`takes ${key === 'postgres' ? 'a connection string' : 'the driver pool options'} too`, async () => {
      const prefix = freshPrefix(key);
      const target =
        key === 'postgres' ? { postgres: url } : { mysql: { uri: url, connectionLimit: 2 } };
      const store = createChunkStore(target, { tablePrefix: prefix });
      try {
        await store.migrate();
        await store.appendTurn('t', [
          { turnId: 'a', role: 'user', type: 'text', data: { text: 'x' }, step: 0 },
        ]);
        expect((await store.getRows('t')).map((r) => r.data)).toEqual([{ text: 'x' }]);
      } finally {
        await store.close();
      }
    });
  });
}

describe('a malformed server target', () => {
  it.each([
    ['postgres', ''],
    ['postgres', 42],
    ['mysql', ''],
    ['mysql', ['mysql://x']],
    ['mysql', null],
  ])('{ %s: %j } is refused, naming the key', (key, value) => {
    let error: ChunklogError | undefined;
    try {
      createChunkStore({ [key]: value } as never);
    } catch (thrown) {
      error = thrown as ChunklogError;
    }
    expect(error).toMatchObject({ code: 'invalid-option', option: key });
    expect(error?.message).toMatch(new RegExp(`^${key} must be a connection string`));
  });

  // Handed to the driver, these waited on a server that never answered (a PostgreSQL port
  // spoken to as MySQL: store-timeout after 30 s) or connected as a user nobody named.
  it.each([
    ['mysql', 'postgres://postgres@127.0.0.1:5432/test', 'a postgres: URL is for { postgres }'],
    ['mysql', 'postgresql://u:secret@db/app', 'a postgresql: URL is for { postgres }'],
    ['postgres', 'mysql://root@127.0.0.1:3306/test', 'a mysql: URL is for { mysql }'],
    ['postgres', 'mariadb://root@127.0.0.1:3306/test', 'a mariadb: URL is for { mysql }'],
    ['mysql', 'mysql:/broken', 'this mysql: URL does not parse'],
    ['mysql', 'mysql://[::1', 'this mysql: URL does not parse'],
    ['mysql', 'http://127.0.0.1:3306/test', 'a http: URL is no mysql connection string'],
    ['postgres', '127.0.0.1:5432', 'the string is no URL'],
  ])('{ %s: %j } is refused at creation, before anything connects', (key, url, why) => {
    let error: ChunklogError | undefined;
    try {
      createChunkStore({ [key]: url } as never);
    } catch (thrown) {
      error = thrown as ChunklogError;
    }
    expect(error).toMatchObject({ code: 'invalid-option', option: key });
    expect(error?.message).toMatch(new RegExp(`^${key} must be a `));
    expect(error?.message).toContain(why);
    expect(error?.message).not.toContain('secret');
  });

  it.each([
    ['postgres', 'postgres://postgres@127.0.0.1:5432/test'],
    ['postgres', 'postgresql://postgres@127.0.0.1:5432/test'],
    ['postgres', 'socket:/var/run/postgresql?db=test'],
    ['postgres', '/var/run/postgresql test'],
    ['mysql', 'mysql://root@127.0.0.1:3306/test'],
    ['mysql', 'mariadb://root@127.0.0.1:3306/test'],
    ['mysql', { host: '127.0.0.1', user: 'root', database: 'test' }],
  ])('{ %s: %j } is accepted (nothing connects until the first call)', async (key, target) => {
    const store = createChunkStore({ [key]: target } as never);
    await store.close();
  });

  it('names a misspelt target with the one meant', () => {
    expect(() => createChunkStore({ mysqll: 'mysql://x' } as never)).toThrow(
      /did you mean `mysql`/,
    );
  });
});
