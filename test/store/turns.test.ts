// Durable turns in the store (migration 0002): turn status, turns begun and written step by
// step, the thread lease and its fencing — on the SQLite file, PostgreSQL and MariaDB.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { Migrator } from 'kysely/migration';
import { afterAll, describe, expect, it } from 'vitest';
import type { ChunkRowDraft } from '../../src/schema/chunk-row.js';
import { createChunkStore, storeMigrations } from '../../src/store/index.js';
import { textDrafts } from '../../src/testing/index.js';
import { rejected as errorOf } from '../support/chunklog-error.js';
import { availableDialects, createHarness, type DialectHarness } from './support/dialects.js';

const available = await availableDialects();
const harnesses: DialectHarness[] = [];
afterAll(async () => {
  for (const h of harnesses) await h.dispose();
});

function user(turnId: string, text: string): ChunkRowDraft[] {
  return [{ turnId, step: 0, role: 'user', type: 'text', data: { text } }];
}

function step(turnId: string, n: number, text: string): ChunkRowDraft[] {
  return [{ turnId, step: n, role: 'assistant', type: 'text', data: { text } }];
}

for (const name of ['sqlite', 'postgres', 'mysql'] as const) {
  describe.skipIf(!available.includes(name))(`durable turns on ${name}`, () => {
    const harness = () => {
      const h = createHarness(name);
      harnesses.push(h);
      return h;
    };

    it('upgrades a store made by migration 0001: its turns read as completed', async () => {
      const h = harness();
      const first = storeMigrations({ dialect: name, tablePrefix: h.prefix });
      const migrator = new Migrator({
        db: h.raw,
        provider: {
          getMigrations: async () => ({
            '0001_threads_and_chunks': first['0001_threads_and_chunks'] as never,
          }),
        },
        migrationTableName: `${h.prefix}migrations`,
        migrationLockTableName: `${h.prefix}migration_lock`,
      });
      const { error } = await migrator.migrateToLatest();
      expect(error).toBeUndefined();
      // What 0.1.0 wrote (its columns only): a thread and a sealed turn of two rows.
      await h.raw
        .insertInto(`${h.prefix}threads`)
        .values({ id: 'old', created_at: 1000, updated_at: 1000, next_seq: 3, metadata: null })
        .execute();
      for (const seq of [1, 2]) {
        await h.raw
          .insertInto(`${h.prefix}chunks`)
          .values({
            thread_id: 'old',
            seq,
            turn_id: 'a',
            step: 0,
            role: seq === 1 ? 'user' : 'assistant',
            type: 'text',
            data: JSON.stringify({ text: `row ${seq}` }),
            created_at: 1000,
            version: 1,
          })
          .execute();
      }
      const store = h.openStore();
      await store.migrate();
      await store.migrate();
      expect(await store.getTurnInfo('old', 'a')).toMatchObject({
        status: 'completed',
        firstSeq: 1,
        nextSeq: 3,
        holder: null,
      });
      expect(await store.listTurns('old')).toEqual([]);
      const page = await store.getChunks('old');
      expect(page.turnStatus).toBeUndefined();
      await store.close();
    });

    it('begins a turn, appends its steps contiguously, and ends it; status reads with the rows', async () => {
      const h = harness();
      const store = h.openStore();
      await store.migrate();
      await store.appendTurn('t', textDrafts('before', 1));
      const begun = await store.beginTurn('t', user('run', 'hello'));
      expect(begun).toMatchObject({ created: true, status: 'running' });
      expect(begun.rows.map((r) => r.seq)).toEqual([2]);
      const s0 = await store.appendSteps('t', 'run', step('run', 0, 'one'));
      expect(s0.map((r) => r.seq)).toEqual([3]);
      expect(await store.getTurnInfo('t', 'run')).toMatchObject({
        status: 'running',
        firstSeq: 2,
        nextSeq: 4,
      });
      const page = await store.getChunks('t');
      expect(page.turnStatus).toEqual({ run: 'running' });
      expect((await store.getChunksAfter('t')).turnStatus).toEqual({ run: 'running' });
      const messages = await store.getMessages('t');
      expect(messages.map((m) => [m.turnId, m.role, m.status])).toEqual([
        ['before', 'assistant', undefined],
        ['run', 'user', 'running'],
        ['run', 'assistant', 'running'],
      ]);
      expect(await store.listTurns('t', { status: 'running' })).toHaveLength(1);

      await store.appendSteps('t', 'run', step('run', 1, 'two'), { status: 'completed' });
      expect((await store.getRows('t')).map((r) => [r.seq, r.turnId])).toEqual([
        [1, 'before'],
        [2, 'run'],
        [3, 'run'],
        [4, 'run'],
      ]);
      expect((await store.getChunks('t')).turnStatus).toBeUndefined();
      expect(await store.listTurns('t', { status: 'running' })).toEqual([]);
      expect((await errorOf(store.appendSteps('t', 'run', step('run', 2, 'x')))).code).toBe(
        'turn-not-running',
      );
      // Beginning it again writes nothing and returns what is stored.
      const again = await store.beginTurn('t', user('run', 'hello'));
      expect(again).toMatchObject({ created: false, status: 'completed' });
      expect(again.rows.map((r) => r.seq)).toEqual([2, 3, 4]);
      expect((await store.getThread('t')).total).toBe(4);
      await store.close();
    });

    it('refuses a begun turn or a step whose rows would pass the largest seq (2^31 - 1), keeping the turn running with its rows', async () => {
      const store = harness().openStore();
      await store.migrate();
      const last = 2 ** 31 - 1;
      await store.createThread('edge', { firstSeq: last - 1 });
      const begun = await store.beginTurn('edge', user('run', 'hello'));
      expect(begun.rows.map((r) => r.seq)).toEqual([last - 1]);
      const step0 = await errorOf(store.appendSteps('edge', 'run', step('run', 0, 'one')));
      expect([step0.code, step0.threadId]).toEqual(['store-failed', 'edge']);
      const ended = await errorOf(
        store.appendSteps('edge', 'run', step('run', 0, 'one'), { status: 'completed' }),
      );
      expect(ended.code).toBe('store-failed');
      expect(await store.getTurnInfo('edge', 'run')).toMatchObject({
        status: 'running',
        nextSeq: last,
      });
      const other = await errorOf(store.beginTurn('edge', user('next', 'again')));
      expect(other.code).toBe('store-failed');
      expect((await store.getRows('edge')).map((r) => r.seq)).toEqual([last - 1]);
      await store.close();
    });

    it('keeps a running turn contiguous: a step after another turn was stored is refused', async () => {
      const h = harness();
      const store = h.openStore();
      await store.migrate();
      await store.beginTurn('c', user('a', 'first'));
      await store.appendTurn('c', textDrafts('intruder', 1));
      const error = await errorOf(store.appendSteps('c', 'a', step('a', 0, 'late')));
      expect(error.code).toBe('turn-not-running');
      expect(error.message).toMatch(/contiguous/);
      expect((await store.getThread('c')).total).toBe(2);
      await store.setTurnStatus('c', 'a', 'interrupted');
      expect((await store.getMessages('c'))[0]?.status).toBe('interrupted');
      await store.close();
    });

    it('stores a failed or cancelled sealed turn with its status', async () => {
      const h = harness();
      const store = h.openStore();
      await store.migrate();
      await store.appendTurn('s', textDrafts('f', 2), { status: 'failed' });
      await store.appendTurn('s', textDrafts('ok', 1), { status: 'completed' });
      expect((await store.getChunks('s')).turnStatus).toEqual({ f: 'failed' });
      expect(await store.getTurnInfo('s', 'f')).toMatchObject({ status: 'failed', nextSeq: 3 });
      expect(await store.getTurnInfo('s', 'ok')).toMatchObject({ status: 'completed' });
      expect(await store.getTurnInfo('s', 'none')).toBeNull();
      expect(
        (await errorOf(store.appendTurn('s', textDrafts('x', 1), { status: 'nope' as never })))
          .code,
      ).toBe('invalid-option');
      await store.close();
    });

    it('leases a thread to one holder; an injected clock expires it; a lost holder cannot write', async () => {
      const h = harness();
      let clock = 1_000_000;
      const store = h.openStore({ now: () => clock });
      await store.migrate();
      const a = await store.acquireLease('l', 'holder-a', { ttlMs: 1_000 });
      expect(a).toMatchObject({
        acquired: true,
        tookOver: false,
        lease: { holder: 'holder-a', token: 1 },
      });
      const busy = await store.acquireLease('l', 'holder-b', { ttlMs: 1_000 });
      expect(busy).toMatchObject({ acquired: false, lease: { holder: 'holder-a', token: 1 } });
      await store.beginTurn('l', user('t1', 'hi'), { fence: a.lease });
      clock += 500;
      expect(await store.renewLease('l', a.lease, { ttlMs: 1_000 })).toBe(true);
      clock += 900; // renewed: still a's
      expect((await store.acquireLease('l', 'holder-b', { ttlMs: 1_000 })).acquired).toBe(false);
      await store.appendSteps('l', 't1', step('t1', 0, 'one'), { fence: a.lease });
      clock += 200; // a's lease expired: b takes over with a new token
      const b = await store.acquireLease('l', 'holder-b', { ttlMs: 1_000 });
      expect(b).toMatchObject({
        acquired: true,
        tookOver: true,
        lease: { holder: 'holder-b', token: 2 },
      });
      // a comes back: every write with its fence is refused, nothing written.
      const lost = await errorOf(
        store.appendSteps('l', 't1', step('t1', 1, 'two'), { fence: a.lease }),
      );
      expect(lost.code).toBe('lease-lost');
      expect((await errorOf(store.beginTurn('l', user('t2', 'x'), { fence: a.lease }))).code).toBe(
        'lease-lost',
      );
      expect(await store.renewLease('l', a.lease, { ttlMs: 1_000 })).toBe(false);
      expect(await store.releaseLease('l', a.lease)).toBe(false);
      expect((await store.getThread('l')).total).toBe(2);
      // b finds a's running turn and closes it.
      expect((await store.listTurns('l', { status: 'running' })).map((t) => t.holder)).toEqual([
        'holder-a',
      ]);
      await store.setTurnStatus('l', 't1', 'interrupted', { fence: b.lease });
      expect(await store.releaseLease('l', b.lease)).toBe(true);
      // A released lease is free at once, and not a takeover.
      const c = await store.acquireLease('l', 'holder-c', { ttlMs: 1_000 });
      expect(c).toMatchObject({ acquired: true, tookOver: false, lease: { token: 3 } });
      expect(await store.getLease('l')).toMatchObject({ holder: 'holder-c', token: 3 });
      expect(await store.getLease('none')).toBeNull();
      expect((await errorOf(store.acquireLease('l', 'x', { ttlMs: 0 }))).code).toBe(
        'invalid-option',
      );
      await store.close();
    });

    it('gives the lease to exactly one of many holders racing for it', async () => {
      const h = harness();
      const stores = Array.from({ length: 4 }, () => h.openStore());
      await stores[0]?.migrate();
      const results = await Promise.all(
        stores.map((s, i) => s.acquireLease('race', `h${i}`, { ttlMs: 60_000 })),
      );
      expect(results.filter((r) => r.acquired)).toHaveLength(1);
      const winner = results.find((r) => r.acquired)?.lease.holder;
      for (const r of results) expect(r.lease.holder).toBe(winner);
      for (const s of stores) await s.close();
    });
  });
}

describe('deleteThread', () => {
  it('deletes the thread’s turn statuses itself, also over an SQLite connection without foreign keys', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'chunklog-turns-'));
    const file = new Database(join(dir, 'store.db'));
    file.pragma('foreign_keys = OFF');
    const db = new Kysely({ dialect: new SqliteDialect({ database: file }) });
    const store = createChunkStore({ db });
    try {
      await store.migrate();
      await store.beginTurn('gone', user('run', 'hello'));
      expect(await store.getTurnInfo('gone', 'run')).toMatchObject({ status: 'running' });
      expect(await store.deleteThread('gone')).toBe(true);
      // A new thread with the same id starts with no turns of the old one.
      await store.appendTurn('gone', user('other', 'hi'));
      expect(await store.getTurnInfo('gone', 'run')).toBeNull();
      expect(await store.listTurns('gone', { status: 'running' })).toEqual([]);
    } finally {
      await store.close();
      await db.destroy();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
