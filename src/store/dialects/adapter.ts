import type { CompiledQuery, RawBuilder } from 'kysely';

/** The databases the store knows how to drive. */
export type StoreDialectName = 'sqlite' | 'postgres' | 'mysql';

/**
 * What the store needs to know about a database, as capability flags and a few SQL fragments,
 * so that queries never branch on the dialect's name. One small adapter per dialect.
 */
export interface StoreDialectAdapter {
  readonly name: StoreDialectName;
  /** Column type of an id (thread id, turn id). */
  readonly idType: RawBuilder<unknown>;
  /** The type a bound id is cast to where the database cannot infer it (a value in a select list). */
  readonly idCast: RawBuilder<unknown>;
  /** Column type of a JSON value stored natively (`jsonb`, `json`), or as exact text. */
  readonly jsonType: RawBuilder<unknown>;
  /** Column type of a JSON value stored as exact text. */
  readonly textType: RawBuilder<unknown>;
  /**
   * The escapes of `JSON.stringify`'s output that {@link jsonType} refuses, if any (PostgreSQL's
   * `jsonb`: `\u0000` and lone surrogates; MySQL's `JSON`: lone surrogates): a value holding one
   * is stored as its JSON text (see `storedJson`).
   */
  readonly jsonRefuses: RegExp | undefined;
  /** Column type of a millisecond timestamp. */
  readonly millisType: 'bigint' | 'integer';
  /** Whether a write transaction must be begun with `BEGIN IMMEDIATE` on a reserved connection. */
  readonly beginImmediate: boolean;
  /** Whether `SELECT … FOR UPDATE` locks the thread row (PostgreSQL, MySQL). */
  readonly selectForUpdate: boolean;
  /**
   * Whether the thread's row and the turn-id check can be read by one statement: only where the
   * lock is taken before the transaction's first read (SQLite's `BEGIN IMMEDIATE`). Under a row
   * lock (PostgreSQL, MySQL) the check must be a statement of its own, run after the lock is held.
   */
  readonly checkTurnWithLock: boolean;
  /**
   * Whether `UPDATE … RETURNING` is understood (PostgreSQL, SQLite 3.35+; not MySQL/MariaDB):
   * a write then locks and advances the thread's `next_seq` in one statement and learns the
   * seq its rows start at from the returned value.
   */
  readonly updateReturning: boolean;
  /**
   * Whether a data-modifying statement may be a `WITH` of another (PostgreSQL): a write's
   * insert and its conditional update (or its turn-id check) are then sent as one statement.
   */
  readonly writableCte: boolean;
  /** The isolation level of write transactions, when the dialect has them. */
  readonly writeIsolation: 'read committed' | undefined;
  /** How an insert that may collide with an existing key is kept quiet. */
  readonly insertIgnore: 'on-conflict-do-nothing' | 'on-duplicate-key-update';
  /** A clause appended to `CREATE TABLE` (MySQL's engine and character set), if any. */
  readonly createTableSuffix: RawBuilder<unknown> | undefined;
  /** Whether `CREATE INDEX IF NOT EXISTS` is understood (not by MySQL). */
  readonly createIndexIfNotExists: boolean;
  /** How many bound parameters one statement may carry. */
  readonly maxParameters: number;
  /**
   * A query of the tables the current schema (database) holds, as rows `{ name }`: what the
   * migrator asks to learn whether its own tables exist.
   */
  readonly tableCatalog: RawBuilder<{ name: string }>;
  /**
   * The statement that begins every write transaction, in one round trip, together with the
   * settings that make the server itself end the transaction when a statement, or the client
   * between two statements, takes longer than the store's `timeoutMs` (PostgreSQL: `SET LOCAL
   * statement_timeout` and `idle_in_transaction_session_timeout`, for this transaction only), so
   * that a stalled client cannot hold a thread's lock for good. Undefined where no such setting
   * is scoped to a transaction: the driver's own BEGIN is used there.
   */
  readonly beginWithTimeouts?: ((ms: number) => CompiledQuery) | undefined;
}
