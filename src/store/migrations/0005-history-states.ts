import type { Migration } from 'kysely/migration';
import type { MigrationContext } from '../migrations.js';
import * as schema from './schema-steps.js';

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
  return schema.migration(ctx, {
    up: [
      schema.createThreadTable(names.historyStates, ['thread_id', 'at_seq', 'part'], (t) =>
        t
          .addColumn('at_seq', 'integer', schema.notNull)
          .addColumn('part', 'integer', schema.notNull)
          .addColumn('parts', 'integer', schema.notNull)
          .addColumn('format', 'integer', schema.notNull)
          .addColumn('digest', 'varchar(64)', schema.notNull)
          .addColumn('data', adapter.textType, schema.notNull)
          .addColumn('created_at', adapter.millisType, schema.notNull),
      ),
    ],
    down: [schema.dropTables(names.historyStates)],
  });
}
