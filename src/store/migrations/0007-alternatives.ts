import type { Migration } from 'kysely/migration';
import type { MigrationContext } from '../migrations.js';
import * as schema from './schema-steps.js';

/**
 * Migration `0007_alternatives`: a conversation keeps the alternatives that editing or
 * regenerating a turn made (notes/0089). Two nullable columns on the threads table:
 * `conversation_id` (on an alternative: the conversation, a plain thread or fork, it belongs to;
 * null on every other thread) and `active_id` (on a conversation: the thread whose path is the
 * active one; null for itself), and an index on `conversation_id` (a conversation's
 * alternatives). Threads stored before it have neither and read as before. Nothing is rewritten.
 *
 * @param ctx - the dialect adapter, table names and JSON column mode
 * @returns the migration
 */
export function alternativesMigration(ctx: MigrationContext): Migration {
  const { adapter, names } = ctx;
  const alternativeColumns: schema.AddedColumns = {
    conversation_id: adapter.idType,
    active_id: adapter.idType,
  };
  const conversationIndex = schema.index(names.threads, 'conversation_idx', ['conversation_id']);
  return schema.migration(ctx, {
    up: [
      schema.addColumns(names.threads, alternativeColumns),
      schema.createIndex(conversationIndex),
    ],
    down: [
      schema.dropIndex(conversationIndex),
      schema.dropColumns(names.threads, alternativeColumns),
    ],
  });
}
