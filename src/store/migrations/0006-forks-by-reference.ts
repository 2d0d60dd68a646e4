import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { MigrationContext } from '../migrations.js';

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
  const parentIndex = `${names.threads}_parent_idx`;
  return {
    async up(db: Kysely<unknown>) {
      // One column per statement: SQLite adds a single column per ALTER TABLE.
      await db.schema.alterTable(names.threads).addColumn('parent_id', adapter.idType).execute();
      await db.schema.alterTable(names.threads).addColumn('fork_seq', 'integer').execute();
      await db.schema.alterTable(names.threads).addColumn('fork_path', adapter.textType).execute();
      const create = db.schema.createIndex(parentIndex);
      await (adapter.createIndexIfNotExists ? create.ifNotExists() : create)
        .on(names.threads)
        .columns(['parent_id', 'fork_seq'])
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema
        .dropIndex(parentIndex)
        .$call((b) => (adapter.name === 'mysql' ? b.on(names.threads) : b))
        .execute();
      await db.schema.alterTable(names.threads).dropColumn('fork_path').execute();
      await db.schema.alterTable(names.threads).dropColumn('fork_seq').execute();
      await db.schema.alterTable(names.threads).dropColumn('parent_id').execute();
    },
  };
}
