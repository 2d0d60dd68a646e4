import type { Migration } from 'kysely/migration';
import type { MigrationContext } from '../migrations.js';
import * as schema from './schema-steps.js';

/**
 * Migration `0008_running_turns`: an index on the turns table's `(status, updated_at,
 * thread_id)`, so that `findInterruptedTurns` (the sweep across threads) reads the running turns,
 * oldest first, instead of every turn of the store. Nothing else changes.
 *
 * @param ctx - the dialect adapter, table names and JSON column mode
 * @returns the migration
 */
export function runningTurnsMigration(ctx: MigrationContext): Migration {
  const running = schema.index(ctx.names.turns, 'running_idx', [
    'status',
    'updated_at',
    'thread_id',
  ]);
  return schema.migration(ctx, {
    up: [schema.createIndex(running)],
    down: [schema.dropIndex(running)],
  });
}
