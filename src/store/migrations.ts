import type { DatabaseIntrospector, Kysely } from 'kysely';
import { type Migration, Migrator } from 'kysely/migration';
import { invalidOption, readOptions } from '../errors/invalid-option.js';
import type { StoreDialectAdapter, StoreDialectName } from './dialects/adapter.js';
import { dialectAdapter } from './dialects/detect.js';
import { threadsAndChunksMigration } from './migrations/0001-threads-and-chunks.js';
import { turnsAndLeases } from './migrations/0002-turns-and-leases.js';
import { usageAndThreadMetaMigration } from './migrations/0003-usage-and-thread-meta.js';
import { historySnapshotsMigration } from './migrations/0004-history-snapshots.js';
import { historyStatesMigration } from './migrations/0005-history-states.js';
import { forksByReferenceMigration } from './migrations/0006-forks-by-reference.js';
import { alternativesMigration } from './migrations/0007-alternatives.js';
import { runningTurnsMigration } from './migrations/0008-running-turns.js';
import { threadKeyVersionMigration } from './migrations/0009-thread-key-version.js';
import { dialectName, jsonColumns } from './store-options.js';
import { resolveTableNames, type StoreTableNames, type StoreTableOptions } from './tables.js';

/**
 * Options of {@link storeMigrations}: the database's dialect, and the table names and JSON column
 * type the store is created with (the same `tablePrefix`, `tables` and `json` as
 * `createChunkStore`).
 *
 * @example
 * ```ts
 * const options: StoreMigrationOptions = { dialect: 'postgres', tablePrefix: 'chat_', json: 'text' };
 * ```
 */
export interface StoreMigrationOptions extends StoreTableOptions {
  /** The database the migrations are for (`store.dialect`). */
  readonly dialect: StoreDialectName;
  /** How JSON columns are declared: `'native'` (default) or `'text'`. */
  readonly json?: 'native' | 'text' | undefined;
}

/** What the store's migrations need to know. */
export interface MigrationContext {
  readonly adapter: StoreDialectAdapter;
  readonly names: StoreTableNames;
  /** Keep JSON as exact text instead of the dialect's native JSON type. */
  readonly jsonAsText: boolean;
}

/**
 * The store's migrations, in code, for running them from your own Kysely `Migrator` (then do not
 * also call `store.migrate()`). Named so that they sort in order; never edited once shipped.
 *
 * - `0001_threads_and_chunks`: the threads table (id, timestamps, metadata, the next seq) and the
 *   chunks table (thread id, seq, turn id, step, role, type, data, created at, format version;
 *   primary key thread id + seq; an index (thread id, turn id, seq) for turn lookups), plus an
 *   index on thread activity.
 * - `0002_turns_and_leases`: the turns table (status `running`, `completed`, `failed`,
 *   `cancelled` or `interrupted`, first and next seq, timestamps, holder) and the thread leases
 *   (holder, expiry, fencing token). Turns stored before it read as `completed`.
 * - `0003_usage_and_thread_meta`: the threads' owner id and title (an index on owner id and
 *   activity), and the usage table (one row per model step: tokens, model id, finish reason,
 *   duration).
 * - `0004_history_snapshots`: the snapshots table (grouped copies of a thread's older turns, each
 *   with its seq range and a digest), which cold reads of long threads use instead of rows, and
 *   an index on the turns' thread id and status. No longer read since 0005.
 * - `0005_history_states`: the history states table (a thread's rows folded into messages at a
 *   seq, as JSON in parts), which whole-thread reads start from.
 * - `0006_forks_by_reference`: the threads' `parent_id`, `fork_seq` and `fork_path` (a fork reads
 *   its parent's rows up to the fork seq instead of copies of them), and an index on
 *   `(parent_id, fork_seq)`. Threads stored before it (copied forks too) stay plain threads.
 * - `0007_alternatives`: the threads' `conversation_id` (an alternative made by editing or
 *   regenerating a turn belongs to a conversation) and `active_id` (a conversation's active
 *   path), and an index on `conversation_id`. Threads stored before it read as before.
 * - `0008_running_turns`: an index on the turns' `(status, updated_at, thread_id)`, which the
 *   sweep of interrupted turns across threads reads.
 * - `0009_thread_key_version`: the threads' `key_version` (the key version a key rotation moved
 *   the thread to), which every write that seals rows reads under the thread's lock.
 *
 * @param options - the dialect, and the table names and JSON type given to `createChunkStore`
 * @returns the migrations by name
 * @throws {ChunklogError} `invalid-option`, naming the option
 *
 * @example
 * ```ts
 * const migrator = new Migrator({
 *   db,
 *   provider: {
 *     getMigrations: async () => ({ ...myMigrations, ...storeMigrations({ dialect: 'postgres' }) }),
 *   },
 * });
 * ```
 */
export function storeMigrations(options: StoreMigrationOptions): Record<string, Migration> {
  const o = readOptions(options, 'storeMigrations', ['dialect', 'tablePrefix', 'tables', 'json']);
  const dialect = dialectName(o.dialect);
  if (dialect === undefined) {
    invalidOption(
      'storeMigrations',
      'dialect',
      "`dialect` is required: 'sqlite', 'postgres' or 'mysql'",
      undefined,
    );
  }
  return migrationsFor({
    adapter: dialectAdapter(dialect),
    names: resolveTableNames(o as StoreTableOptions),
    jsonAsText: jsonColumns(o.json) === 'text',
  });
}

/** The store's migrations for a resolved context (see {@link storeMigrations}). */
export function migrationsFor(ctx: MigrationContext): Record<string, Migration> {
  return {
    '0001_threads_and_chunks': threadsAndChunksMigration(ctx),
    '0002_turns_and_leases': turnsAndLeases(ctx),
    '0003_usage_and_thread_meta': usageAndThreadMetaMigration(ctx),
    '0004_history_snapshots': historySnapshotsMigration(ctx),
    '0005_history_states': historyStatesMigration(ctx),
    '0006_forks_by_reference': forksByReferenceMigration(ctx),
    '0007_alternatives': alternativesMigration(ctx),
    '0008_running_turns': runningTurnsMigration(ctx),
    '0009_thread_key_version': threadKeyVersionMigration(ctx),
  };
}

/**
 * Runs the store's migrations to the latest through Kysely's `Migrator`, with the store's own
 * migration tables. When another process migrated at the same moment (SQLite's migrator takes
 * no lock, and every statement is `IF NOT EXISTS`), the loser's error is ignored once the
 * migrations are seen to be applied.
 *
 * @throws the migrator's error when the migrations are not applied
 */
export async function runMigrations(db: Kysely<unknown>, ctx: MigrationContext): Promise<void> {
  const migrations = migrationsFor(ctx);
  const migrator = new Migrator({
    db: withTableCatalog(db, ctx.adapter),
    provider: { getMigrations: async () => migrations },
    migrationTableName: ctx.names.migrations,
    migrationLockTableName: ctx.names.migrationLock,
  });
  const { error } = await migrator.migrateToLatest();
  if (error === undefined) return;
  const applied = await migrator.getMigrations().catch(() => undefined);
  if (applied?.every((m) => m.executedAt !== undefined)) return;
  throw error;
}

/**
 * `db`, whose `introspection.getTables()` lists the current schema's tables by name only (the
 * adapter's `tableCatalog`): all Kysely's `Migrator` asks of it is whether its own tables exist.
 * Kysely's own introspection reads every column of every table of the database, and on
 * PostgreSQL resolves each table by name (`pg_get_serial_sequence`) while it does: a table that
 * another connection drops meanwhile failed the migration with "relation … does not exist".
 */
function withTableCatalog(db: Kysely<unknown>, adapter: StoreDialectAdapter): Kysely<unknown> {
  const introspection: DatabaseIntrospector = {
    getSchemas: () => db.introspection.getSchemas(),
    getTables: async () =>
      (await adapter.tableCatalog.execute(db)).rows.map((row) => ({
        name: String(row.name),
        isView: false,
        isForeign: false,
        columns: [],
      })),
  };
  return new Proxy(db, {
    get(target, property) {
      if (property === 'introspection') return introspection;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
