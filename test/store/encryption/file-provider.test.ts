// The file key provider read by one process while another writes the file (`chunklog inspect`
// beside a running app): a key the reader's copy lacks is looked up again in the file.
import { execFile } from 'node:child_process';
import fs, { mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { createChunkStore, createFileKeyProvider } from '../../../src/store/index.js';

const dir = mkdtempSync(join(tmpdir(), 'chunklog-file-keys-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const masterKey = new Uint8Array(32).fill(9);
let files = 0;
const newPath = () => join(dir, `keys-${files++}.json`);

describe('createFileKeyProvider with another master key than the file’s', () => {
  it('makes no key for a new thread: the file is never under two master keys', async () => {
    const path = newPath();
    await createFileKeyProvider({ path, masterKey }).createKey('thread-1');
    const before = readFileSync(path, 'utf8');
    const wrong = createFileKeyProvider({ path, masterKey: new Uint8Array(32).fill(7) });
    await expect(wrong.createKey('thread-2')).rejects.toMatchObject({
      code: 'invalid-option',
      option: 'masterKey',
    });
    expect(readFileSync(path, 'utf8')).toBe(before);
    // A new file takes any master key.
    await expect(wrong.getKey('thread-2')).resolves.toBeUndefined();
    const fresh = createFileKeyProvider({ path: newPath(), masterKey: new Uint8Array(32).fill(7) });
    await expect(fresh.createKey('thread-2')).resolves.toMatchObject({ version: 1 });
  });
});

describe('createFileKeyProvider read while another provider writes the file', () => {
  it('finds a thread, and a version, made after its copy was read', async () => {
    const path = newPath();
    const writer = createFileKeyProvider({ path, masterKey });
    const first = await writer.createKey('thread-1');
    const reader = createFileKeyProvider({ path, masterKey });
    expect((await reader.getKey('thread-1'))?.key).toEqual(first.key);

    const other = await writer.createKey('thread-2');
    const second = await writer.createKey('thread-1');
    expect((await reader.getKey('thread-2'))?.key).toEqual(other.key);
    expect((await reader.getKey('thread-1', 2))?.key).toEqual(second.key);
    expect(await reader.getKey('thread-3')).toBeUndefined();
  });

  it('reads the file again only when it changed: not for a key it lacks, nor after its own write', async () => {
    const path = newPath();
    const provider = createFileKeyProvider({ path, masterKey });
    await provider.createKey('thread-1');
    const other = createFileKeyProvider({ path, masterKey });
    await other.getKey('thread-1'); // its copy is read here, before the count
    const reads = vi.spyOn(fs, 'readFileSync');
    const readsOfFile = () => reads.mock.calls.filter(([p]) => p === path).length;
    try {
      expect(await provider.getKey('missing')).toBeUndefined();
      expect(await provider.getKey('thread-1', 7)).toBeUndefined();
      expect(readsOfFile()).toBe(0);
      // A change reads the file as it is, under the lock: once.
      await provider.createKey('thread-2');
      expect(readsOfFile()).toBe(1);
      expect(await provider.getKey('thread-2')).toBeDefined();
      expect(await provider.getKey('missing')).toBeUndefined();
      expect(readsOfFile()).toBe(1);

      await other.createKey('thread-3');
      const before = readsOfFile();
      expect(await provider.getKey('thread-3')).toBeDefined();
      expect(readsOfFile()).toBe(before + 1);
    } finally {
      reads.mockRestore();
    }
  });

  it("gives up a key another provider destroyed, and gives a rotation's newer key as the newest", async () => {
    const path = newPath();
    const writer = createFileKeyProvider({ path, masterKey });
    await writer.createKey('thread-1');
    const reader = createFileKeyProvider({ path, masterKey });
    expect((await reader.getKey('thread-1'))?.version).toBe(1);
    // A rotation elsewhere: a newer key, the old one destroyed.
    const rotated = await writer.createKey('thread-1');
    await writer.destroyKey('thread-1', 1);
    expect(await reader.getKey('thread-1')).toEqual(rotated);
    expect(await reader.getKey('thread-1', 1)).toBeUndefined();
    // An erasure elsewhere: no key of the thread is left in the reader's copy either.
    await writer.destroyKey('thread-1');
    expect(await reader.getKey('thread-1')).toBeUndefined();
    expect(await reader.getKey('thread-1', 2)).toBeUndefined();
  });

  it("lets two stores with a provider each write on through the other one's rotation and erasure", async () => {
    const path = newPath();
    const database = join(dir, `store-${files}-shared.db`);
    const open = () =>
      createChunkStore(
        { sqlite: database },
        { encryption: { keys: createFileKeyProvider({ path, masterKey }) } },
      );
    const [a, b] = [open(), open()];
    await a.migrate();
    const turn = (turnId: string) => [
      { turnId, step: 0, role: 'user' as const, type: 'text' as const, data: { text: turnId } },
    ];
    await a.appendTurn('shared', turn('by-a'));
    expect((await b.getRows('shared')).length).toBe(1);
    await a.rotateThreadKey('shared');
    await b.appendTurn('shared', turn('by-b-after-rotation'));
    await a.eraseThread('shared');
    await b.appendTurn('shared', turn('by-b-after-erasure'));
    for (const store of [a, b, open()]) {
      expect((await store.getRows('shared')).map((r) => r.turnId)).toEqual(['by-b-after-erasure']);
    }
    await a.close();
    await b.close();
  });

  it('lets a reading store open a thread another store encrypted after the reader started', async () => {
    const path = newPath();
    const database = join(dir, `store-${files}.db`);
    const app = createChunkStore(
      { sqlite: database },
      { encryption: { keys: createFileKeyProvider({ path, masterKey }) } },
    );
    await app.migrate();
    await app.appendTurn('early', [
      { turnId: 'turn-1', step: 0, role: 'user', type: 'text', data: { text: 'early' } },
    ]);
    const inspector = createChunkStore(
      { sqlite: database },
      { encryption: { keys: createFileKeyProvider({ path, masterKey }) } },
    );
    expect((await inspector.getRows('early')).map((r) => r.data)).toEqual([{ text: 'early' }]);

    await app.appendTurn('late', [
      { turnId: 'turn-1', step: 0, role: 'user', type: 'text', data: { text: 'late' } },
    ]);
    expect((await inspector.getRows('late')).map((r) => r.data)).toEqual([{ text: 'late' }]);
    await inspector.close();
    await app.close();
  });
});

describe('createFileKeyProvider written by several processes', () => {
  it('makes a key from the file as it is, not from a copy read before another process wrote', async () => {
    const path = newPath();
    const app = createFileKeyProvider({ path, masterKey });
    const importer = createFileKeyProvider({ path, masterKey });
    expect(await importer.getKey('anything')).toBeUndefined(); // its copy: an empty file
    const appKey = await app.createKey('app-thread');
    await importer.createKey('imported-thread');
    expect(Object.keys(JSON.parse(readFileSync(path, 'utf8'))).sort()).toEqual([
      'app-thread',
      'imported-thread',
    ]);
    expect((await createFileKeyProvider({ path, masterKey }).getKey('app-thread'))?.key).toEqual(
      appKey.key,
    );
    // A destroyed key is not written back by a process whose copy still held it.
    await importer.destroyKey('imported-thread');
    await app.createKey('second-app-thread');
    expect(Object.keys(JSON.parse(readFileSync(path, 'utf8'))).sort()).toEqual([
      'app-thread',
      'second-app-thread',
    ]);
  });

  it('waits for a lock file another process holds, and takes one left by a dead process', async () => {
    const path = newPath();
    const provider = createFileKeyProvider({ path, masterKey });
    writeFileSync(`${path}.lock`, '');
    let made = false;
    const making = provider.createKey('t').then(() => {
      made = true;
    });
    for (let i = 0; i < 20; i++) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(made).toBe(false);
    expect(fs.existsSync(path)).toBe(false);
    rmSync(`${path}.lock`);
    await making;
    expect(fs.existsSync(`${path}.lock`)).toBe(false);

    writeFileSync(`${path}.lock`, '');
    const old = new Date(Date.now() - 60_000);
    utimesSync(`${path}.lock`, old, old);
    await provider.createKey('u');
    expect(Object.keys(JSON.parse(readFileSync(path, 'utf8'))).sort()).toEqual(['t', 'u']);
  });

  it('keeps every key four processes make at once', async () => {
    const path = newPath();
    const worker = join(dir, 'make-keys.mts');
    const source = new URL('../../../src/store/index.ts', import.meta.url).href;
    writeFileSync(
      worker,
      [
        `import { createFileKeyProvider } from ${JSON.stringify(source)};`,
        'const [path, name] = process.argv.slice(2);',
        'const keys = createFileKeyProvider({ path, masterKey: new Uint8Array(32).fill(9) });',
        "for (let i = 0; i < 15; i++) await keys.createKey(name + '-' + i);",
      ].join('\n'),
    );
    const run = promisify(execFile);
    await Promise.all(
      ['a', 'b', 'c', 'd'].map((name) =>
        run(process.execPath, ['--import', 'tsx', worker, path, name], { cwd: process.cwd() }),
      ),
    );
    const threads = Object.keys(JSON.parse(readFileSync(path, 'utf8')));
    expect(threads).toHaveLength(60);
    const reader = createFileKeyProvider({ path, masterKey });
    for (const thread of threads) expect((await reader.getKey(thread))?.version).toBe(1);
  }, 120_000);
});
