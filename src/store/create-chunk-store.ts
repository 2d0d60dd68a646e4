import { type Kysely, sql } from 'kysely';
import { ChunklogError } from '../errors/chunklog-error.js';
import { readOptions } from '../errors/invalid-option.js';
import type { ChunkRowDraft } from '../schema/chunk-row.js';
import type { Redactor } from '../transforms/redactor.js';
import type { StoreContext } from './context.js';
import type { StoreDialectName } from './dialects/adapter.js';
import { resolveDialect } from './dialects/detect.js';
import type { StoreEncryptionOptions } from './encryption/key-provider.js';
import { StoreCipher } from './encryption/store-cipher.js';
import { afterWrite, forgetAllStates, forgetStates } from './history/write-state.js';
import { runMigrations } from './migrations.js';
import { type MysqlTarget, openMysql } from './mysql-pool.js';
import { openSqlite, type SqliteOpenOptions } from './open-sqlite.js';
import { openPostgres, type PostgresTarget } from './pg-pool.js';
import {
  activePath,
  addAlternative,
  getAlternatives,
  switchAlternative,
} from './queries/alternatives.js';
import { appendTurn } from './queries/append-turn.js';
import { eraseThread } from './queries/erase-thread.js';
import { expire } from './queries/expire.js';
import { forkThread } from './queries/fork-thread.js';
import { getChunks } from './queries/get-chunks.js';
import { getChunksAfter } from './queries/get-chunks-after.js';
import { getHistory, getMessages, writeHistorySnapshot } from './queries/get-history.js';
import { getRows } from './queries/get-rows.js';
import { getTurn, hasTurn } from './queries/get-turn.js';
import { acquireLease, getLease, releaseLease, renewLease } from './queries/leases.js';
import { listThreads } from './queries/list-threads.js';
import { rotateThreadKey } from './queries/rotate-key.js';
import { createThread, deleteThread, getThread } from './queries/thread-ops.js';
import { truncateAfter } from './queries/truncate-after.js';
import {
  appendSteps,
  beginTurn,
  findInterruptedTurns,
  getTurnInfo,
  listTurns,
  setTurnStatus,
} from './queries/turns.js';
import { updateThread } from './queries/update-thread.js';
import { getThreadUsage, getTurnUsage, recordUsage } from './queries/usage.js';
import { read } from './read.js';
import { createStatements } from './statements.js';
import { wrapStoreErrors } from './store-errors.js';
import { checkStoreOptions, dialectName } from './store-options.js';
import { TableNamesPlugin } from './table-names-plugin.js';
import { resolveTableNames, type StoreTableOptions, type StoreTables } from './tables.js';
import type { ChunkStore, CorruptRowPolicy } from './types.js';

/** Where the store keeps its data: a SQLite file it opens itself, or your Kysely instance. */
export type ChunkStoreTarget =
  | {
      /**
       * A SQLite file path (its missing folders are created), or `':memory:'`. better-sqlite3 is
       * imported on first use.
       */
      readonly sqlite: string;
    }
  | {
      /**
       * A PostgreSQL database the store connects to itself: a connection string (a
       * `postgres://` or `postgresql://` URL, a `socket:` URL or a socket folder), or `pg`'s pool
       * options. A string of another form (a `mysql://` URL) is `invalid-option` at once. The pool is wired so that a dropped connection cannot kill the process
       * (`guardPgPool`); `pg` is imported on first use and closed with the store.
       */
      readonly postgres: PostgresTarget;
    }
  | {
      /**
       * A MySQL or MariaDB database the store connects to itself: a connection string
       * (`mysql://user:pass@host:3306/db`, or `mariadb://`), or `mysql2`'s pool options. A string
       * of another form (a `postgres://` URL, `mysql:/db`) is `invalid-option` at once. `mysql2` is
       * imported on first use; the pool is closed with the store.
       */
      readonly mysql: MysqlTarget;
    }
  | {
      /**
       * Any Kysely instance (SQLite, PostgreSQL via `pg`, MySQL/MariaDB via `mysql2`, or a
       * compatible third-party dialect). Its plugins do not apply to the store's queries.
       */
      // biome-ignore lint/suspicious/noExplicitAny: the store takes a Kysely of any schema
      readonly db: Kysely<any>;
      /** The SQL dialect, when it cannot be told from the Kysely instance's adapter. */
      readonly dialect?: StoreDialectName | undefined;
    };

/** Options of {@link createChunkStore}. */
export interface ChunkStoreOptions extends StoreTableOptions, SqliteOpenOptions {
  /** What reads do with a row whose data no longer parses: `'throw'` (default) or `'skip'`. */
  readonly onCorruptRow?: CorruptRowPolicy | undefined;
  /**
   * How JSON columns are declared by `migrate()`: `'native'` (default: `jsonb` on PostgreSQL,
   * `JSON` on MySQL, `TEXT` on SQLite) or `'text'` (the exact text on every dialect: key order
   * kept). Either keeps any string: a value holding one the native type refuses (`\u0000`, a
   * lone surrogate) is stored as its JSON text.
   */
  readonly json?: 'native' | 'text' | undefined;
  /** The clock, in milliseconds since the epoch. Default `Date.now`. */
  readonly now?: (() => number) | undefined;
  /**
   * How long one operation may take, in milliseconds, before it fails with `store-timeout`
   * (waiting for a thread's lock included). Default 30,000. A write that times out is rolled
   * back — unless its COMMIT was already on its way — and its database session is ended, so
   * that a stalled connection does not keep the thread's other writers waiting.
   */
  readonly timeoutMs?: number | undefined;
  /**
   * How many rows of whole turns must follow a thread's last history snapshot before a whole-thread read (`getHistory`, `getMessages`, a session's
   * cold start) writes another (see `ChunkStore.getHistory`). Default 1,000. `false`: snapshots
   * are neither written nor read (a snapshot holds a second copy of the turns it covers).
   */
  readonly snapshotMinRows?: number | false | undefined;
  /**
   * Redaction at write: every row `appendTurn`, `beginTurn` and `appendSteps` store goes through
   * it (the strings that hold what a user or a model wrote; never ids, signatures or provider
   * metadata), and a write that replaced anything stores a `redacted` system row with the counts
   * after its rows. `redactSecrets` is the ready one. Rows a redacting session writes are clean
   * already: this finds nothing in them and adds nothing. Default: none.
   */
  readonly redact?: Redactor | undefined;
  /**
   * Encryption at rest with a key per thread (AES-256-GCM): row data, thread metadata and
   * titles, and history states are stored encrypted with the thread's data key from `keys` (the
   * app's key management, or `createMemoryKeyProvider` / `createFileKeyProvider`), each bound to
   * where it is stored (a row to its thread id and seq). Ids, seqs, steps, roles, types,
   * timestamps, statuses, owner ids and usage stay clear. Rows stored clear before encryption
   * was turned on are still read (`rotateThreadKey` encrypts them). See docs/store.md, Privacy.
   * Default: none.
   */
  readonly encryption?: StoreEncryptionOptions | undefined;
}

/**
 * Opens a chunk store: a thread's chunk log with dense per-thread seqs, one transaction per
 * turn, and keyset pages. Call {@link ChunkStore.migrate} once before the first use.
 *
 * @param target - `{ sqlite: path | ':memory:' }` to let the store open better-sqlite3 (the
 *   file's missing folders created, WAL, a busy timeout, foreign keys on), or `{ db }` with your
 *   own Kysely instance
 * @param options - table names, the corrupt-row policy, the JSON column type, SQLite settings
 * @returns the store; nothing is opened or queried until its first use
 * @throws {ChunklogError} `invalid-option`, naming the option: an unknown option, a bad table
 *   name, an unknown dialect, a `db` that is not a Kysely instance, a connection string of
 *   another dialect or one that does not parse, a value of the wrong type
 *
 * @example
 * ```ts
 * import { createChunkStore } from 'chunklog/store';
 *
 * const store = createChunkStore({ sqlite: './chat.db' });
 * await store.migrate();
 * await store.appendTurn('thread-1', [
 *   { turnId: 't1', step: 0, role: 'user', type: 'text', data: { text: 'Hello' } },
 *   { turnId: 't1', step: 0, role: 'assistant', type: 'text', data: { text: 'Hi!' } },
 * ]);
 * const page = await store.getChunks('thread-1', { limit: 50 });
 * // page.chunks[0].seq === 1, page.total === 2, page.hasMore === false
 * await store.close();
 * ```
 */
export function createChunkStore(
  target: ChunkStoreTarget,
  options: ChunkStoreOptions = {},
): ChunkStore {
  const checked = checkStoreOptions(options);
  const names = resolveTableNames(checked.tables);
  const { json, onCorruptRow } = checked;
  let owned: Kysely<unknown> | undefined;
  let ownSqlite = false;
  // biome-ignore lint/suspicious/noExplicitAny: see ChunkStoreTarget
  let userDb: Kysely<any>;
  let dialect: StoreDialectName | undefined;
  if (target !== null && typeof target === 'object' && 'sqlite' in target) {
    if (typeof target.sqlite !== 'string') {
      throw new ChunklogError('invalid-option', 'sqlite must be a file path or ":memory:".', {
        option: 'sqlite',
        value: target.sqlite,
      });
    }
    owned = openSqlite(target.sqlite, checked.sqlite);
    ownSqlite = true;
    userDb = owned;
    dialect = 'sqlite';
  } else if (target !== null && typeof target === 'object' && 'postgres' in target) {
    owned = openPostgres(serverTarget('postgres', target.postgres, 'pg'));
    userDb = owned;
    dialect = 'postgres';
  } else if (target !== null && typeof target === 'object' && 'mysql' in target) {
    owned = openMysql(serverTarget('mysql', target.mysql, 'mysql2'));
    userDb = owned;
    dialect = 'mysql';
  } else if (target !== null && typeof target === 'object' && 'db' in target) {
    if (!isKysely(target.db)) {
      throw new ChunklogError('invalid-option', 'db must be a Kysely instance.', {
        option: 'db',
        value: target.db,
      });
    }
    userDb = target.db;
    dialect = dialectName(target.dialect);
  } else {
    // A misspelt key is named, with the one meant (`sqlte` → `sqlite`).
    if (typeof target === 'object' && target !== null) {
      readOptions(target, 'createChunkStore', ['sqlite', 'postgres', 'mysql', 'db', 'dialect']);
    }
    throw new ChunklogError(
      'invalid-option',
      'createChunkStore needs { sqlite }, { postgres }, { mysql } or { db }.',
      {
        option: 'target',
        value: target,
      },
    );
  }
  const adapter = resolveDialect(userDb, dialect);
  // The store's queries name its tables logically; the plugin sends the real names. Migrations
  // run without it (they create the tables under their real names).
  const raw = (userDb as Kysely<object>).withoutPlugins();
  const db = raw.withPlugin(new TableNamesPlugin(names)).$extendTables<StoreTables>();
  const ctx: StoreContext = {
    db,
    adapter,
    names,
    jsonAsText: json === 'text',
    jsonRefuses: json === 'text' ? undefined : adapter.jsonRefuses,
    onCorruptRow,
    now: checked.now,
    statements: createStatements(adapter),
    timeoutMs: checked.timeoutMs,
    snapshotMinRows: checked.snapshotMinRows,
    ...(checked.redact === undefined ? {} : { redactor: checked.redact }),
    ...(checked.encryption === undefined
      ? {}
      : { cipher: new StoreCipher(checked.encryption.keys, checked.encryption.requireEncrypted) }),
    ...(ownSqlite ? { ownSqliteBusyMs: checked.sqlite.busyTimeoutMs ?? 5000 } : {}),
  };

  let closed = false;
  const open = (what: string) => {
    if (closed) throw new ChunklogError('closed', `${what} was called on a closed chunk store.`);
  };

  return {
    dialect: adapter.name,
    tables: names,
    async migrate() {
      open('migrate');
      return await wrapStoreErrors('migrate', undefined, async () => {
        const busyMs = ctx.ownSqliteBusyMs;
        // Migrations wait for the lock in SQLite's busy handler, as when the file was opened.
        if (busyMs !== undefined) await sql.raw(`pragma busy_timeout = ${busyMs}`).execute(db);
        try {
          await runMigrations(raw as Kysely<unknown>, {
            adapter,
            names,
            jsonAsText: ctx.jsonAsText,
          });
        } finally {
          if (busyMs !== undefined) await sql.raw('pragma busy_timeout = 0').execute(db);
        }
      });
    },
    async appendTurn(threadId: string, drafts: readonly ChunkRowDraft[], options) {
      open('appendTurn');
      const rows = await appendTurn(ctx, threadId, drafts, options);
      await afterWrite(ctx, threadId, rows[rows.length - 1]?.seq ?? 0);
      return rows;
    },
    async getChunks(threadId, options) {
      open('getChunks');
      return await read(ctx, 'getChunks', threadId, () => getChunks(ctx, threadId, options));
    },
    async getChunksAfter(threadId, options) {
      open('getChunksAfter');
      return await read(ctx, 'getChunksAfter', threadId, () =>
        getChunksAfter(ctx, threadId, options),
      );
    },
    async getRows(threadId, options) {
      open('getRows');
      return await read(ctx, 'getRows', threadId, () => getRows(ctx, threadId, options));
    },
    async getTurn(threadId, turnId, options) {
      open('getTurn');
      return await read(ctx, 'getTurn', threadId, () => getTurn(ctx, threadId, turnId, options));
    },
    async hasTurn(threadId, turnId) {
      open('hasTurn');
      return await read(ctx, 'hasTurn', threadId, () => hasTurn(ctx, threadId, turnId));
    },
    async getMessages(threadId, options) {
      open('getMessages');
      return await read(ctx, 'getMessages', threadId, () => getMessages(ctx, threadId, options));
    },
    async getHistory(threadId, options) {
      open('getHistory');
      return await read(ctx, 'getHistory', threadId, () => getHistory(ctx, threadId, options));
    },
    async writeHistorySnapshot(threadId) {
      open('writeHistorySnapshot');
      return await writeHistorySnapshot(ctx, threadId);
    },
    async createThread(threadId, options) {
      open('createThread');
      return await createThread(ctx, threadId, options);
    },
    async getThread(threadId) {
      open('getThread');
      return await read(ctx, 'getThread', threadId, () => getThread(ctx, threadId));
    },
    async listThreads(options) {
      open('listThreads');
      return await read(ctx, 'listThreads', undefined, () => listThreads(ctx, options));
    },
    async updateThread(threadId, changes) {
      open('updateThread');
      return await updateThread(ctx, threadId, changes);
    },
    async deleteThread(threadId) {
      open('deleteThread');
      forgetStates(ctx, threadId);
      return await deleteThread(ctx, threadId);
    },
    async eraseThread(threadId) {
      open('eraseThread');
      forgetStates(ctx, threadId);
      return await eraseThread(ctx, threadId);
    },
    async expire(options) {
      open('expire');
      const result = await expire(ctx, options);
      if (result.threads > 0) forgetAllStates(ctx);
      return result;
    },
    async rotateThreadKey(threadId, options) {
      open('rotateThreadKey');
      forgetStates(ctx, threadId);
      return await rotateThreadKey(ctx, threadId, options);
    },
    async truncateAfter(threadId, seq) {
      open('truncateAfter');
      forgetStates(ctx, threadId);
      return await truncateAfter(ctx, threadId, seq);
    },
    async forkThread(threadId, options) {
      open('forkThread');
      return await forkThread(ctx, threadId, options);
    },
    async addAlternative(conversationId, options) {
      open('addAlternative');
      return await addAlternative(ctx, conversationId, options);
    },
    async getAlternatives(conversationId) {
      open('getAlternatives');
      return await getAlternatives(ctx, conversationId);
    },
    async switchAlternative(conversationId, threadId) {
      open('switchAlternative');
      return await switchAlternative(ctx, conversationId, threadId);
    },
    async activePath(conversationId) {
      open('activePath');
      return await activePath(ctx, conversationId);
    },
    async recordUsage(threadId, turnId, steps) {
      open('recordUsage');
      return await recordUsage(ctx, threadId, turnId, steps);
    },
    async getTurnUsage(threadId, turnId, options) {
      open('getTurnUsage');
      return await read(ctx, 'getTurnUsage', threadId, () =>
        getTurnUsage(ctx, threadId, turnId, options),
      );
    },
    async getThreadUsage(threadId, options) {
      open('getThreadUsage');
      return await read(ctx, 'getThreadUsage', threadId, () =>
        getThreadUsage(ctx, threadId, options),
      );
    },
    async beginTurn(threadId, drafts, options) {
      open('beginTurn');
      return await beginTurn(ctx, threadId, drafts, options);
    },
    async appendSteps(threadId, turnId, drafts, options) {
      open('appendSteps');
      const rows = await appendSteps(ctx, threadId, turnId, drafts, options);
      const last = rows[rows.length - 1];
      if (last !== undefined) await afterWrite(ctx, threadId, last.seq);
      return rows;
    },
    async setTurnStatus(threadId, turnId, status, options) {
      open('setTurnStatus');
      return await setTurnStatus(ctx, threadId, turnId, status, options);
    },
    async getTurnInfo(threadId, turnId) {
      open('getTurnInfo');
      return await read(ctx, 'getTurnInfo', threadId, () => getTurnInfo(ctx, threadId, turnId));
    },
    async listTurns(threadId, options) {
      open('listTurns');
      return await read(ctx, 'listTurns', threadId, () => listTurns(ctx, threadId, options));
    },
    async findInterruptedTurns(options) {
      open('findInterruptedTurns');
      return await read(ctx, 'findInterruptedTurns', undefined, () =>
        findInterruptedTurns(ctx, options),
      );
    },
    async acquireLease(threadId, holder, options) {
      open('acquireLease');
      return await acquireLease(ctx, threadId, holder, options);
    },
    async renewLease(threadId, fence, options) {
      open('renewLease');
      return await renewLease(ctx, threadId, fence, options);
    },
    async releaseLease(threadId, fence) {
      open('releaseLease');
      return await releaseLease(ctx, threadId, fence);
    },
    async getLease(threadId) {
      open('getLease');
      return await read(ctx, 'getLease', threadId, () => getLease(ctx, threadId));
    },
    async close() {
      if (closed) return;
      closed = true;
      if (owned !== undefined) await owned.destroy();
    },
  };
}

// biome-ignore lint/suspicious/noExplicitAny: any Kysely instance will do
function isKysely(db: unknown): db is Kysely<any> {
  return (
    typeof db === 'object' &&
    db !== null &&
    typeof (db as { getExecutor?: unknown }).getExecutor === 'function' &&
    typeof (db as { withoutPlugins?: unknown }).withoutPlugins === 'function'
  );
}

/**
 * The connection strings each server target takes, as its driver reads them: `pg` a
 * `postgres://` or `postgresql://` URL, a `socket:` URL or a socket folder (`/var/run/postgresql
 * db`); `mysql2` a `mysql://` or `mariadb://` URL that `URL` parses.
 */
const CONNECTION_STRINGS = {
  postgres: {
    forms: 'a postgres:// or postgresql:// URL (or a socket: URL or folder)',
    accepts: (text: string) => /^(postgres(ql)?:\/\/|socket:|\/)/i.test(text),
  },
  mysql: {
    forms: 'a mysql:// or mariadb:// URL',
    accepts: (text: string) => /^(mysql|mariadb):\/\//i.test(text) && URL.canParse(text),
  },
} as const;

/** The scheme a connection string names (`postgres`), for the message refusing it. */
function schemeOf(text: string): string | undefined {
  return /^([a-z][a-z0-9+.-]*):/i.exec(text)?.[1]?.toLowerCase();
}

/**
 * The value of a `{ postgres }` or `{ mysql }` target, checked before anything connects: a
 * connection string of the target's own dialect (a URL of another, or one that does not parse,
 * would otherwise be handed to the driver, which waits on a server that never answers or
 * connects with what it guessed), or the driver's pool options (an object).
 *
 * @throws {ChunklogError} `invalid-option` naming the target's key
 */
function serverTarget(
  key: 'postgres' | 'mysql',
  value: unknown,
  driver: string,
): string | Readonly<Record<string, unknown>> {
  if (typeof value === 'string' && value !== '') {
    const { forms, accepts } = CONNECTION_STRINGS[key];
    if (accepts(value)) return value;
    const scheme = schemeOf(value);
    const other = Object.keys(CONNECTION_STRINGS).find(
      (dialect) => dialect !== key && CONNECTION_STRINGS[dialect as typeof key].accepts(value),
    );
    // The URL is not repeated: it may hold a password.
    const what =
      other !== undefined
        ? `a ${scheme}: URL is for { ${other} }`
        : scheme !== undefined && /^(mysql|mariadb|postgres(ql)?):/i.test(value)
          ? `this ${scheme}: URL does not parse`
          : scheme !== undefined
            ? `a ${scheme}: URL is no ${key} connection string`
            : 'the string is no URL';
    throw new ChunklogError(
      'invalid-option',
      `${key} must be ${forms} or ${driver} pool options: ${what}.`,
      { option: key },
    );
  }
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    return value as Readonly<Record<string, unknown>>;
  }
  throw new ChunklogError(
    'invalid-option',
    `${key} must be a connection string or ${driver} pool options.`,
    { option: key, value },
  );
}
