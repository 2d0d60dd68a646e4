import { Kysely, type SqliteDatabase, SqliteDialect, type SqliteStatement } from 'kysely';
import { loadDependency } from './load-dependency.js';

/** Options for the SQLite database `createChunkStore({ sqlite })` opens. */
export interface SqliteOpenOptions {
  /** How long a writer waits for another process's write lock, in milliseconds. Default 5,000. */
  readonly busyTimeoutMs?: number | undefined;
  /**
   * SQLite's `synchronous` setting. `'full'` (the default) makes every committed turn survive a
   * power loss; `'normal'` is faster in WAL mode and still survives a crash of the process.
   */
  readonly synchronous?: 'full' | 'normal' | undefined;
  /** How many prepared statements to keep. Default 256. */
  readonly statementCacheSize?: number | undefined;
}

/**
 * Marks a query whose rows the store reads by position: on the SQLite connection the store opens
 * itself, such a statement returns arrays (better-sqlite3's raw mode) instead of objects.
 */
export const ARRAY_ROWS_MARK = '/* chunklog:array-rows */ ';

/** The parts of a better-sqlite3 statement used here, typed structurally. */
interface BetterSqliteStatement extends SqliteStatement {
  raw?(toggle: boolean): unknown;
}

/** A better-sqlite3 statement as the direct reads use it. */
interface BetterSqliteReader {
  all(parameters: readonly unknown[]): unknown[];
}

/** The parts of a better-sqlite3 `Database` used here, typed structurally. */
interface BetterSqliteDatabase {
  prepare(sql: string): BetterSqliteStatement;
  /** Whether a transaction is open on the connection. */
  readonly inTransaction: boolean;
  /** Whether the connection is open. */
  readonly open: boolean;
  pragma(source: string): unknown;
  close(): void;
}

type BetterSqliteConstructor = new (
  filename: string,
  options?: { timeout?: number },
) => BetterSqliteDatabase;

/**
 * Wraps a database so that `prepare` reuses statements: Kysely prepares every query it runs,
 * and the store runs the same few queries over and over. Bounded, oldest evicted first (the
 * store's own statements are few; they are evicted only by a flood of other queries).
 */
type StatementCache = SqliteDatabase & { prepare(sql: string): BetterSqliteStatement };

function withStatementCache(db: BetterSqliteDatabase, size: number): StatementCache {
  const cache = new Map<string, BetterSqliteStatement>();
  return {
    close: () => db.close(),
    prepare(sql) {
      let statement = cache.get(sql);
      if (statement === undefined) {
        statement = db.prepare(sql);
        // Rows as arrays: better-sqlite3 builds them much faster than objects.
        if (sql.startsWith(ARRAY_ROWS_MARK)) statement.raw?.(true);
        cache.set(sql, statement);
        if (cache.size > size) cache.delete(cache.keys().next().value as string);
      }
      return statement;
    },
  };
}

/** Whether `path` names a file (not SQLite's in-memory or temporary database, nor a URI). */
function onDisk(path: string): boolean {
  return path !== ':memory:' && path !== '' && !path.startsWith('file:');
}

/**
 * Creates the folders a database file goes in, when missing (better-sqlite3 refuses to open a
 * file in a folder that does not exist). Node's modules are imported here, on first use, so that
 * the store's module loads where there is no file system (a `{ db }` store on an edge runtime).
 */
async function createParentFolder(path: string): Promise<void> {
  const [{ mkdir }, { dirname }] = await Promise.all([
    import('node:fs/promises'),
    import('node:path'),
  ]);
  await mkdir(dirname(path), { recursive: true });
}

/**
 * A Kysely instance over a better-sqlite3 database at `path`, opened on first use (better-sqlite3
 * is imported then, and the file's folder created when missing): WAL journal (on a file), a busy
 * timeout, foreign keys on.
 */
export function openSqlite(
  path: string,
  options: SqliteOpenOptions = {},
): { readonly db: Kysely<unknown>; readonly direct: DirectSqlite } {
  let opened: { readonly db: BetterSqliteDatabase; readonly cached: StatementCache } | undefined;
  /** The connection when a direct read can run now (open, no transaction on it), else undefined. */
  const readable = () =>
    opened === undefined || !opened.db.open || opened.db.inTransaction ? undefined : opened;
  const direct: DirectSqlite = {
    rows: (sql, parameters) =>
      (readable()?.cached.prepare(sql) as BetterSqliteReader | undefined)?.all(parameters),
    inSnapshot(reads) {
      const now = readable();
      if (now === undefined) return false;
      const { db, cached } = now;
      // Synchronous from BEGIN to COMMIT: nothing else runs on the connection in between.
      cached.prepare('begin').run([]);
      let wrote = false;
      try {
        reads(
          (sql, parameters) =>
            (cached.prepare(sql) as unknown as BetterSqliteReader).all(parameters),
          (writes) => {
            // The first write turns the read into a write transaction: SQLite refuses (busy, at
            // once: the connection's busy timeout is 0) when another connection holds the write
            // lock or has written since this snapshot began, so what is written was derived
            // from the database as it still is.
            if (wrote) return false;
            wrote = true;
            try {
              for (const [sql, parameters] of writes) cached.prepare(sql).run(parameters);
              return true;
            } catch {
              // Busy, or any other failure (a read-only file, a full disk): what was read stands,
              // and nothing of the writes is kept.
              if (db.inTransaction) cached.prepare('rollback').run([]);
              return false;
            }
          },
        );
      } catch (error) {
        if (db.inTransaction) cached.prepare('rollback').run([]);
        throw error;
      }
      if (db.inTransaction) cached.prepare('commit').run([]);
      return true;
    },
  };
  const db = new Kysely<unknown>({
    dialect: new SqliteDialect({
      database: async () => {
        const Database = await loadDependency<BetterSqliteConstructor>(
          'better-sqlite3',
          'createChunkStore({ sqlite })',
        );
        if (onDisk(path)) await createParentFolder(path);
        const db = new Database(path, { timeout: options.busyTimeoutMs ?? 5000 });
        if (path !== ':memory:' && path !== '') db.pragma('journal_mode = WAL');
        db.pragma(`synchronous = ${options.synchronous === 'normal' ? 'NORMAL' : 'FULL'}`);
        db.pragma('foreign_keys = ON');
        // From here on, nothing waits in SQLite's (synchronous) busy handler: the store's writes
        // wait for the lock asynchronously in `BEGIN IMMEDIATE` (transaction.ts), with no pragma
        // per transaction, and WAL readers do not wait for a writer.
        db.pragma('busy_timeout = 0');
        const cached = withStatementCache(db, options.statementCacheSize ?? 256);
        opened = { db, cached };
        return cached;
      },
    }),
  });
  return { db, direct };
}

/**
 * Writes made at the end of a direct read, from what it read: statements with their parameters,
 * run in order in the read's own transaction, all or none. Returns false, having written nothing,
 * when the database changed since the read's snapshot began, another connection is writing, or
 * a write fails; at most once per read.
 */
export type SnapshotWrite = (
  writes: ReadonlyArray<readonly [string, readonly unknown[]]>,
) => boolean;

/**
 * Synchronous reads on the SQLite connection the store opened itself. A read runs at once, on
 * the connection's committed state, when no transaction is open on the connection: nothing can
 * then come between it and the database (better-sqlite3 is synchronous), so it need not queue
 * behind Kysely's connection lock, and it cannot wait for anything (WAL readers do not wait for
 * writers). Inside a transaction it would see the transaction's uncommitted rows: the read goes
 * through Kysely then, which queues it until the transaction ends.
 */
export interface DirectSqlite {
  /**
   * The rows of `sql` with `parameters`, read now, or undefined when the connection is not open
   * yet or a transaction is open on it.
   */
  rows(sql: string, parameters: readonly unknown[]): unknown[] | undefined;
  /**
   * Runs `reads` now, inside one read transaction (so every query it makes sees the same
   * snapshot of the database), `all` giving the rows of a query and `write` writing what was
   * derived from them, once, last (see {@link SnapshotWrite}); false, having run nothing, when
   * the connection is not open yet or a transaction is open on it.
   */
  inSnapshot(
    reads: (
      all: (sql: string, parameters: readonly unknown[]) => unknown[],
      write: SnapshotWrite,
    ) => void,
  ): boolean;
}
