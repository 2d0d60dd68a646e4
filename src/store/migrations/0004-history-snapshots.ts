import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { MigrationContext } from '../migrations.js';
import { threadTable } from './thread-table.js';

/**
 * Migration `0004_history_snapshots`: an index on the turns' `(thread_id, status)` (a page finds
 * its turns that are not completed by a few index probes), and the snapshots table (one row per snapshot of a thread's
 * older turns: the seq range it covers, the turn id and creation time of its last row, its format,
 * a SHA-256 digest and the JSON of the grouped messages; primary key thread id + first seq;
 * deleted with its thread). A snapshot is derived from rows and is only a faster way to read
 * them: the table starts empty, and a store upgrades without rewriting anything (notes/0076).
 *
 * @param ctx - the dialect adapter, table names and JSON column mode
 * @returns the migration
 */
export function historySnapshotsMigration(ctx: MigrationContext): Migration {
  const { adapter, names } = ctx;
  const millis = adapter.millisType;
  const statusIndex = `${names.turns}_status_idx`;
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable(names.snapshots)
        .ifNotExists()
        .addColumn('thread_id', adapter.idType, (c) => c.notNull())
        .addColumn('first_seq', 'integer', (c) => c.notNull())
        .addColumn('last_seq', 'integer', (c) => c.notNull())
        .addColumn('last_turn_id', adapter.idType, (c) => c.notNull())
        .addColumn('last_created_at', millis, (c) => c.notNull())
        .addColumn('format', 'integer', (c) => c.notNull())
        .addColumn('digest', 'varchar(64)', (c) => c.notNull())
        .addColumn('data', adapter.textType, (c) => c.notNull())
        .addColumn('created_at', millis, (c) => c.notNull())
        .addPrimaryKeyConstraint(`${names.snapshots}_pkey`, ['thread_id', 'first_seq'])
        .$call(threadTable(ctx, names.snapshots))
        .execute();
      const create = db.schema.createIndex(statusIndex);
      await (adapter.createIndexIfNotExists ? create.ifNotExists() : create)
        .on(names.turns)
        .columns(['thread_id', 'status'])
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema
        .dropIndex(statusIndex)
        .$call((b) => (adapter.name === 'mysql' ? b.on(names.turns) : b))
        .execute();
      await db.schema.dropTable(names.snapshots).ifExists().execute();
    },
  };
}
