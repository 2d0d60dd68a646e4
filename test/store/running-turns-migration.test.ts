// Migration 0008 (an index on the turns' status, for the sweep of interrupted turns across
// threads) on an SQLite file, PostgreSQL and MariaDB: up, down and up again, and the sweep reads
// the running turns it should before and after it.
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { textDrafts } from '../../src/testing/index.js';
import { availableDialects, createHarness, type DialectHarness } from './support/dialects.js';
import { storeMigrator } from './support/migrator.js';

const available = await availableDialects();
const harnesses: DialectHarness[] = [];
afterAll(async () => {
  for (const h of harnesses) await h.dispose();
});

/** Whether the database holds an index of this name. */
async function hasIndex(h: DialectHarness, index: string): Promise<boolean> {
  const query =
    h.name === 'sqlite'
      ? sql`SELECT name FROM sqlite_master WHERE type = 'index' AND name = ${index}`
      : h.name === 'postgres'
        ? sql`SELECT indexname FROM pg_indexes WHERE indexname = ${index}`
        : sql`SELECT index_name FROM information_schema.statistics
              WHERE table_schema = DATABASE() AND index_name = ${index}`;
  return (await query.execute(h.raw)).rows.length > 0;
}

for (const name of ['sqlite', 'postgres', 'mysql'] as const) {
  describe.skipIf(!available.includes(name))(`migration 0008 on ${name}`, () => {
    it('adds the running-turns index, drops it going down, and the sweep finds the same turns', async () => {
      const h = createHarness(name);
      harnesses.push(h);
      const { migrator, names } = storeMigrator(h);
      const index = `${names.turns}_running_idx`;
      expect((await migrator.migrateToLatest()).error).toBeUndefined();
      expect(await hasIndex(h, index)).toBe(true);
      const store = h.openStore();
      const thread = `${h.prefix}thread`;
      await store.appendTurn(thread, textDrafts('done', 2));
      await store.beginTurn(thread, textDrafts('left-running', 2));
      const swept = async () =>
        (await store.findInterruptedTurns({ limit: 1000 }))
          .filter((turn) => turn.threadId === thread)
          .map((turn) => turn.turnId);
      expect(await swept()).toEqual(['left-running']);
      expect((await migrator.migrateTo('0007_alternatives')).error).toBeUndefined();
      expect(await hasIndex(h, index)).toBe(false);
      expect(await swept()).toEqual(['left-running']);
      expect((await migrator.migrateToLatest()).error).toBeUndefined();
      expect(await hasIndex(h, index)).toBe(true);
      expect(await swept()).toEqual(['left-running']);
      await store.close();
    });
  });
}
