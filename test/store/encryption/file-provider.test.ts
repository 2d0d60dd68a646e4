// The file key provider read by one process while another writes the file (`chunklog inspect`
// beside a running app): a key the reader's copy lacks is looked up again in the file.
import fs, { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { createChunkStore, createFileKeyProvider } from '../../../src/store/index.js';

const dir = mkdtempSync(join(tmpdir(), 'chunklog-file-keys-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const masterKey = new Uint8Array(32).fill(9);
let files = 0;
const newPath = () => join(dir, `keys-${files++}.json`);

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
    try {
      expect(await provider.getKey('missing')).toBeUndefined();
      expect(await provider.getKey('thread-1', 7)).toBeUndefined();
      await provider.createKey('thread-2');
      expect(await provider.getKey('thread-2')).toBeDefined();
      expect(await provider.getKey('missing')).toBeUndefined();
      expect(reads.mock.calls.filter(([p]) => p === path)).toHaveLength(0);

      await other.createKey('thread-3');
      expect(await provider.getKey('thread-3')).toBeDefined();
      expect(reads.mock.calls.filter(([p]) => p === path)).toHaveLength(1);
    } finally {
      reads.mockRestore();
    }
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
