// An exclusive lock between processes, as a lock file made with O_EXCL: the file key provider's
// read-modify-write of its key file runs under it, so that processes sharing the file (a cluster
// of workers, `chunklog import --key-file` beside the app) never write a copy that lacks a key
// another one made.

import { backoffDelay, sleep } from '../../errors/backoff.js';
import { ChunklogError } from '../../errors/chunklog-error.js';

/** The parts of `node:fs` the lock uses. */
export interface LockFs {
  openSync(path: string, flags: string): number;
  closeSync(fd: number): void;
  unlinkSync(path: string): void;
  statSync(path: string, options: { throwIfNoEntry: false }): { mtimeMs: number } | undefined;
}

/** A lock file older than this was left by a process that died while holding it. */
const STALE_MS = 10_000;
/** How long a process waits for the lock before it gives up. */
const GIVE_UP_MS = 30_000;
const WAIT = { initialMs: 2, maxMs: 100, jitter: true } as const;

/**
 * Runs `work` holding the lock file `lockPath` (made exclusively, removed after). A lock file
 * older than 10 s is taken as left by a dead process and removed.
 *
 * @throws {ChunklogError} `store-failed` when the lock stays held for 30 s
 */
export async function withFileLock<T>(fs: LockFs, lockPath: string, work: () => T): Promise<T> {
  const started = Date.now();
  for (let retry = 0; ; retry++) {
    let fd: number;
    try {
      fd = fs.openSync(lockPath, 'wx');
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'EEXIST') throw error;
      const held = fs.statSync(lockPath, { throwIfNoEntry: false });
      if (held !== undefined && Date.now() - held.mtimeMs > STALE_MS) {
        removeLock(fs, lockPath);
        continue;
      }
      if (Date.now() - started > GIVE_UP_MS) {
        throw new ChunklogError(
          'store-failed',
          `The key file lock ${lockPath} has been held for over ${GIVE_UP_MS / 1000} s; remove it if no process uses the key file.`,
        );
      }
      await sleep(backoffDelay(WAIT, retry));
      continue;
    }
    fs.closeSync(fd);
    try {
      return work();
    } finally {
      removeLock(fs, lockPath);
    }
  }
}

function removeLock(fs: LockFs, lockPath: string): void {
  try {
    fs.unlinkSync(lockPath);
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'ENOENT') throw error;
  }
}
