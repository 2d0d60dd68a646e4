import type { Migration } from 'kysely/migration';
import type { MigrationContext } from '../migrations.js';
import * as schema from './schema-steps.js';

/**
 * Migration `0002_turns_and_leases`: the turns table (a turn's status, its first seq, the seq its
 * next step goes to, timestamps, the lease holder that began it; primary key thread id + turn id)
 * and the leases table (one row per thread: holder, expiry on the store's clock, fencing token).
 *
 * Turns stored before this migration have no row in `turns`: they were all sealed by
 * `appendTurn`, and a reader takes a turn without a row as `completed`, so an existing store
 * upgrades without rewriting anything.
 */
export function turnsAndLeases(ctx: MigrationContext): Migration {
  const { adapter, names } = ctx;
  const millis = adapter.millisType;
  return schema.migration(ctx, {
    up: [
      schema.createThreadTable(names.turns, ['thread_id', 'turn_id'], (t) =>
        t
          .addColumn('turn_id', adapter.idType, schema.notNull)
          .addColumn('status', 'varchar(16)', schema.notNull)
          .addColumn('first_seq', 'integer', schema.notNull)
          .addColumn('next_seq', 'integer', schema.notNull)
          .addColumn('created_at', millis, schema.notNull)
          .addColumn('updated_at', millis, schema.notNull)
          .addColumn('holder', 'varchar(255)'),
      ),
      schema.createTable(names.leases, (t) =>
        t
          .addColumn('thread_id', adapter.idType, (c) => c.notNull().primaryKey())
          .addColumn('holder', 'varchar(255)', schema.notNull)
          .addColumn('expires_at', millis, schema.notNull)
          .addColumn('token', 'integer', schema.notNull),
      ),
    ],
    down: [schema.dropTables(names.leases, names.turns)],
  });
}
