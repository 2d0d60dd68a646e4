import { ChunklogError } from '../../errors/chunklog-error.js';
import { readOptions } from '../../errors/invalid-option.js';
import { open, randomKeyBytes, seal } from './cipher.js';
import { withFileLock } from './file-lock.js';
import { KEY_BYTES, type ThreadKey, type ThreadKeyProvider } from './key-provider.js';

interface NodeFs {
  readFileSync(path: string, encoding: 'utf8'): string;
  statSync(
    path: string,
    options: { throwIfNoEntry: false },
  ): { mtimeMs: number; size: number; ino: number } | undefined;
  writeFileSync(path: string, data: string, options: { mode: number }): void;
  renameSync(from: string, to: string): void;
  linkSync(existing: string, path: string): void;
  openSync(path: string, flags: string): number;
  fsyncSync(fd: number): void;
  closeSync(fd: number): void;
  unlinkSync(path: string): void;
}

/** Options of {@link createFileKeyProvider}. */
export interface FileKeyProviderOptions {
  /** The key file (JSON); created on the first key. Keep it apart from the database's backups. */
  readonly path: string;
  /**
   * The 32-byte key that wraps every thread key in the file (AES-256-GCM): the file alone
   * decrypts nothing. Keep it outside the file and the database (an environment secret).
   */
  readonly masterKey: Uint8Array;
}

/** The file: thread id → version → the wrapped key. */
type KeyFile = Record<string, Record<string, string>>;

/**
 * A key provider that keeps thread keys in one JSON file, each wrapped with a master key: for
 * small apps on one server. The file is read when first needed, and read again when a key is
 * asked for that the copy read lacks and the file has changed since (so a reader, such as
 * `chunklog inspect`, sees the keys the app made after it started). It is rewritten whole
 * (written to a temporary file, flushed, then renamed over it) on every change, so a destroyed
 * key is gone from the file when `destroyKey` resolves (not from copies of the file: do not
 * back it up with the database). Each change is made under a lock file (`<path>.lock`) on the
 * file as it is then, so several processes (a cluster of workers, `chunklog import` beside the
 * app) may share one key file; a lock file older than 10 s is taken as left by a dead process.
 *
 * @param options - the file and the master key
 * @returns the provider
 * @throws {ChunklogError} `invalid-option` naming the option: an unknown option, a `path` that
 *   is not a file path, a `masterKey` that is not 32 bytes or is all zeros
 *
 * @example
 * ```ts
 * import { createChunkStore, createFileKeyProvider } from 'chunklog/store';
 *
 * const keys = createFileKeyProvider({
 *   path: './chat-keys.json',
 *   masterKey: Buffer.from(process.env.CHAT_MASTER_KEY ?? '', 'base64'),
 * });
 * const store = createChunkStore({ sqlite: './chat.db' }, { encryption: { keys } });
 * ```
 */
export function createFileKeyProvider(options: FileKeyProviderOptions): ThreadKeyProvider {
  const o = readOptions(options, 'createFileKeyProvider', ['path', 'masterKey']);
  const path = o.path;
  if (typeof path !== 'string' || path === '') {
    throw new ChunklogError(
      'invalid-option',
      'createFileKeyProvider: `path` must be a file path.',
      {
        option: 'path',
        value: path,
      },
    );
  }
  const master = o.masterKey;
  if (!(master instanceof Uint8Array) || master.length !== KEY_BYTES) {
    throw new ChunklogError(
      'invalid-option',
      `createFileKeyProvider: \`masterKey\` must be ${KEY_BYTES} bytes.`,
      { option: 'masterKey' },
    );
  }
  if (master.every((byte) => byte === 0)) {
    throw new ChunklogError(
      'invalid-option',
      `createFileKeyProvider: \`masterKey\` is all zeros, which is likely a misconfiguration (an empty buffer, or a secret that was not read); give ${KEY_BYTES} random bytes.`,
      { option: 'masterKey' },
    );
  }
  const wrapping: ThreadKey = { version: 1, key: Uint8Array.from(master) };
  const fs = (
    globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }
  ).process?.getBuiltinModule?.('node:fs') as NodeFs | undefined;
  if (fs === undefined) {
    throw new ChunklogError('invalid-option', 'createFileKeyProvider needs Node.js (node:fs).', {
      option: 'path',
    });
  }
  let file: KeyFile | undefined;
  /** The file as it was when read (its inode, size and modification time); '' when absent. */
  let readStamp = '';
  let queue: Promise<unknown> = Promise.resolve();
  const aad = (threadId: string, version: number) =>
    `chunklog/thread-key\u0000${threadId}\u0000${version}`;
  const stamp = (): string => {
    const stat = fs.statSync(path, { throwIfNoEntry: false });
    return stat === undefined ? '' : `${stat.ino}:${stat.size}:${stat.mtimeMs}`;
  };
  const load = (): KeyFile => {
    if (file !== undefined) return file;
    // Stamped before reading: a change made during the read is seen at the next miss.
    readStamp = stamp();
    try {
      file = JSON.parse(fs.readFileSync(path, 'utf8')) as KeyFile;
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'ENOENT') throw error;
      file = {};
    }
    return file;
  };
  /** The copy read, read again first when the file changed since (another process wrote it). */
  const reloaded = (): KeyFile => {
    if (file !== undefined && stamp() !== readStamp) file = undefined;
    return load();
  };
  const save = (next: KeyFile) => {
    const temp = `${path}.${Math.random().toString(36).slice(2)}.tmp`;
    fs.writeFileSync(temp, JSON.stringify(next), { mode: 0o600 });
    const fd = fs.openSync(temp, 'r');
    try {
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(temp, path);
    file = next;
    readStamp = stamp();
  };
  const unwrap = (threadId: string, version: number, wrapped: string): ThreadKey => {
    const text = open(wrapping, aad(threadId, version), wrapped);
    if (text === undefined) {
      throw new ChunklogError(
        'invalid-option',
        `createFileKeyProvider: key ${version} of thread ${JSON.stringify(threadId)} in ${path} does not open with this master key.`,
        { option: 'masterKey', threadId },
      );
    }
    return { version, key: Uint8Array.from(atob(text), (c) => c.charCodeAt(0)) };
  };
  /**
   * Throws the `masterKey` error unless this master key opens a key the file holds already (any
   * one): a new key wrapped with another master key would leave the file under two of them.
   */
  const opensWithThisMaster = (current: KeyFile): void => {
    for (const [threadId, keys] of Object.entries(current)) {
      for (const [version, wrapped] of Object.entries(keys)) {
        unwrap(threadId, Number(version), wrapped);
        return;
      }
    }
  };
  /**
   * Runs changes one after another, each under the key file's lock (`<path>.lock`) and on the
   * file as it is then, so that no two, of this process or another, rewrite it from one copy.
   */
  const serial = <T>(work: () => T): Promise<T> => {
    const locked = () =>
      withFileLock(fs, `${path}.lock`, () => {
        file = undefined;
        return work();
      });
    const next = queue.then(locked);
    queue = next.catch(() => undefined);
    return next;
  };
  return {
    async getKey(threadId, version) {
      // Read again when another process changed the file since (one stat): a key it made, a
      // rotation's newer key, or the keys an erasure destroyed, which this copy must not keep.
      const keys = reloaded()[threadId];
      if (keys === undefined) return undefined;
      const wanted = version ?? Math.max(...Object.keys(keys).map(Number));
      const wrapped = keys[String(wanted)];
      return wrapped === undefined ? undefined : unwrap(threadId, wanted, wrapped);
    },
    createKey(threadId) {
      return serial(() => {
        const current = load();
        opensWithThisMaster(current);
        const keys = current[threadId] ?? {};
        const version = Math.max(0, ...Object.keys(keys).map(Number)) + 1;
        const key = randomKeyBytes(KEY_BYTES);
        const text = btoa(String.fromCharCode(...key));
        const wrapped = seal(wrapping, aad(threadId, version), text);
        save({ ...current, [threadId]: { ...keys, [String(version)]: wrapped } });
        return { version, key };
      });
    },
    destroyKey(threadId, version) {
      return serial(() => {
        const current = load();
        const keys = current[threadId];
        if (keys === undefined) return;
        const next: KeyFile = { ...current };
        const kept = { ...keys };
        if (version === undefined) delete next[threadId];
        else {
          delete kept[String(version)];
          if (Object.keys(kept).length === 0) delete next[threadId];
          else next[threadId] = kept;
        }
        save(next);
      });
    },
  };
}
