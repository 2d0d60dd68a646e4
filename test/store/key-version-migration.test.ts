// Migration 0009 (the threads' `key_version`, which a key rotation sets and every sealing write
// reads under the thread's lock) on an SQLite file, PostgreSQL and MariaDB: up, down and up
// again over an encrypted thread, which reads the same throughout, and a rotation after it.
import { afterAll, describe, expect, it } from 'vitest';
import { createMemoryKeyProvider } from '../../src/store/index.js';
import { textDrafts } from '../../src/testing/index.js';
import { availableDialects, createHarness, type DialectHarness } from './support/dialects.js';
import { storeMigrator } from './support/migrator.js';

const available = await availableDialects();
const harnesses: DialectHarness[] = [];
afterAll(async () => {
  for (const h of harnesses) await h.dispose();
});

for (const name of ['sqlite', 'postgres', 'mysql'] as const) {
  describe.skipIf(!available.includes(name))(`migration 0009 on ${name}`, () => {
    it('adds key_version (null until a rotation), drops it going down, and the thread reads the same', async () => {
      const h = createHarness(name);
      harnesses.push(h);
      const { migrator, names } = storeMigrator(h);
      const keyVersion = async () =>
        (
          await h.raw
            .selectFrom(names.threads)
            .select('key_version')
            .where('id', '=', 't')
            .executeTakeFirstOrThrow()
        ).key_version;
      expect((await migrator.migrateToLatest()).error).toBeUndefined();
      const keys = createMemoryKeyProvider();
      const store = h.openStore({ encryption: { keys } });
      await store.appendTurn('t', textDrafts('first', 2));
      const rows = await store.getRows('t');
      expect(await keyVersion()).toBeNull();

      expect((await migrator.migrateTo('0008_running_turns')).error).toBeUndefined();
      await expect(keyVersion()).rejects.toThrow();
      expect((await migrator.migrateToLatest()).error).toBeUndefined();
      expect(await keyVersion()).toBeNull();
      expect(await store.getRows('t')).toEqual(rows);

      expect((await store.rotateThreadKey('t')).version).toBe(2);
      expect(Number(await keyVersion())).toBe(2);
      expect(await store.getRows('t')).toEqual(rows);
      await store.close();
    });
  });
}
