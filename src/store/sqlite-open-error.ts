import { ChunklogError } from '../errors/chunklog-error.js';

/** The fields of a better-sqlite3 `SqliteError` or a Node.js file system error read here. */
interface CodedError {
  readonly code?: unknown;
  readonly message?: unknown;
}

function codeOf(error: unknown): string {
  const code = (error as CodedError | null)?.code;
  return typeof code === 'string' ? code : '';
}

/**
 * Why SQLite could not open `path`, in words that say what to do: the folder is missing or not
 * writable, the path is a folder, the file is not a SQLite database, or another process holds a
 * lock. Looks at the file system only after the open failed.
 */
async function reasonFor(path: string, error: unknown): Promise<string> {
  const code = codeOf(error);
  const driverMessage = error instanceof Error ? error.message : String(error);
  if (code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT') {
    return `the file is not a SQLite database, or it is damaged (${driverMessage}); point the store at a new file or restore this one`;
  }
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) {
    return `another process holds a lock on it (${driverMessage}); stop that process or raise \`sqlite.busyTimeoutMs\``;
  }
  if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') {
    return `the file system refused access (${driverMessage}); make the folder writable by this process`;
  }
  if (code === 'ENOTDIR' || code === 'EEXIST') {
    return `a part of the path is a file, not a folder (${driverMessage})`;
  }
  if (
    code.startsWith('SQLITE_CANTOPEN') ||
    code.startsWith('SQLITE_READONLY') ||
    code.startsWith('SQLITE_IOERR')
  ) {
    const [{ stat, access, constants }, { dirname }] = await Promise.all([
      import('node:fs/promises'),
      import('node:path'),
    ]);
    const fileStat = await stat(path).catch(() => undefined);
    if (fileStat?.isDirectory() === true)
      return 'the path is a folder, not a file; name a file inside it';
    const folder = dirname(path);
    const folderWritable = await access(folder, constants.W_OK | constants.X_OK).then(
      () => true,
      () => false,
    );
    if (!folderWritable) {
      return `the folder ${JSON.stringify(folder)} is not writable by this process (SQLite creates the file and its -wal and -shm files there)`;
    }
    if (fileStat !== undefined) {
      const fileWritable = await access(path, constants.R_OK | constants.W_OK).then(
        () => true,
        () => false,
      );
      if (!fileWritable) return 'the file is not readable and writable by this process';
    }
  }
  return driverMessage;
}

/**
 * The `store-failed` error for a SQLite database that could not be opened at `path`, naming the
 * path and the reason; the driver's (or the file system's) error is the `cause`.
 *
 * @param path - the file `createChunkStore({ sqlite })` was given
 * @param error - what better-sqlite3 or `mkdir` threw
 */
export async function sqliteOpenError(path: string, error: unknown): Promise<ChunklogError> {
  const reason = await reasonFor(path, error);
  return new ChunklogError(
    'store-failed',
    `Cannot open the SQLite database ${JSON.stringify(path)}: ${reason}.`,
    { cause: error },
  );
}
