import type { Migration } from 'kysely/migration';
import type { MigrationContext } from '../migrations.js';
import * as schema from './schema-steps.js';

/**
 * Migration `0001_threads_and_chunks`: the threads table (id, timestamps, the next seq, metadata)
 * with an index on activity `(updated_at, id)`, and the chunks table (thread id, seq, turn id,
 * step, role, type, data, created at, format version; primary key thread id + seq; deleted with
 * its thread) with an index `(thread_id, turn_id, seq)` for turn lookups.
 *
 * @param ctx - the dialect adapter, table names and JSON column mode
 * @returns the migration
 */
export function threadsAndChunksMigration(ctx: MigrationContext): Migration {
  const { adapter, names } = ctx;
  const json = ctx.jsonAsText ? adapter.textType : adapter.jsonType;
  const millis = adapter.millisType;
  return schema.migration(ctx, {
    up: [
      schema.createTable(names.threads, (t) =>
        t
          .addColumn('id', adapter.idType, (c) => c.notNull().primaryKey())
          .addColumn('created_at', millis, schema.notNull)
          .addColumn('updated_at', millis, schema.notNull)
          .addColumn('next_seq', 'integer', (c) => c.notNull().defaultTo(1))
          .addColumn('metadata', json),
      ),
      schema.createIndex(schema.index(names.threads, 'activity_idx', ['updated_at', 'id'])),
      schema.createThreadTable(names.chunks, ['thread_id', 'seq'], (t) =>
        t
          .addColumn('seq', 'integer', schema.notNull)
          .addColumn('turn_id', adapter.idType, schema.notNull)
          .addColumn('step', 'integer', schema.notNull)
          .addColumn('role', 'varchar(16)', schema.notNull)
          .addColumn('type', 'varchar(32)', schema.notNull)
          .addColumn('data', json, schema.notNull)
          .addColumn('created_at', millis, schema.notNull)
          .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1)),
      ),
      schema.createIndex(schema.index(names.chunks, 'turn_idx', ['thread_id', 'turn_id', 'seq'])),
    ],
    down: [schema.dropTables(names.chunks, names.threads)],
  });
}
