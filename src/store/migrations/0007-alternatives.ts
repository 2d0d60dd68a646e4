import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { MigrationContext } from '../migrations.js';

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
  const conversationIndex = `${names.threads}_conversation_idx`;
  return {
    async up(db: Kysely<unknown>) {
      // One column per statement: SQLite adds a single column per ALTER TABLE.
      await db.schema
        .alterTable(names.threads)
        .addColumn('conversation_id', adapter.idType)
        .execute();
      await db.schema.alterTable(names.threads).addColumn('active_id', adapter.idType).execute();
      const create = db.schema.createIndex(conversationIndex);
      await (adapter.createIndexIfNotExists ? create.ifNotExists() : create)
        .on(names.threads)
        .columns(['conversation_id'])
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema
        .dropIndex(conversationIndex)
        .$call((b) => (adapter.name === 'mysql' ? b.on(names.threads) : b))
        .execute();
      await db.schema.alterTable(names.threads).dropColumn('active_id').execute();
      await db.schema.alterTable(names.threads).dropColumn('conversation_id').execute();
    },
  };
}
