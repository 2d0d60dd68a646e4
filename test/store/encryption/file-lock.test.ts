// The key file's lock between processes (src/store/encryption/file-lock.ts): a lock file left by
// a dead process is broken once, even when two processes find it stale at the same moment.
import fs, { mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type LockFs, withFileLock } from '../../../src/store/encryption/file-lock.js';

const dir = mkdtempSync(join(tmpdir(), 'chunklog-file-lock-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('withFileLock', () => {
  it('leaves the lock to the process that broke a stale one first, when another found it stale too', async () => {
    const lock = join(dir, 'keys.json.lock');
    writeFileSync(lock, '');
    const old = new Date(Date.now() - 60_000);
    utimesSync(lock, old, old);
    // Process A breaks the stale lock and takes it between this process's look at it and its
    // own break; A lets go at this process's third try.
    let aHolds = false;
    let opens = 0;
    const racing: LockFs = {
      openSync(path, flags) {
        opens++;
        if (opens === 3 && aHolds) {
          fs.unlinkSync(lock);
          aHolds = false;
        }
        return fs.openSync(path, flags);
      },
      closeSync: (fd) => fs.closeSync(fd),
      unlinkSync: (path) => fs.unlinkSync(path),
      renameSync: (from, to) => fs.renameSync(from, to),
      linkSync: (existing, path) => fs.linkSync(existing, path),
      statSync(path, options) {
        const stat = fs.statSync(path, options);
        if (opens === 1 && !aHolds && stat !== undefined) {
          fs.unlinkSync(lock);
          fs.closeSync(fs.openSync(lock, 'wx'));
          aHolds = true;
        }
        return stat;
      },
    };
    let whileAHeld: boolean | undefined;
    await withFileLock(racing, lock, () => {
      whileAHeld = aHolds;
    });
    expect(whileAHeld).toBe(false);
    expect(opens).toBe(3);
    // Nothing is left behind: not the lock, not the file moved aside.
    expect(readdirSync(dir)).toEqual([]);
  });
});
