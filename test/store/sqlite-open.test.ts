// A SQLite file the store cannot open fails with `store-failed` naming the path and the reason,
// and the same store works once the cause is removed.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ChunklogError } from '../../src/errors/index.js';
import { createChunkStore } from '../../src/store/index.js';

const root = mkdtempSync(join(tmpdir(), 'chunklog-sqlite-open-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

async function migrateError(path: string): Promise<ChunklogError> {
  const store = createChunkStore({ sqlite: path });
  try {
    await store.migrate();
  } catch (error) {
    if (ChunklogError.isInstance(error)) return error;
    throw error;
  } finally {
    await store.close();
  }
  throw new Error(`expected migrate() on ${path} to fail`);
}

describe('opening a SQLite file', () => {
  it('names the path and says the file is not a database', async () => {
    const path = join(root, 'notes.txt');
    writeFileSync(path, 'these are notes, not a database; '.repeat(200));
    const error = await migrateError(path);
    expect(error.code).toBe('store-failed');
    expect(error.message).toContain(JSON.stringify(path));
    expect(error.message).toContain('not a SQLite database');
  });

  it('names the path and says it is a folder', async () => {
    const path = join(root, 'a-folder');
    mkdirSync(path);
    const error = await migrateError(path);
    expect(error.code).toBe('store-failed');
    expect(error.message).toContain(JSON.stringify(path));
    expect(error.message).toContain('is a folder');
  });

  it('names the path when a part of it is a file', async () => {
    const file = join(root, 'plain-file');
    writeFileSync(file, 'x');
    const path = join(file, 'chat.db');
    const error = await migrateError(path);
    expect(error.code).toBe('store-failed');
    expect(error.message).toContain(JSON.stringify(path));
    expect(error.message).toContain('is a file, not a folder');
  });

  it('opens on the next call once the cause is gone, losing nothing', async () => {
    const path = join(root, 'fixed.db');
    writeFileSync(path, 'not a database '.repeat(100));
    const store = createChunkStore({ sqlite: path });
    await expect(store.migrate()).rejects.toMatchObject({ code: 'store-failed' });
    rmSync(path);
    await store.migrate();
    await store.createThread('t');
    expect((await store.listThreads()).threads.map((t) => t.id)).toEqual(['t']);
    await store.close();
  });
});
