// A key rotation in a child process, for the crash test: opens the SQLite store and key file
// named on its command line and rotates the thread's key. Every COMMIT of the rotation (the mark
// of its key version, one per batch of rows, then one for the thread's columns) is reported to the parent twice, before it is
// sent and after it returned, and waits for the parent's 'go' each time: the parent kills the
// process (SIGKILL) at the point it chose, or lets it run to the end, where it says done.
//   argv[2]: JSON { file, keyFile, threadId, batchRows }
import Database from 'better-sqlite3';
import {
  type CompiledQuery,
  type DatabaseConnection,
  type Driver,
  Kysely,
  type QueryResult,
  SqliteDialect,
  type SqliteDialectConfig,
  SqliteDriver,
} from 'kysely';
import { createChunkStore, createFileKeyProvider } from '../../../src/store/index.js';

/** What the worker tells its parent. */
export type RotateMessage =
  | { readonly type: 'commit'; readonly commit: number; readonly at: 'before' | 'after' }
  | { readonly type: 'done'; readonly version: number };

/** The master key of the crash test's key file. */
export const MASTER_KEY: Uint8Array = new Uint8Array(32).fill(42);

function send(message: RotateMessage): Promise<void> {
  return new Promise((resolve) => process.send?.(message, () => resolve()));
}

/** Reports where the rotation is and waits for the parent's go-ahead (or its SIGKILL). */
async function pause(message: RotateMessage): Promise<void> {
  const go = new Promise<void>((resolve) => process.once('message', () => resolve()));
  await send(message);
  await go;
}

let commits = 0;

/** A SQLite connection that pauses around each COMMIT. */
function pausing(connection: DatabaseConnection): DatabaseConnection {
  return {
    async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
      if (!/^\s*commit\b/i.test(query.sql)) return connection.executeQuery<R>(query);
      const commit = ++commits;
      await pause({ type: 'commit', commit, at: 'before' });
      const result = await connection.executeQuery<R>(query);
      await pause({ type: 'commit', commit, at: 'after' });
      return result;
    },
    streamQuery: (query, chunkSize) => connection.streamQuery(query, chunkSize),
  };
}

class PausingDriver extends SqliteDriver {
  override async acquireConnection(): Promise<DatabaseConnection> {
    return pausing(await super.acquireConnection());
  }
}

/** Kysely's SQLite dialect, its connection {@link pausing}. */
class PausingDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig;
  constructor(config: SqliteDialectConfig) {
    super(config);
    this.#config = config;
  }
  override createDriver(): Driver {
    return new PausingDriver(this.#config);
  }
}

if (process.argv[2] !== undefined && process.send !== undefined) {
  const job = JSON.parse(process.argv[2]) as {
    file: string;
    keyFile: string;
    threadId: string;
    batchRows: number;
  };
  const db = new Kysely<unknown>({
    dialect: new PausingDialect({
      // As the store opens a SQLite file itself (open-sqlite.ts).
      database: () => {
        const sqlite = new Database(job.file);
        sqlite.pragma('journal_mode = WAL');
        sqlite.pragma('synchronous = FULL');
        sqlite.pragma('foreign_keys = ON');
        return Promise.resolve(sqlite);
      },
    }),
  });
  const keys = createFileKeyProvider({ path: job.keyFile, masterKey: MASTER_KEY });
  const store = createChunkStore({ db, dialect: 'sqlite' }, { encryption: { keys } });
  const result = await store.rotateThreadKey(job.threadId, { batchRows: job.batchRows });
  await send({ type: 'done', version: result.version });
  await store.close();
  await db.destroy();
  process.disconnect();
}
