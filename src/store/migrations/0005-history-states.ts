import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { MigrationContext } from '../migrations.js';
import { threadTable } from './thread-table.js';

/**
 * Migration `0005_history_states`: the history states table. A history state is the fold of a
 * thread's rows into messages (`MessageFold`) at a seq, stored as JSON in one or more parts (a
 * part holds at most a few million characters, which every dialect takes in one insert); a
 * whole-thread read folds the rows after the newest state into it. Primary key thread id, seq
 * and part; deleted with its thread. The table starts empty (states are derived from rows, and
 * written by writes); the snapshots table of migration 0004 is no longer read and stays as it is,
 * so that a process of an older chunklog still running beside this one keeps working
 * (notes/0081).
 *
 * @param ctx - the dialect adapter, table names and JSON column mode
 * @returns the migration
 */
export function historyStatesMigration(ctx: MigrationContext): Migration {
  const { adapter, names } = ctx;
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable(names.historyStates)
        .ifNotExists()
        .addColumn('thread_id', adapter.idType, (c) => c.notNull())
        .addColumn('at_seq', 'integer', (c) => c.notNull())
        .addColumn('part', 'integer', (c) => c.notNull())
        .addColumn('parts', 'integer', (c) => c.notNull())
        .addColumn('format', 'integer', (c) => c.notNull())
        .addColumn('digest', 'varchar(64)', (c) => c.notNull())
        .addColumn('data', adapter.textType, (c) => c.notNull())
        .addColumn('created_at', adapter.millisType, (c) => c.notNull())
        .addPrimaryKeyConstraint(`${names.historyStates}_pkey`, ['thread_id', 'at_seq', 'part'])
        .$call(threadTable(ctx, names.historyStates))
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable(names.historyStates).ifExists().execute();
    },
  };
}
