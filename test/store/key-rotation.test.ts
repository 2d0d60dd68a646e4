// Key rotation (issue 34): a thread is re-encrypted under a new key in batches and its older keys
// destroyed, clear rows of a store that turned encryption on later included; a rotation killed
// (SIGKILL) at random points leaves every row readable and resumes under the same new key, ending
// with every row under the new key only.
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ChunklogError } from '../../src/errors/index.js';
import type { ChunkRowDraft } from '../../src/schema/index.js';
import {
  type ChunkStore,
  createChunkStore,
  createFileKeyProvider,
  createMemoryKeyProvider,
  type ThreadKeyProvider,
} from '../../src/store/index.js';
import { availableDialects, createHarness, type DialectHarness } from './support/dialects.js';

const dir = mkdtempSync(join(tmpdir(), 'chunklog-rotate-'));
const harnesses: DialectHarness[] = [];
afterAll(async () => {
  for (const h of harnesses) await h.dispose();
  rmSync(dir, { recursive: true, force: true });
});

function turn(turnId: string, rows: number): ChunkRowDraft[] {
  return Array.from({ length: rows }, (_, k) => ({
    turnId,
    step: 0,
    role: k === 0 ? 'user' : 'assistant',
    type: 'text',
    data: { text: `${turnId} row ${k}` },
  }));
}

/** The key versions the envelopes of a thread's stored rows name (null: a clear row). */
async function storedVersions(store: ChunkStore, raw: DialectHarness['raw'], threadId: string) {
  const records = await raw
    .selectFrom(store.tables.chunks)
    .select('data')
    .where('thread_id', '=', threadId)
    .execute();
  return new Set(
    records.map((r) => {
      const text = typeof r.data === 'string' ? r.data : JSON.stringify(r.data);
      const found = /ck1\.(\d+)\./.exec(text);
      return found === null ? null : Number(found[1]);
    }),
  );
}

const available = await availableDialects();

describe.each(['sqlite', 'postgres', 'mysql'] as const)('rotateThreadKey on %s', (name) => {
  it.skipIf(!available.includes(name))('re-encrypts every row under a new key', async () => {
    const harness = createHarness(name);
    harnesses.push(harness);
    const plain = harness.openStore({});
    await plain.migrate();
    await plain.createThread('t', { metadata: { a: 1 }, title: 'clear title' });
    await plain.appendTurn('t', turn('old', 4));
    await plain.close();
    const keys = createMemoryKeyProvider();
    const store = harness.openStore({ encryption: { keys } });
    await store.appendTurn('t', turn('new', 5));
    const before = await store.getRows('t');
    expect(await storedVersions(store, harness.raw, 't')).toEqual(new Set([null, 1]));

    expect(await store.rotateThreadKey('t', { batchRows: 3 })).toEqual({
      version: 2,
      rows: 9,
      unreadable: 0,
    });
    expect(await storedVersions(store, harness.raw, 't')).toEqual(new Set([2]));
    expect(await keys.getKey('t', 1)).toBeUndefined();
    expect(await store.getRows('t')).toEqual(before);
    const thread = await store.getThread('t');
    expect([thread.title, thread.metadata]).toEqual(['clear title', { a: 1 }]);
    const stored = await harness.raw
      .selectFrom(store.tables.threads)
      .select(['title'])
      .where('id', '=', 't')
      .executeTakeFirstOrThrow();
    expect(String(stored.title)).toMatch(/^ck1\.2\./);
    expect((await store.rotateThreadKey('t')).version).toBe(3);
    expect(await store.getRows('t')).toEqual(before);
    await store.close();
  });
});

describe('rotateThreadKey refuses', () => {
  it('a store without encryption, a bad batch size, a missing thread', async () => {
    const plain = createChunkStore({ sqlite: ':memory:' });
    await plain.migrate();
    await plain.appendTurn('t', turn('a', 1));
    const code = (p: Promise<unknown>) =>
      p.then(
        () => undefined,
        (e: unknown) => (ChunklogError.isInstance(e) ? [e.code, e.option] : String(e)),
      );
    expect(await code(plain.rotateThreadKey('t'))).toEqual(['invalid-option', 'encryption']);
    const store = createChunkStore(
      { sqlite: ':memory:' },
      { encryption: { keys: createMemoryKeyProvider() } },
    );
    await store.migrate();
    expect(await code(store.rotateThreadKey('t', { batchRows: 0 }))).toEqual([
      'invalid-option',
      'batchRows',
    ]);
    expect(await code(store.rotateThreadKey('missing'))).toEqual(['thread-not-found', undefined]);
    await plain.close();
    await store.close();
  });
});

describe('a rotation killed with SIGKILL', () => {
  it('resumes, and ends with every row readable under the new key only', async () => {
    const file = join(dir, 'crash.db');
    const keyFile = join(dir, 'crash-keys.json');
    const masterKey = new Uint8Array(32).fill(42);
    const provider = (): ThreadKeyProvider => createFileKeyProvider({ path: keyFile, masterKey });
    const open = async () => {
      const store = createChunkStore({ sqlite: file }, { encryption: { keys: provider() } });
      await store.migrate();
      return store;
    };
    const setup = await open();
    for (let t = 0; t < 60; t++) await setup.appendTurn('t', turn(`turn-${t}`, 50));
    const expected = await setup.getRows('t');
    await setup.close();

    let unfinished = 0;
    let attempts = 0;
    for (let finished = false; !finished; ) {
      attempts++;
      expect(attempts, 'the rotation never finished').toBeLessThan(40);
      const child = fork(
        join(import.meta.dirname, 'support', 'rotate-worker.ts'),
        [JSON.stringify({ file, keyFile, threadId: 't', batchRows: 10 })],
        { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] },
      );
      const exited = new Promise<unknown>((resolve) => child.on('exit', (c, s) => resolve(s ?? c)));
      let done = false;
      child.on('message', (m: { type: string }) => {
        if (m.type === 'ready' && attempts < 30) {
          setTimeout(() => child.kill('SIGKILL'), 20 + Math.floor(Math.random() * 200));
        }
        if (m.type === 'done') done = true;
      });
      const outcome = await exited;
      finished = done && outcome === 0;
      // Whatever point it was killed at, every row reads back as it was written.
      const check = await open();
      expect(await check.getRows('t')).toEqual(expected);
      await check.close();
      const keys = provider();
      const newest = await keys.getKey('t');
      if (!finished && newest !== undefined && newest.version > 1) {
        if ((await keys.getKey('t', newest.version - 1)) !== undefined) unfinished++;
      }
    }
    expect(unfinished, 'no kill landed inside a rotation').toBeGreaterThan(0);
    const keys = provider();
    const newest = await keys.getKey('t');
    expect(newest?.version).toBeGreaterThan(1);
    for (let v = 1; v < (newest?.version ?? 0); v++)
      expect(await keys.getKey('t', v)).toBeUndefined();
    const Database = (await import('better-sqlite3')).default;
    const db = new Database(file, { readonly: true });
    const versions = new Set(
      (
        db.prepare("select data from chunklog_chunks where thread_id = 't'").all() as {
          data: string;
        }[]
      ).map((r) => /ck1\.(\d+)\./.exec(r.data)?.[1]),
    );
    db.close();
    expect(versions).toEqual(new Set([String(newest?.version)]));
  }, 120_000);
});
