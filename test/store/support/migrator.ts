// A Kysely Migrator over a harness's database with the store's migrations and bookkeeping tables,
// for the tests of one migration (up, down, up again).
import type { Migration } from 'kysely/migration';
import { Migrator } from 'kysely/migration';
import { dialectAdapter } from '../../../src/store/dialects/detect.js';
import { migrationsFor } from '../../../src/store/migrations.js';
import { resolveTableNames, type StoreTableNames } from '../../../src/store/tables.js';
import type { DialectHarness } from './dialects.js';

/**
 * The store's migrator on `h`'s database and table prefix, and the table names.
 *
 * @param only - keeps some of the migrations (a store as an older version left it); all by default
 */
export function storeMigrator(
  h: DialectHarness,
  only: (all: Record<string, Migration>) => Record<string, Migration> = (all) => all,
): { migrator: Migrator; names: StoreTableNames } {
  const names = resolveTableNames({ tablePrefix: h.prefix });
  const all = migrationsFor({ adapter: dialectAdapter(h.name), names, jsonAsText: false });
  const migrations = only(all);
  const migrator = new Migrator({
    db: h.raw,
    provider: { getMigrations: async () => migrations },
    migrationTableName: names.migrations,
    migrationLockTableName: names.migrationLock,
  });
  return { migrator, names };
}
