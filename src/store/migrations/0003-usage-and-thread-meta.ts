import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { MigrationContext } from '../migrations.js';
import { threadTable } from './thread-table.js';

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
  const index = (db: Kysely<unknown>, name: string) => {
    const create = db.schema.createIndex(name);
    return adapter.createIndexIfNotExists ? create.ifNotExists() : create;
  };
  const ownerIndex = `${names.threads}_owner_idx`;
  return {
    async up(db) {
      // One column per statement: SQLite adds a single column per ALTER TABLE.
      await db.schema.alterTable(names.threads).addColumn('owner_id', adapter.idType).execute();
      await db.schema.alterTable(names.threads).addColumn('title', adapter.textType).execute();
      await index(db, ownerIndex)
        .on(names.threads)
        .columns(['owner_id', 'updated_at', 'id'])
        .execute();
      await db.schema
        .createTable(names.usage)
        .ifNotExists()
        .addColumn('thread_id', adapter.idType, (c) => c.notNull())
        .addColumn('turn_id', adapter.idType, (c) => c.notNull())
        .addColumn('step', 'integer', (c) => c.notNull())
        .addColumn('model_id', adapter.textType)
        .addColumn('finish_reason', 'varchar(64)')
        .addColumn('input_tokens', 'bigint')
        .addColumn('output_tokens', 'bigint')
        .addColumn('reasoning_tokens', 'bigint')
        .addColumn('cache_read_tokens', 'bigint')
        .addColumn('cache_write_tokens', 'bigint')
        .addColumn('total_tokens', 'bigint')
        .addColumn('duration_ms', 'bigint')
        .addColumn('created_at', adapter.millisType, (c) => c.notNull())
        .addPrimaryKeyConstraint(`${names.usage}_pkey`, ['thread_id', 'turn_id', 'step'])
        .$call(threadTable(ctx, names.usage))
        .execute();
    },
    async down(db) {
      await db.schema.dropTable(names.usage).ifExists().execute();
      await db.schema
        .dropIndex(ownerIndex)
        .$call((b) => (adapter.name === 'mysql' ? b.on(names.threads) : b))
        .execute();
      await db.schema.alterTable(names.threads).dropColumn('title').execute();
      await db.schema.alterTable(names.threads).dropColumn('owner_id').execute();
    },
  };
}
