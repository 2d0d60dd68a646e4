import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { MigrationContext } from '../migrations.js';
import { tableOptions, threadTable } from './thread-table.js';

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
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable(names.turns)
        .ifNotExists()
        .addColumn('thread_id', adapter.idType, (c) => c.notNull())
        .addColumn('turn_id', adapter.idType, (c) => c.notNull())
        .addColumn('status', 'varchar(16)', (c) => c.notNull())
        .addColumn('first_seq', 'integer', (c) => c.notNull())
        .addColumn('next_seq', 'integer', (c) => c.notNull())
        .addColumn('created_at', millis, (c) => c.notNull())
        .addColumn('updated_at', millis, (c) => c.notNull())
        .addColumn('holder', 'varchar(255)')
        .addPrimaryKeyConstraint(`${names.turns}_pkey`, ['thread_id', 'turn_id'])
        .$call(threadTable(ctx, names.turns))
        .execute();
      await db.schema
        .createTable(names.leases)
        .ifNotExists()
        .addColumn('thread_id', adapter.idType, (c) => c.notNull().primaryKey())
        .addColumn('holder', 'varchar(255)', (c) => c.notNull())
        .addColumn('expires_at', millis, (c) => c.notNull())
        .addColumn('token', 'integer', (c) => c.notNull())
        .$call(tableOptions(ctx))
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable(names.leases).ifExists().execute();
      await db.schema.dropTable(names.turns).ifExists().execute();
    },
  };
}
