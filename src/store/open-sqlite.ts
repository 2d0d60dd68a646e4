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
  /** How many prepared statements to keep. Default 128. */
  readonly statementCacheSize?: number | undefined;
}

/** The parts of a better-sqlite3 `Database` used here, typed structurally. */
interface BetterSqliteDatabase {
  prepare(sql: string): SqliteStatement;
  pragma(source: string): unknown;
  close(): void;
}

type BetterSqliteConstructor = new (
  filename: string,
  options?: { timeout?: number },
) => BetterSqliteDatabase;

/**
 * Wraps a database so that `prepare` reuses statements: Kysely prepares every query it runs,
 * and the store runs the same few queries over and over. Bounded, least recently used evicted first.
 */
function withStatementCache(db: BetterSqliteDatabase, size: number): SqliteDatabase {
  const cache = new Map<string, SqliteStatement>();
  return {
    close: () => db.close(),
    prepare(sql) {
      let statement = cache.get(sql);
      if (statement !== undefined) {
        // Most recently used last, so that eviction drops the least recently used.
        cache.delete(sql);
        cache.set(sql, statement);
      } else {
        statement = db.prepare(sql);
        cache.set(sql, statement);
        if (cache.size > size) cache.delete(cache.keys().next().value as string);
      }
      return statement;
    },
  };
}

/**
 * A Kysely instance over a better-sqlite3 database at `path`, opened on first use (better-sqlite3
 * is imported then): WAL journal (on a file), a busy timeout, foreign keys on.
 */
export function openSqlite(path: string, options: SqliteOpenOptions = {}): Kysely<unknown> {
  return new Kysely<unknown>({
    dialect: new SqliteDialect({
      database: async () => {
        const Database = await loadDependency<BetterSqliteConstructor>(
          'better-sqlite3',
          'createChunkStore({ sqlite })',
        );
        const db = new Database(path, { timeout: options.busyTimeoutMs ?? 5000 });
        if (path !== ':memory:' && path !== '') db.pragma('journal_mode = WAL');
        db.pragma(`synchronous = ${options.synchronous === 'normal' ? 'NORMAL' : 'FULL'}`);
        db.pragma('foreign_keys = ON');
        return withStatementCache(db, options.statementCacheSize ?? 128);
      },
    }),
  });
}
