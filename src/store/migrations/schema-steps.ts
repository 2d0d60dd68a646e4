import type {
  ColumnDataType,
  ColumnDefinitionBuilder,
  CreateTableBuilder,
  Expression,
  Kysely,
} from 'kysely';
import type { Migration } from 'kysely/migration';
import type { MigrationContext } from '../migrations.js';
import { tableOptions, threadTable } from './thread-table.js';

/**
 * One step of a migration's `up` or `down`: a schema statement, or a few, run on the migration's
 * database with its context (the dialect adapter and the table names).
 *
 * @example
 * ```ts
 * const step: SchemaStep = (db) => db.schema.dropTable('t').ifExists().execute().then(() => {});
 * ```
 */
export type SchemaStep = (db: Kysely<unknown>, ctx: MigrationContext) => Promise<void>;

/** A column's data type: a type name (`'integer'`, `'varchar(16)'`) or an adapter's raw type. */
export type ColumnType = ColumnDataType | Expression<unknown>;

/**
 * Nullable columns added to an existing table: their names and data types, in the order they are
 * added (a column's name is never a number, so the object keeps the order it is written in).
 *
 * @example
 * ```ts
 * const columns: AddedColumns = { fork_seq: 'integer', fork_path: adapter.textType };
 * ```
 */
export type AddedColumns = Readonly<Record<string, ColumnType>>;

/**
 * An index: its name, the table it is on and its columns, in order.
 *
 * @example
 * ```ts
 * const parent: IndexSpec = { name: 'threads_parent_idx', table: 'threads', columns: ['parent_id'] };
 * ```
 */
export interface IndexSpec {
  /** The index's name (unique in the schema on PostgreSQL and SQLite). */
  readonly name: string;
  /** The table the index is on. */
  readonly table: string;
  /** The indexed columns, in order. */
  readonly columns: readonly string[];
}

/**
 * The index `<table>_<suffix>` on a table's columns.
 *
 * @param table - the table's name
 * @param suffix - what follows the table's name and `_` in the index's name (`'parent_idx'`)
 * @param columns - the indexed columns, in order
 * @returns the index
 *
 * @example
 * ```ts
 * const parentIndex = index(names.threads, 'parent_idx', ['parent_id', 'fork_seq']);
 * ```
 */
export function index(table: string, suffix: string, columns: readonly string[]): IndexSpec {
  return { name: `${table}_${suffix}`, table, columns };
}

/** Adds columns to a table that is being created (a `$call` on its builder). */
export type TableColumns = (
  builder: CreateTableBuilder<string, never>,
) => CreateTableBuilder<string, string>;

/**
 * A migration whose `up` and `down` run their schema steps one after the other, in the order
 * given.
 *
 * @param ctx - the dialect adapter, table names and JSON column mode
 * @param steps - the steps of `up`, and those of `down` (which undo them, in reverse)
 * @returns the migration
 *
 * @example
 * ```ts
 * schema.migration(ctx, { up: [schema.addColumns(t, columns)], down: [schema.dropColumns(t, columns)] });
 * ```
 */
export function migration(
  ctx: MigrationContext,
  steps: { readonly up: readonly SchemaStep[]; readonly down: readonly SchemaStep[] },
): Migration {
  const run = async (db: Kysely<unknown>, list: readonly SchemaStep[]) => {
    for (const step of list) await step(db, ctx);
  };
  return {
    up: (db: Kysely<unknown>) => run(db, steps.up),
    down: (db: Kysely<unknown>) => run(db, steps.down),
  };
}

/**
 * A column definition's modifier for `addColumn`: the column is `not null`.
 *
 * @param column - the column's definition builder
 * @returns the builder, `not null`
 *
 * @example
 * ```ts
 * builder.addColumn('seq', 'integer', notNull);
 * ```
 */
export function notNull(column: ColumnDefinitionBuilder): ColumnDefinitionBuilder {
  return column.notNull();
}

/**
 * Creates a table, if it does not exist, with its columns and the dialect's table options
 * (MySQL's engine and character set).
 *
 * @param table - the table's name
 * @param columns - adds its columns (and any constraint) to the builder
 * @returns the step
 *
 * @example
 * ```ts
 * createTable(names.leases, (t) => t.addColumn('thread_id', adapter.idType, (c) => c.notNull().primaryKey()));
 * ```
 */
export function createTable(table: string, columns: TableColumns): SchemaStep {
  return async (db, ctx) => {
    await db.schema
      .createTable(table)
      .ifNotExists()
      .$call(columns)
      .$call(tableOptions(ctx))
      .execute();
  };
}

/**
 * Creates a table of a thread's data, if it does not exist: a `thread_id` column (not null)
 * first, then the given columns, then the primary key `<table>_pkey` and the foreign key
 * `<table>_thread_fk` to the threads table (`on delete cascade`), and the dialect's table
 * options.
 *
 * @param table - the table's name
 * @param primaryKey - the primary key's columns, `thread_id` first
 * @param columns - adds the columns that follow `thread_id`
 * @returns the step
 *
 * @example
 * ```ts
 * createThreadTable(names.turns, ['thread_id', 'turn_id'], (t) => t.addColumn('turn_id', adapter.idType, notNull));
 * ```
 */
export function createThreadTable(
  table: string,
  primaryKey: readonly string[],
  columns: TableColumns,
): SchemaStep {
  return async (db, ctx) => {
    await db.schema
      .createTable(table)
      .ifNotExists()
      .addColumn('thread_id', ctx.adapter.idType, notNull)
      .$call(columns)
      .addPrimaryKeyConstraint(`${table}_pkey`, [...primaryKey])
      .$call(threadTable(ctx, table))
      .execute();
  };
}

/**
 * Drops tables, if they exist, in the order given.
 *
 * @param tables - the tables' names
 * @returns the step
 *
 * @example
 * ```ts
 * dropTables(names.chunks, names.threads);
 * ```
 */
export function dropTables(...tables: readonly string[]): SchemaStep {
  return async (db) => {
    for (const table of tables) await db.schema.dropTable(table).ifExists().execute();
  };
}

/**
 * Adds nullable columns to a table, one `ALTER TABLE` statement per column (SQLite adds a single
 * column per statement), in the order given.
 *
 * @param table - the table's name
 * @param columns - the columns' names and data types
 * @returns the step
 *
 * @example
 * ```ts
 * addColumns(names.threads, { fork_seq: 'integer' });
 * ```
 */
export function addColumns(table: string, columns: AddedColumns): SchemaStep {
  return async (db) => {
    for (const [name, type] of Object.entries(columns)) {
      await db.schema.alterTable(table).addColumn(name, type).execute();
    }
  };
}

/**
 * Drops the columns that {@link addColumns} added, one `ALTER TABLE` statement per column, last
 * added first.
 *
 * @param table - the table's name
 * @param columns - the columns as given to `addColumns`
 * @returns the step
 *
 * @example
 * ```ts
 * dropColumns(names.threads, { fork_seq: 'integer' });
 * ```
 */
export function dropColumns(table: string, columns: AddedColumns): SchemaStep {
  return async (db) => {
    for (const name of Object.keys(columns).reverse()) {
      await db.schema.alterTable(table).dropColumn(name).execute();
    }
  };
}

/**
 * Creates an index, with `IF NOT EXISTS` where the dialect has it (not MySQL).
 *
 * @param index - the index's name, table and columns
 * @returns the step
 *
 * @example
 * ```ts
 * createIndex(index(names.threads, 'parent_idx', ['parent_id', 'fork_seq']));
 * ```
 */
export function createIndex(index: IndexSpec): SchemaStep {
  return async (db, ctx) => {
    const create = db.schema.createIndex(index.name);
    await (ctx.adapter.createIndexIfNotExists ? create.ifNotExists() : create)
      .on(index.table)
      .columns([...index.columns])
      .execute();
  };
}

/**
 * Drops an index (naming its table on MySQL, where an index belongs to its table).
 *
 * @param index - the index, as given to {@link createIndex}
 * @returns the step
 *
 * @example
 * ```ts
 * dropIndex(index(names.threads, 'parent_idx', ['parent_id', 'fork_seq']));
 * ```
 */
export function dropIndex(index: IndexSpec): SchemaStep {
  return async (db, ctx) => {
    await db.schema
      .dropIndex(index.name)
      .$call((b) => (ctx.adapter.name === 'mysql' ? b.on(index.table) : b))
      .execute();
  };
}
