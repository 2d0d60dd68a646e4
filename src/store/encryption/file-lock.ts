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
  renameSync(from: string, to: string): void;
  linkSync(existing: string, path: string): void;
  statSync(
    path: string,
    options: { throwIfNoEntry: false },
  ): { mtimeMs: number; ino: number | bigint } | undefined;
}

/** A lock file older than this was left by a process that died while holding it. */
const STALE_MS = 10_000;
/** How long a process waits for the lock before it gives up. */
const GIVE_UP_MS = 30_000;
const WAIT = { initialMs: 2, maxMs: 100, jitter: true } as const;

/**
 * Runs `work` holding the lock file `lockPath` (made exclusively, removed after). A lock file
 * older than 10 s is taken as left by a dead process and removed (see {@link breakStaleLock}).
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
        breakStaleLock(fs, lockPath, held);
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

/**
 * Removes a lock file found stale, unless it is no longer that file: two processes may find one
 * stale lock at once, and the first to break it takes the lock anew, under the same name. So the
 * file is moved aside (one move wins), then removed only if it is the file found stale; a lock
 * taken since is put back where it was.
 */
function breakStaleLock(
  fs: LockFs,
  lockPath: string,
  stale: { mtimeMs: number; ino: number | bigint },
): void {
  const aside = `${lockPath}.${process.pid}.${Math.random().toString(36).slice(2)}`;
  try {
    fs.renameSync(lockPath, aside);
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ENOENT') return;
    throw error;
  }
  const moved = fs.statSync(aside, { throwIfNoEntry: false });
  if (moved !== undefined && (moved.mtimeMs !== stale.mtimeMs || moved.ino !== stale.ino)) {
    try {
      fs.linkSync(aside, lockPath);
    } catch (error) {
      // A third process took the lock in the instant it was aside: nothing is put back over it.
      if ((error as { code?: unknown }).code !== 'EEXIST') throw error;
    }
  }
  removeLock(fs, aside);
}

function removeLock(fs: LockFs, lockPath: string): void {
  try {
    fs.unlinkSync(lockPath);
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'ENOENT') throw error;
  }
}
