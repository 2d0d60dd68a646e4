// The store's `timeoutMs`: an operation that cannot finish in time fails with `store-timeout`
// and leaves nothing half done; the option is checked. The lock here is held for as long as the
// test wants, so nothing depends on when the timer fires — only that it does.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { isConnectionLost, isLockConflict } from '../../src/store/faults.js';
import { createChunkStore } from '../../src/store/index.js';
import { textDrafts } from '../../src/testing/index.js';
import { rejected, thrown } from '../support/chunklog-error.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('timeoutMs', () => {
  it('a write that waits for a lock held elsewhere ends with store-timeout; a retry stores it once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'chunklog-timeout-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'store.db');
    const store = createChunkStore({ sqlite: file }, { timeoutMs: 200 });
    cleanups.push(() => store.close());
    await store.migrate();
    await store.appendTurn('th', textDrafts('a', 1));
    // Another process holds the database's write lock.
    const other = new Database(file);
    other.exec('begin immediate');
    const error = await rejected(store.appendTurn('th', textDrafts('b', 2)));
    expect(error.code).toBe('store-timeout');
    expect(error.threadId).toBe('th');
    expect(error.message).toMatch(/^appendTurn on thread "th" did not finish within 200 ms/);
    other.exec('commit');
    other.close();
    expect(await store.getTurn('th', 'b')).toBeNull();
    expect((await store.appendTurn('th', textDrafts('b', 2))).map((r) => r.seq)).toEqual([2, 3]);
    expect((await store.getRows('th')).map((r) => r.turnId)).toEqual(['a', 'b', 'b']);
  });

  it('is checked: an integer from 1 to 2^31 - 1', () => {
    for (const timeoutMs of [0, -1, 1.5, Number.NaN, '100', 2 ** 31]) {
      expect(
        thrown(() => createChunkStore({ sqlite: ':memory:' }, { timeoutMs } as never)).option,
      ).toBe('timeoutMs');
    }
  });

  it('tells a lost connection from a refused statement and a lock conflict', () => {
    const lost = [
      Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET', errno: -104 }),
      new Error('Connection terminated unexpectedly'),
      new Error('Client has encountered a connection error and is not queryable'),
      Object.assign(new Error('Connection lost: The server closed the connection.'), {
        code: 'PROTOCOL_CONNECTION_LOST',
        fatal: true,
      }),
      Object.assign(new Error("Can't add new command when connection is in closed state"), {
        fatal: true,
      }),
      Object.assign(new Error('terminating connection due to administrator command'), {
        code: '57P01',
      }),
      Object.assign(new Error('connection failure'), { code: '08006' }),
      Object.assign(new Error('Connection was killed'), { errno: 1927 }),
    ];
    for (const error of lost) expect(isConnectionLost(error), error.message).toBe(true);
    const refused = [
      Object.assign(new Error('duplicate key'), { code: '23505' }),
      Object.assign(new Error("Table 'x' doesn't exist"), { errno: 1146, fatal: false }),
      Object.assign(new Error('deadlock detected'), { code: '40P01' }),
      Object.assign(new Error('no such table: x'), { code: 'SQLITE_ERROR' }),
      'Connection terminated',
      null,
    ];
    for (const error of refused) expect(isConnectionLost(error), String(error)).toBe(false);
    expect(isLockConflict(Object.assign(new Error('deadlock'), { code: '40P01' }))).toBe(true);
    expect(isLockConflict(Object.assign(new Error('busy'), { code: 'SQLITE_BUSY' }))).toBe(true);
    expect(isLockConflict(Object.assign(new Error('lock wait'), { errno: 1205 }))).toBe(true);
    expect(isLockConflict(lost[0])).toBe(false);
  });
});
