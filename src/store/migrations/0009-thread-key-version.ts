import type { Migration } from 'kysely/migration';
import type { MigrationContext } from '../migrations.js';
import * as schema from './schema-steps.js';

/**
 * Migration `0009_thread_key_version`: one nullable column on the threads table, `key_version`,
 * the key version a key rotation moved the thread to (notes/0095). A write that seals rows reads
 * it under the thread's lock and seals with that key or a newer one, so no write can store a row
 * under a key the rotation is about to destroy. Null until a thread's first rotation; nothing is
 * rewritten.
 *
 * @param ctx - the dialect adapter, table names and JSON column mode
 * @returns the migration
 */
export function threadKeyVersionMigration(ctx: MigrationContext): Migration {
  const columns: schema.AddedColumns = { key_version: 'integer' };
  return schema.migration(ctx, {
    up: [schema.addColumns(ctx.names.threads, columns)],
    down: [schema.dropColumns(ctx.names.threads, columns)],
  });
}
