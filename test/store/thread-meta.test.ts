// Thread metadata (owner id, title, JSON metadata), listThreads by owner, updateThread, and
// migration 0003 upgrading a store made by 0.1.0 (its schema built by migration 0001 alone), on
// an SQLite file, PostgreSQL and MariaDB.
import { Migrator } from 'kysely/migration';
import { afterAll, describe, expect, it } from 'vitest';
import { dialectAdapter } from '../../src/store/dialects/detect.js';
import { migrationsFor } from '../../src/store/migrations.js';
import { resolveTableNames } from '../../src/store/tables.js';
import { textDrafts } from '../../src/testing/index.js';
import { rejected as errorOf } from '../support/chunklog-error.js';
import { availableDialects, createHarness, type DialectHarness } from './support/dialects.js';

const available = await availableDialects();
const harnesses: DialectHarness[] = [];
afterAll(async () => {
  for (const h of harnesses) await h.dispose();
});

for (const name of ['sqlite', 'postgres', 'mysql'] as const) {
  describe.skipIf(!available.includes(name))(`thread metadata on ${name}`, () => {
    const harness = () => {
      const h = createHarness(name);
      harnesses.push(h);
      return h;
    };

    it('upgrades a 0.1.0 store (migration 0001 only) keeping its threads and rows', async () => {
      const h = harness();
      const names = resolveTableNames({ tablePrefix: h.prefix });
      const ctx = { adapter: dialectAdapter(name), names, jsonAsText: false };
      const only0001 = new Migrator({
        db: h.raw,
        provider: {
          getMigrations: async () => ({
            '0001_threads_and_chunks': migrationsFor(ctx)['0001_threads_and_chunks'] as never,
          }),
        },
        migrationTableName: names.migrations,
        migrationLockTableName: names.migrationLock,
      });
      const { error } = await only0001.migrateToLatest();
      expect(error).toBeUndefined();
      // What 0.1.0 wrote: a thread with metadata and two rows.
      await h.raw
        .insertInto(names.threads)
        .values({
          id: 'old',
          created_at: 1000,
          updated_at: 2000,
          next_seq: 3,
          metadata: JSON.stringify({ tag: 'kept' }),
        })
        .execute();
      for (const seq of [1, 2]) {
        await h.raw
          .insertInto(names.chunks)
          .values({
            thread_id: 'old',
            seq,
            turn_id: 't0',
            step: 0,
            role: seq === 1 ? 'user' : 'assistant',
            type: 'text',
            data: JSON.stringify({ text: `row ${seq}` }),
            created_at: 1500,
            version: 1,
          })
          .execute();
      }
      const store = h.openStore();
      // Before the upgrade the new columns are missing: the store says to migrate.
      expect((await errorOf(store.getThread('old'))).code).toBe('not-migrated');
      await store.migrate();
      const thread = await store.getThread('old');
      expect(thread).toEqual({
        id: 'old',
        createdAt: new Date(1000).toISOString(),
        updatedAt: new Date(2000).toISOString(),
        total: 2,
        metadata: { tag: 'kept' },
      });
      expect((await store.getRows('old')).map((r) => r.data)).toEqual([
        { text: 'row 1' },
        { text: 'row 2' },
      ]);
      const updated = await store.updateThread('old', { ownerId: 'alice', title: 'Old chat' });
      expect(updated).toMatchObject({ ownerId: 'alice', title: 'Old chat', total: 2 });
      const rows = await store.appendTurn('old', textDrafts('t1', 2));
      expect(rows.map((r) => r.seq)).toEqual([3, 4]);
      await store.migrate(); // idempotent
      await store.close();
    });

    it('keeps owner, title and metadata; lists an owner’s threads by keyset; updates', async () => {
      const h = harness();
      let clock = 10_000;
      const store = h.openStore({ now: () => clock++ });
      await store.migrate();
      const created = await store.createThread('a1', {
        ownerId: 'alice',
        title: 'First',
        metadata: { color: 'red' },
      });
      expect(created).toMatchObject({
        ownerId: 'alice',
        title: 'First',
        metadata: { color: 'red' },
      });
      for (let i = 2; i <= 7; i++) await store.createThread(`a${i}`, { ownerId: 'alice' });
      await store.createThread('b1', { ownerId: 'bob' });
      await store.createThread('none');
      await store.appendTurn('a3', textDrafts('t', 1)); // a3 is now the most recently active

      const seen: string[] = [];
      let before: string | undefined;
      for (;;) {
        const page = await store.listThreads({ ownerId: 'alice', limit: 2, before });
        seen.push(...page.threads.map((t) => t.id));
        for (const t of page.threads) expect(t.ownerId).toBe('alice');
        if (page.nextBefore === null) break;
        before = page.nextBefore;
      }
      expect(seen).toEqual(['a3', 'a7', 'a6', 'a5', 'a4', 'a2', 'a1']);
      expect((await store.listThreads({ ownerId: 'bob' })).threads.map((t) => t.id)).toEqual([
        'b1',
      ]);
      expect((await store.listThreads({ ownerId: 'carol' })).threads).toEqual([]);
      expect((await store.listThreads({ limit: 1000 })).threads).toHaveLength(9);

      const moved = await store.updateThread('a1', {
        ownerId: 'bob',
        title: null,
        metadata: { color: 'blue', tags: ['x'] },
      });
      expect(moved.ownerId).toBe('bob');
      expect(moved.title).toBeUndefined();
      expect(moved.metadata).toEqual({ color: 'blue', tags: ['x'] });
      expect(moved.updatedAt).toBe(created.updatedAt); // not activity
      expect((await store.listThreads({ ownerId: 'bob' })).threads.map((t) => t.id)).toEqual([
        'b1',
        'a1',
      ]);
      const unchanged = await store.updateThread('a1', {});
      expect(unchanged).toEqual(moved);
      const cleared = await store.updateThread('a1', { metadata: null, ownerId: null });
      expect(cleared.metadata).toBeUndefined();
      expect(cleared.ownerId).toBeUndefined();

      const fork = await store.forkThread('a2', { atSeq: 0, newThreadId: 'a2-fork' });
      expect(fork.ownerId).toBe('alice');
      await store.close();
    });

    it('refuses a bad owner id, title or metadata, and an unknown thread', async () => {
      const h = harness();
      const store = h.openStore();
      await store.migrate();
      await store.createThread('x');
      const bad = [
        [store.createThread('y', { ownerId: '' }), 'ownerId'],
        [store.createThread('y', { title: 'a'.repeat(1001) }), 'title'],
        [store.updateThread('x', { title: 'nul\u0000' }), 'title'],
        [store.updateThread('x', { ownerId: 7 as never }), 'ownerId'],
        [store.updateThread('x', { metadata: [] as never }), 'metadata'],
        [store.updateThread('x', { name: 'x' } as never), 'name'],
        [store.listThreads({ ownerId: 'x'.repeat(256) }), 'ownerId'],
        [store.createThread('y', { firstSeq: 0 }), 'firstSeq'],
        [store.createThread('y', { firstSeq: 1.5 }), 'firstSeq'],
        [store.createThread('y', { firstSeq: 2 ** 31 }), 'firstSeq'],
        // A thread there could hold no row: its next seq would pass 2^31 - 1.
        [store.createThread('y', { firstSeq: 2 ** 31 - 1 }), 'firstSeq'],
      ] as const;
      for (const [work, option] of bad) {
        const error = await errorOf(work);
        expect(error.code).toBe('invalid-option');
        expect(error.option).toBe(option);
      }
      expect((await errorOf(store.updateThread('missing', { title: 'x' }))).code).toBe(
        'thread-not-found',
      );
      expect(await store.getThread('x')).not.toHaveProperty('title');
      await store.close();
    });

    it('starts a thread at firstSeq, as an expired one starts at its sentinel', async () => {
      const store = harness().openStore();
      await store.migrate();
      expect((await store.createThread('later', { firstSeq: 10 })).total).toBe(9);
      const rows = await store.appendTurn('later', textDrafts('t1', 2));
      expect(rows.map((r) => r.seq)).toEqual([10, 11]);
      const page = await store.getChunks('later', { limit: 2 });
      expect([page.chunks.map((r) => r.seq), page.total, page.hasMore]).toEqual([
        [10, 11],
        11,
        false,
      ]);
      expect((await store.createThread('first', { firstSeq: 1 })).total).toBe(0);
      await store.close();
    });

    it('places a turn at appendTurn firstSeq after a gap; refuses one below the next seq and writes nothing; a retry answers the stored rows', async () => {
      const store = harness().openStore();
      await store.migrate();
      await store.appendTurn('gap', textDrafts('t1', 2));
      const placed = await store.appendTurn('gap', textDrafts('t2', 2), { firstSeq: 7 });
      expect(placed.map((r) => r.seq)).toEqual([7, 8]);
      // The next turn goes on after it; the seqs skipped stay empty.
      const next = await store.appendTurn('gap', textDrafts('t3', 1));
      expect(next.map((r) => r.seq)).toEqual([9]);
      expect((await store.getRows('gap')).map((r) => r.seq)).toEqual([1, 2, 7, 8, 9]);
      const forward = await store.getChunksAfter('gap', { afterSeq: 2, limit: 2 });
      expect([forward.chunks.map((r) => r.seq), forward.hasMore]).toEqual([[7, 8], true]);
      const back = await store.getChunks('gap', { limit: 3 });
      expect([back.chunks.map((r) => r.seq), back.total, back.hasMore]).toEqual([
        [7, 8, 9],
        9,
        true,
      ]);
      // A retry of a stored turn answers it as stored, whatever seq it names.
      expect(await store.appendTurn('gap', textDrafts('t2', 2), { firstSeq: 3 })).toEqual(placed);
      for (const firstSeq of [9, 0, 2.5, 2 ** 31, '12']) {
        const error = await errorOf(
          store.appendTurn('gap', textDrafts('t4', 1), { firstSeq } as never),
        );
        expect([error.code, error.option]).toEqual(['invalid-option', 'firstSeq']);
      }
      expect((await store.getRows('gap')).map((r) => r.seq)).toEqual([1, 2, 7, 8, 9]);
      expect((await store.getThread('gap')).total).toBe(9);
      // A new thread starts there, as createThread's firstSeq starts it.
      const fresh = await store.appendTurn('new', textDrafts('t1', 1), { firstSeq: 5 });
      expect(fresh.map((r) => r.seq)).toEqual([5]);
      await store.close();
    });

    it('refuses a turn whose rows would pass the largest seq (2^31 - 1) on every dialect, writing nothing', async () => {
      const store = harness().openStore();
      await store.migrate();
      const last = 2 ** 31 - 1;
      // firstSeq with no room for the turn's rows: the option is named, nothing is written.
      const option = await errorOf(
        store.appendTurn('edge', textDrafts('t1', 2), { firstSeq: last - 1 }),
      );
      expect([option.code, option.option]).toEqual(['invalid-option', 'firstSeq']);
      await expect(store.getThread('edge')).rejects.toMatchObject({ code: 'thread-not-found' });
      // One row fits: the thread's next seq is then the largest.
      const fits = await store.appendTurn('edge', textDrafts('t1', 1), { firstSeq: last - 1 });
      expect(fits.map((r) => r.seq)).toEqual([last - 1]);
      // A plain append past it fails as the database would (SQLite would store it out of reach).
      const full = await errorOf(store.appendTurn('edge', textDrafts('t2', 1)));
      expect([full.code, full.threadId]).toEqual(['store-failed', 'edge']);
      expect((await store.getRows('edge')).map((r) => r.seq)).toEqual([last - 1]);
      expect((await store.getThread('edge')).total).toBe(last - 1);
      await store.close();
    });
  });
}
