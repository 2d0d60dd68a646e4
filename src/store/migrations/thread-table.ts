import type { CreateTableBuilder } from 'kysely';
import type { MigrationContext } from '../migrations.js';

/**
 * Ends the creation of a table of a thread's data: its rows are deleted with their thread (a
 * foreign key on `thread_id`, named `<table>_thread_fk`, `on delete cascade`), and the dialect's
 * table options follow (MySQL's engine and character set).
 *
 * @param ctx - the migration's context
 * @param table - the table's name
 * @returns a function for the builder's `$call`
 *
 * @example
 * ```ts
 * db.schema.createTable(names.turns).addColumn('thread_id', …).$call(threadTable(ctx, names.turns))
 * ```
 */
export function threadTable(ctx: MigrationContext, table: string) {
  return <T extends string, C extends string>(
    builder: CreateTableBuilder<T, C>,
  ): CreateTableBuilder<T, C> => {
    const withKey = builder.addForeignKeyConstraint(
      `${table}_thread_fk`,
      ['thread_id' as C],
      ctx.names.threads,
      ['id'],
      (c) => c.onDelete('cascade'),
    );
    return tableOptions(ctx)(withKey);
  };
}

/**
 * Ends the creation of a table with the dialect's table options (MySQL's engine and character
 * set; nothing elsewhere).
 *
 * @param ctx - the migration's context
 * @returns a function for the builder's `$call`
 */
export function tableOptions(ctx: MigrationContext) {
  return <T extends string, C extends string>(
    builder: CreateTableBuilder<T, C>,
  ): CreateTableBuilder<T, C> => {
    const suffix = ctx.adapter.createTableSuffix;
    return suffix === undefined ? builder : builder.modifyEnd(suffix);
  };
}
