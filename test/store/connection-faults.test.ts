// appendTurn through a TCP proxy that cuts the connection at five points of the write
// transaction, on PostgreSQL and MariaDB, with the application's own pool passed as { db }:
// before BEGIN, after the first INSERT, before COMMIT, after COMMIT (its answer lost), and a
// connection that stalls. Whatever happens, the process stays up, the turn is stored whole or
// not at all, a failure is a typed ChunklogError, and appendTurn with the same turn id stores it
// exactly once. No assertion here is about time: the stall is ended by a short `timeoutMs`, and
// what is checked is the error and the data.
import { Kysely, MysqlDialect, PostgresDialect } from 'kysely';
import { createPool } from 'mysql2';
import pg from 'pg';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { ChunkRowDraft } from '../../src/schema/index.js';
import { type ChunkStore, createChunkStore, guardPgPool } from '../../src/store/index.js';
import { textDrafts } from '../../src/testing/index.js';
import { rejected } from '../support/chunklog-error.js';
import { MYSQL_URL, POSTGRES_URL } from '../support/services.js';
import { FAULT_POINTS, type FaultProxy, startFaultProxy } from '../support/tcp-proxy.js';
import { availableDialects, createHarness, type DialectHarness } from './support/dialects.js';

const available = await availableDialects();
const harnesses: DialectHarness[] = [];
afterAll(async () => {
  for (const h of harnesses) await h.dispose();
});

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

type ServerDialect = 'postgres' | 'mysql';

/** The application's own Kysely over its own pool, connecting through the proxy. */
// biome-ignore lint/suspicious/noExplicitAny: the application's database, of any schema
function appDatabase(name: ServerDialect, port: number): Kysely<any> {
  if (name === 'postgres') {
    const url = new URL(POSTGRES_URL);
    url.port = String(port);
    // Wired as docs/store.md asks of every application's pool: a connection that drops, idle or
    // checked out, is reported, not thrown as an uncaught 'error' event.
    const pool = guardPgPool(new pg.Pool({ connectionString: url.toString(), max: 3 }));
    return new Kysely({ dialect: new PostgresDialect({ pool }) });
  }
  const url = new URL(MYSQL_URL);
  url.port = String(port);
  return new Kysely({
    dialect: new MysqlDialect({ pool: createPool({ uri: url.toString(), connectionLimit: 3 }) }),
  });
}

/** One migrated database per dialect; each test writes a thread of its own. */
const harnessOf = new Map<ServerDialect, DialectHarness>();
async function migrated(name: ServerDialect): Promise<DialectHarness> {
  let h = harnessOf.get(name);
  if (h === undefined) {
    h = createHarness(name);
    harnesses.push(h);
    harnessOf.set(name, h);
    const store = h.openStore();
    await store.migrate();
    await store.close();
  }
  return h;
}

let threads = 0;

async function setup(name: ServerDialect, timeoutMs?: number) {
  const h = await migrated(name);
  const threadId = `th${++threads}`;
  const direct = h.openStore();
  const target = new URL(name === 'postgres' ? POSTGRES_URL : MYSQL_URL);
  const proxy: FaultProxy = await startFaultProxy({
    host: target.hostname,
    port: Number(target.port),
  });
  const db = appDatabase(name, proxy.port);
  const store: ChunkStore = createChunkStore(
    { db },
    { tablePrefix: h.prefix, ...(timeoutMs === undefined ? {} : { timeoutMs }) },
  );
  cleanups.push(async () => {
    proxy.releaseStalled();
    await store.close();
    // A pool whose connection was left stalled reports that connection's end when it closes.
    await db.destroy().catch(() => {});
    await proxy.close();
    await direct.close();
  });
  // The thread exists, with one turn before the one that meets the fault.
  await direct.appendTurn(threadId, textDrafts('before', 2));
  return { proxy, store, direct, threadId };
}

const drafts: ChunkRowDraft[] = textDrafts('faulted', 3);

/** The stored rows of the faulted turn: all of them or none (null). */
async function storedTurn(direct: ChunkStore, threadId: string): Promise<number[] | null> {
  const rows = await direct.getTurn(threadId, 'faulted');
  if (rows !== null) expect(rows.map((r) => r.data)).toEqual(drafts.map((d) => d.data));
  return rows === null ? null : rows.map((r) => r.seq);
}

/** The whole thread is the turn before, then the faulted turn once, with dense seqs. */
async function expectStoredOnce(direct: ChunkStore, threadId: string): Promise<void> {
  const rows = await direct.getRows(threadId);
  expect(rows.map((r) => [r.seq, r.turnId])).toEqual([
    [1, 'before'],
    [2, 'before'],
    [3, 'faulted'],
    [4, 'faulted'],
    [5, 'faulted'],
  ]);
  expect((await direct.getThread(threadId)).total).toBe(5);
}

for (const name of ['postgres', 'mysql'] as const) {
  describe.skipIf(!available.includes(name))(
    `appendTurn with its connection cut, on ${name}`,
    () => {
      for (const point of FAULT_POINTS.filter((p) => p !== 'stall')) {
        it(`${point}, once: the store finds out by turn id and stores the turn exactly once`, async () => {
          const { proxy, store, direct, threadId } = await setup(name);
          const fired = proxy.arm(point);
          const rows = await store.appendTurn(threadId, drafts);
          await fired;
          expect(rows.map((r) => r.seq)).toEqual([3, 4, 5]);
          await expectStoredOnce(direct, threadId);
          // The same turn id again: the stored rows, nothing written.
          expect((await store.appendTurn(threadId, drafts)).map((r) => r.seq)).toEqual([3, 4, 5]);
          await expectStoredOnce(direct, threadId);
        });

        it(`${point}, then the database is down: a typed error, the turn whole or absent, a retry stores it once`, async () => {
          const { proxy, store, direct, threadId } = await setup(name);
          const fired = proxy.arm(point, { outage: true });
          const error = await rejected(store.appendTurn(threadId, drafts));
          await fired;
          expect(error.code).toBe('store-failed');
          expect(error.threadId).toBe(threadId);
          expect(error.cause).toBeInstanceOf(Error);
          const stored = await storedTurn(direct, threadId);
          if (point === 'after-commit') {
            // The COMMIT was applied; the store could not find out, and says so.
            expect(stored).toEqual([3, 4, 5]);
            expect(error.message).toMatch(/COMMIT was on its way/);
            expect(error.message).toMatch(/same turn id stores it exactly once/);
          } else {
            expect(stored).toBeNull();
          }
          proxy.restore();
          expect((await store.appendTurn(threadId, drafts)).map((r) => r.seq)).toEqual([3, 4, 5]);
          await expectStoredOnce(direct, threadId);
        });
      }

      it('stalled after an INSERT: store-timeout, the turn absent, the lock released, a retry stores it once', async () => {
        const { proxy, store, direct, threadId } = await setup(name, 1000);
        proxy.arm('stall');
        const error = await rejected(store.appendTurn(threadId, drafts));
        // On a machine loaded enough, the second may pass before the stall: a timeout all the
        // same, which must leave the same state.
        proxy.disarm();
        expect(error.code).toBe('store-timeout');
        expect(error.threadId).toBe(threadId);
        expect(error.message).toMatch(/timeoutMs/);
        expect(await storedTurn(direct, threadId)).toBeNull();
        // Another writer of the thread is not kept waiting by the stalled connection: its session
        // was ended, so the thread's lock is free (this write has the default timeout).
        expect((await direct.appendTurn(threadId, drafts)).map((r) => r.seq)).toEqual([3, 4, 5]);
        expect((await store.appendTurn(threadId, drafts)).map((r) => r.seq)).toEqual([3, 4, 5]);
        await expectStoredOnce(direct, threadId);
      });

      it('a read that stalls: store-timeout, and the next read gets through', async () => {
        const { proxy, store, threadId } = await setup(name, 1000);
        proxy.arm('stall-read');
        const error = await rejected(store.getChunks(threadId));
        proxy.disarm();
        expect(error.code).toBe('store-timeout');
        expect(error.message).toMatch(/^getChunks on thread "th\d+" did not finish within 1000 ms/);
        expect((await store.getChunks(threadId)).total).toBe(2);
      });
    },
  );
}
