import type { Migration } from 'kysely/migration';
import type { MigrationContext } from '../migrations.js';
import * as schema from './schema-steps.js';

/**
 * Migration `0003_usage_and_thread_meta`: gives threads an owner (resource) id and a title, with an
 * index for listing an owner's threads by activity, and adds the `usage` table (one row per model
 * step of a turn: token counts, model id, finish reason, duration). Upgrades a store created by
 * 0.1.0 (migration 0001) in place; it reads and writes no table of other migrations.
 *
 * @param ctx - the dialect adapter, table names and JSON column mode
 * @returns the migration
 */
export function usageAndThreadMetaMigration(ctx: MigrationContext): Migration {
  const { adapter, names } = ctx;
  const metaColumns: schema.AddedColumns = { owner_id: adapter.idType, title: adapter.textType };
  const ownerIndex = schema.index(names.threads, 'owner_idx', ['owner_id', 'updated_at', 'id']);
  return schema.migration(ctx, {
    up: [
      schema.addColumns(names.threads, metaColumns),
      schema.createIndex(ownerIndex),
      schema.createThreadTable(names.usage, ['thread_id', 'turn_id', 'step'], (t) =>
        t
          .addColumn('turn_id', adapter.idType, schema.notNull)
          .addColumn('step', 'integer', schema.notNull)
          .addColumn('model_id', adapter.textType)
          .addColumn('finish_reason', 'varchar(64)')
          .addColumn('input_tokens', 'bigint')
          .addColumn('output_tokens', 'bigint')
          .addColumn('reasoning_tokens', 'bigint')
          .addColumn('cache_read_tokens', 'bigint')
          .addColumn('cache_write_tokens', 'bigint')
          .addColumn('total_tokens', 'bigint')
          .addColumn('duration_ms', 'bigint')
          .addColumn('created_at', adapter.millisType, schema.notNull),
      ),
    ],
    down: [
      schema.dropTables(names.usage),
      schema.dropIndex(ownerIndex),
      schema.dropColumns(names.threads, metaColumns),
    ],
  });
}
