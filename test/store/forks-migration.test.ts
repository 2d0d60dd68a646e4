// Migration 0006 (forks by reference) upgrading a store made by migrations 0001–0005, on an
// SQLite file, PostgreSQL and MariaDB: its threads, and its forks made by copy, read as before and
// stay plain threads; they can be forked by reference afterwards.
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
  describe.skipIf(!available.includes(name))(`migrations 0006 and 0007 on ${name}`, () => {
    it('upgrades a 0005 store: old threads and forks made by copy read as before, as plain threads and conversations', async () => {
      const h = createHarness(name);
      harnesses.push(h);
      const names = resolveTableNames({ tablePrefix: h.prefix });
      const all = migrationsFor({ adapter: dialectAdapter(name), names, jsonAsText: false });
      const {
        '0006_forks_by_reference': _,
        '0007_alternatives': _7,
        '0008_running_turns': _8,
        '0009_thread_key_version': _9,
        ...upTo0005
      } = all;
      expect(Object.keys(upTo0005).at(-1)).toBe('0005_history_states');
      const old = new Migrator({
        db: h.raw,
        provider: { getMigrations: async () => upTo0005 },
        migrationTableName: names.migrations,
        migrationLockTableName: names.migrationLock,
      });
      expect((await old.migrateToLatest()).error).toBeUndefined();
      // What a 0005 store holds: a thread of two turns, and a fork of it made by copying its
      // first turn (the INSERT … SELECT forkThread did before 0006).
      const row = (thread: string, seq: number, turn: string) => ({
        thread_id: thread,
        seq,
        turn_id: turn,
        step: 0,
        role: seq % 2 === 1 ? 'user' : 'assistant',
        type: 'text',
        data: JSON.stringify({ text: `${thread} ${seq}` }),
        created_at: 1000 + seq,
        version: 1,
      });
      for (const [id, next] of [
        ['old', 5],
        ['copy', 3],
      ] as const) {
        await h.raw
          .insertInto(names.threads)
          .values({ id, created_at: 1000, updated_at: 2000, next_seq: next })
          .execute();
      }
      for (const seq of [1, 2, 3, 4]) {
        await h.raw
          .insertInto(names.chunks)
          .values(row('old', seq, seq <= 2 ? 't0' : 't1'))
          .execute();
      }
      for (const seq of [1, 2]) {
        await h.raw
          .insertInto(names.chunks)
          .values(row('copy', seq, 't0'))
          .execute();
      }
      const store = h.openStore();
      // Before the upgrade the fork columns are missing: the store says to migrate.
      expect((await errorOf(store.getThread('old'))).code).toBe('not-migrated');
      await store.migrate();
      const before = {
        old: await store.getRows('old'),
        copy: await store.getRows('copy'),
      };
      expect(before.old.map((r) => [r.threadId, r.seq, r.turnId])).toEqual([
        ['old', 1, 't0'],
        ['old', 2, 't0'],
        ['old', 3, 't1'],
        ['old', 4, 't1'],
      ]);
      expect(before.copy.map((r) => r.data)).toEqual([{ text: 'copy 1' }, { text: 'copy 2' }]);
      for (const id of ['old', 'copy'] as const) {
        const thread = await store.getThread(id);
        expect(thread.forkOf).toBeUndefined();
        expect(thread.total).toBe(before[id].length);
        expect((await store.getChunks(id, { limit: 1, before: 2 })).chunks).toEqual(
          before[id].slice(0, 1),
        );
        expect((await store.getChunksAfter(id, { limit: 10 })).chunks).toEqual(before[id]);
        expect((await store.getMessages(id)).map((m) => m.turnId)).toEqual(
          [...new Set(before[id].map((r) => r.turnId))].flatMap((t) => [t, t]),
        );
      }
      // A copied fork is a plain thread: its parent can be truncated and deleted freely…
      expect(await store.truncateAfter('old', 3)).toBe(1);
      // …and an old thread forks by reference now.
      const fork = await store.forkThread('old', { atSeq: 2, newThreadId: 'new-fork' });
      expect(fork.forkOf).toEqual({ threadId: 'old', atSeq: 2 });
      await store.appendTurn('new-fork', textDrafts('t2', 1));
      expect((await store.getRows('new-fork')).map((r) => [r.threadId, r.data])).toEqual([
        ['new-fork', { text: 'old 1' }],
        ['new-fork', { text: 'old 2' }],
        ['new-fork', { text: 't2#0' }],
      ]);
      // Migration 0007: an old thread is a conversation without alternatives, and gets them.
      expect(await store.activePath('old')).toBe('old');
      expect((await store.getAlternatives('old')).branches).toEqual([]);
      await store.addAlternative('old', { turnId: 't0', newThreadId: 'alt' });
      expect(await store.activePath('old')).toBe('alt');
      expect((await store.getAlternatives('old')).branches.map((b) => b.atSeq)).toEqual([0]);
      expect((await store.listThreads()).threads.map((t) => t.id).sort()).toEqual([
        'copy',
        'new-fork',
        'old',
      ]);
      await store.deleteThread('alt');
      expect((await errorOf(store.deleteThread('old'))).code).toBe('thread-has-forks');
      expect(await store.deleteThread('copy')).toBe(true);
      await store.migrate(); // idempotent
      await store.close();
    });
  });
}
