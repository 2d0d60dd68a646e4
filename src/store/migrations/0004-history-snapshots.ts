import type { Migration } from 'kysely/migration';
import type { MigrationContext } from '../migrations.js';
import * as schema from './schema-steps.js';

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
  const statusIndex = schema.index(names.turns, 'status_idx', ['thread_id', 'status']);
  return schema.migration(ctx, {
    up: [
      schema.createThreadTable(names.snapshots, ['thread_id', 'first_seq'], (t) =>
        t
          .addColumn('first_seq', 'integer', schema.notNull)
          .addColumn('last_seq', 'integer', schema.notNull)
          .addColumn('last_turn_id', adapter.idType, schema.notNull)
          .addColumn('last_created_at', millis, schema.notNull)
          .addColumn('format', 'integer', schema.notNull)
          .addColumn('digest', 'varchar(64)', schema.notNull)
          .addColumn('data', adapter.textType, schema.notNull)
          .addColumn('created_at', millis, schema.notNull),
      ),
      schema.createIndex(statusIndex),
    ],
    down: [schema.dropIndex(statusIndex), schema.dropTables(names.snapshots)],
  });
}
