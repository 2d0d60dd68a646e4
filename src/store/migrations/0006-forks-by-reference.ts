import type { Migration } from 'kysely/migration';
import type { MigrationContext } from '../migrations.js';
import * as schema from './schema-steps.js';

/**
 * Migration `0006_forks_by_reference`: a fork records where it comes from instead of holding
 * copies of its parent's rows. Three nullable columns on the threads table: `parent_id` (the
 * thread it was forked from), `fork_seq` (its path holds the parent's path up to this seq; its
 * own rows come after) and `fork_path` (the resolved stretches of other threads its path reads,
 * as JSON text, so that a read needs no walk up the chain; notes/0088), and an index on
 * `(parent_id, fork_seq)` (a thread's forks, and later a turn's alternatives). Threads stored
 * before it, forks made by copy included, have no parent: they stay plain threads and are read
 * as before. Nothing is rewritten.
 *
 * @param ctx - the dialect adapter, table names and JSON column mode
 * @returns the migration
 */
export function forksByReferenceMigration(ctx: MigrationContext): Migration {
  const { adapter, names } = ctx;
  const forkColumns: schema.AddedColumns = {
    parent_id: adapter.idType,
    fork_seq: 'integer',
    fork_path: adapter.textType,
  };
  const parentIndex = schema.index(names.threads, 'parent_idx', ['parent_id', 'fork_seq']);
  return schema.migration(ctx, {
    up: [schema.addColumns(names.threads, forkColumns), schema.createIndex(parentIndex)],
    down: [schema.dropIndex(parentIndex), schema.dropColumns(names.threads, forkColumns)],
  });
}
