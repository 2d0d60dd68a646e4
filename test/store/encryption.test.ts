// Encryption at rest (issue 34, notes/0087): no marker written to an encrypted store appears in
// its SQLite file and WAL, `pg_dump` or `mariadb-dump`; a row whose ciphertext, tag, seq or
// thread id was changed is `corrupt-row`; `eraseThread` leaves a backup taken before it
// undecryptable (the test keeps the backup and tries); clear rows of a store that turned
// encryption on later are still read.
import { createDecipheriv } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ChunklogError } from '../../src/errors/index.js';
import type { ChunkRowDraft } from '../../src/schema/index.js';
import {
  type ChunkStore,
  createMemoryKeyProvider,
  type MemoryKeyProvider,
  type ThreadKeyProvider,
} from '../../src/store/index.js';
import { availableDialects, createHarness, type DialectHarness } from './support/dialects.js';
import { type DumpedRow, takeDump } from './support/dumps.js';
import { heldKeys } from './support/held-keys.js';

const dir = mkdtempSync(join(tmpdir(), 'chunklog-enc-'));
const harnesses: DialectHarness[] = [];
afterAll(async () => {
  for (const h of harnesses) await h.dispose();
  rmSync(dir, { recursive: true, force: true });
});

/** A turn whose every content string holds `marker`. */
function markedTurn(turnId: string, marker: string): ChunkRowDraft[] {
  return [
    { turnId, step: 0, role: 'user', type: 'text', data: { text: `hello ${marker}` } },
    { turnId, step: 0, role: 'assistant', type: 'thinking', data: { text: `think ${marker}` } },
    {
      turnId,
      step: 0,
      role: 'assistant',
      type: 'tool_call',
      data: { id: 'c1', name: 'look', index: 0, input: { q: marker } },
    },
    {
      turnId,
      step: 0,
      role: 'tool',
      type: 'tool_result',
      data: { callId: 'c1', name: 'look', result: `found ${marker}` },
    },
    { turnId, step: 1, role: 'assistant', type: 'text', data: { text: `answer ${marker}` } },
  ];
}

/** Decrypts a backed-up row's data with `keys`, as an attacker holding the backup would. */
async function decryptDumped(row: DumpedRow, keys: ThreadKeyProvider): Promise<string | undefined> {
  const found = /ck1\.(\d+)\.([A-Za-z0-9+/=]+)/.exec(row.data);
  if (found === null) return undefined;
  const key = await keys.getKey(row.threadId, Number(found[1]));
  if (key === undefined) return undefined;
  const all = Buffer.from(found[2] as string, 'base64');
  const decipher = createDecipheriv('aes-256-gcm', key.key, all.subarray(0, 12));
  decipher.setAAD(Buffer.from(`chunklog/row\u0000${row.threadId}\u0000${row.seq}`));
  decipher.setAuthTag(all.subarray(all.length - 16));
  return Buffer.concat([
    decipher.update(all.subarray(12, all.length - 16)),
    decipher.final(),
  ]).toString();
}

async function expectCode(promise: Promise<unknown>, code: string): Promise<ChunklogError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(ChunklogError.isInstance(error), String(error)).toBe(true);
  expect((error as ChunklogError).code).toBe(code);
  return error as ChunklogError;
}

const available = await availableDialects();

describe.each(['sqlite', 'postgres', 'mysql'] as const)('encryption at rest on %s', (name) => {
  const skip = !available.includes(name);
  let harness: DialectHarness;
  let keys: MemoryKeyProvider;
  let store: ChunkStore;
  const open = async (options = {}) => {
    const s = harness.openStore({ encryption: { keys }, snapshotMinRows: 2, ...options });
    await s.migrate();
    return s;
  };
  /** A new database holding thread `old` as a store without encryption wrote it (5 rows). */
  const setUpClearThread = async () => {
    harness = createHarness(name);
    harnesses.push(harness);
    keys = createMemoryKeyProvider();
    const plain = harness.openStore({});
    await plain.migrate();
    await plain.createThread('old', { metadata: { a: 1 }, title: 'clear' });
    await plain.appendTurn('old', markedTurn('t1', 'clear'));
    await plain.close();
  };
  const setUp = async () => {
    harness = createHarness(name);
    harnesses.push(harness);
    keys = createMemoryKeyProvider();
    store = await open();
  };

  it.skipIf(skip)(
    'no marker reaches the database, its WAL or a dump; reads give it back',
    async () => {
      await setUp();
      const markers = ['MARKER-ALPHA-7f3e', 'MARKER-BRAVO-91ac', 'MARKER-CHARLIE-0b5d'];
      for (const [i, marker] of markers.entries()) {
        const id = `thread-${i}`;
        await store.createThread(id, { metadata: { note: marker }, title: `Title ${marker}` });
        await store.appendTurn(id, markedTurn('t1', marker));
        await store.beginTurn(id, markedTurn('t2', marker).slice(0, 1));
        await store.appendSteps(id, 't2', markedTurn('t2', marker).slice(1), {
          status: 'completed',
        });
        await store.updateThread(id, { metadata: { note: `${marker}!` } });
        await store.writeHistorySnapshot(id);
      }
      const forked = await store.forkThread('thread-0', { atSeq: 5, newThreadId: 'fork-0' });
      expect(forked.title).toBe(`Title ${markers[0]}`);

      const states = await harness.raw
        .selectFrom(store.tables.historyStates)
        .select('data')
        .execute();
      expect(states.length).toBeGreaterThanOrEqual(3);
      const dump = takeDump(harness, store, join(dir, `${name}-1.db`));
      // 3 threads of 10 rows; the fork copies none (it reads thread-0's rows by reference).
      expect(dump.rows.length).toBe(30);
      for (const marker of [...markers, 'MARKER']) expect(dump.text).not.toContain(marker);
      // The dump holds the rows, sealed: the key opens them (the search above could have failed).
      const opened = await decryptDumped(dump.rows[0] as DumpedRow, keys);
      expect(opened).toContain('MARKER');

      const thread = await store.getThread('thread-1');
      expect(thread.metadata).toEqual({ note: `${markers[1]}!` });
      expect(thread.title).toBe(`Title ${markers[1]}`);
      const page = await store.getChunks('thread-1', { limit: 50 });
      expect(page.chunks.map((r) => r.data)).toEqual(
        [...markedTurn('t1', markers[1] as string), ...markedTurn('t2', markers[1] as string)].map(
          (d) => d.data,
        ),
      );
      const history = await store.getHistory('thread-2');
      expect(JSON.stringify(history)).toContain(markers[2]);
      const fork = await store.getRows('fork-0');
      expect(fork.map((r) => r.data)).toEqual(
        markedTurn('t1', markers[0] as string).map((d) => d.data),
      );
      expect((await store.listThreads()).threads.map((t) => t.title).sort()).toContain(
        `Title ${markers[2]}`,
      );
      await store.close();
    },
  );

  it.skipIf(skip)(
    'a changed ciphertext, tag, seq or thread id is corrupt-row naming the row',
    async () => {
      await setUp();
      await store.appendTurn('a', markedTurn('t1', 'one'));
      await store.appendTurn('b', markedTurn('t1', 'two'));
      const raw = harness.raw;
      const chunks = store.tables.chunks;
      const dataOf = async (thread: string, seq: number) =>
        String(
          (
            await raw
              .selectFrom(chunks)
              .select('data')
              .where('thread_id', '=', thread)
              .where('seq', '=', seq)
              .executeTakeFirstOrThrow()
          ).data,
        );
      const setData = (thread: string, seq: number, data: string) =>
        raw
          .updateTable(chunks)
          .set({ data })
          .where('thread_id', '=', thread)
          .where('seq', '=', seq)
          .execute();
      const envelope = (text: string) => /ck1\.\d+\.[A-Za-z0-9+/=]+/.exec(text)?.[0] as string;
      const stored = (e: string) => JSON.stringify(e);
      const flip = (e: string, at: number) => {
        const [head, body] = [e.slice(0, e.lastIndexOf('.') + 1), e.slice(e.lastIndexOf('.') + 1)];
        const bytes = Buffer.from(body, 'base64');
        const i = at < 0 ? bytes.length + at : at;
        bytes[i] = (bytes[i] as number) ^ 1;
        return head + bytes.toString('base64');
      };
      const one = envelope(await dataOf('a', 1));
      // The ciphertext (byte 12 is the first after the IV), then the tag (the last byte).
      await setData('a', 1, stored(flip(one, 12)));
      let error = await expectCode(store.getChunks('a', { limit: 50 }), 'corrupt-row');
      expect([error.threadId, error.seq]).toEqual(['a', 1]);
      expect(error.message).toContain('does not verify');
      await setData('a', 1, stored(flip(one, -1)));
      error = await expectCode(store.getRows('a'), 'corrupt-row');
      expect(error.seq).toBe(1);
      await setData('a', 1, stored(one));
      expect((await store.getRows('a')).length).toBe(5);
      // Seq: row 2's sealed data put at seq 3 (a replay in the same thread).
      const three = await dataOf('a', 3);
      await setData('a', 3, stored(envelope(await dataOf('a', 2))));
      error = await expectCode(store.getTurn('a', 't1'), 'corrupt-row');
      expect(error.seq).toBe(3);
      const skipped = await store.getChunks('a', { limit: 50, onCorruptRow: 'skip' });
      expect(skipped.chunks.map((r) => r.seq)).toEqual([1, 2, 4, 5]);
      await setData('a', 3, stored(envelope(three)));
      // Thread id: thread a's row 1 moved into thread b at the same seq.
      await setData('b', 1, stored(one));
      error = await expectCode(store.getRows('b'), 'corrupt-row');
      expect([error.threadId, error.seq]).toEqual(['b', 1]);
      // The same rows read by a store without encryption are corrupt, and say why.
      const plain = harness.openStore({});
      error = await expectCode(plain.getRows('a'), 'corrupt-row');
      expect(error.message).toContain('without `encryption`');
      await plain.close();
      await store.close();
    },
  );

  it.skipIf(skip)(
    'a thread whose title is encrypted, read by a store without encryption, is corrupt-row saying why (never the envelope as its title)',
    async () => {
      await setUp();
      await store.createThread('x', { title: 'secret title' });
      const plain = harness.openStore({});
      const error = await expectCode(plain.getThread('x'), 'corrupt-row');
      expect(error.message).toContain('its title is encrypted');
      expect(error.message).toContain('without `encryption`');
      await expectCode(plain.listThreads(), 'corrupt-row');
      await plain.close();
      await store.close();
    },
  );

  it.skipIf(skip)(
    'listThreads follows onCorruptRow: a thread whose key is gone (a backup restored after eraseThread) fails the page, or is skipped and named, the others listed and paged past it',
    async () => {
      harness = createHarness(name);
      harnesses.push(harness);
      keys = createMemoryKeyProvider();
      let clock = Date.UTC(2026, 11, 1);
      store = await open({ now: () => (clock += 1000) });
      await store.createThread('first', { title: 'First' });
      await store.createThread('gone', { metadata: { m: 'MARKER-GONE' } });
      await store.createThread('last', { title: 'Last' });
      // As after restoring a backup taken before `eraseThread`: the rows are back, the keys not.
      await keys.destroyKey('gone');

      const failed = await expectCode(store.listThreads(), 'corrupt-row');
      expect(failed.threadId).toBe('gone');
      const page = await store.listThreads({ onCorruptRow: 'skip' });
      expect(page.threads.map((t) => t.id)).toEqual(['last', 'first']);
      expect(page.threads.map((t) => t.title)).toEqual(['Last', 'First']);
      expect(page.skipped?.map((s) => s.threadId)).toEqual(['gone']);
      const why = page.skipped?.[0]?.error as ChunklogError;
      expect(why).toMatchObject({ code: 'corrupt-row', threadId: 'gone' });
      expect(why.message).toContain(
        'its metadata is encrypted under a key the key provider does not have',
      );
      // One a page: the skipped thread's page is empty of threads and still leads on.
      const listed: string[] = [];
      const skipped: string[] = [];
      let before: string | undefined;
      for (;;) {
        const one = await store.listThreads({
          limit: 1,
          onCorruptRow: 'skip',
          ...(before ? { before } : {}),
        });
        listed.push(...one.threads.map((t) => t.id));
        skipped.push(...(one.skipped ?? []).map((s) => s.threadId));
        if (one.nextBefore === null) break;
        before = one.nextBefore;
      }
      expect(listed).toEqual(['last', 'first']);
      expect(skipped).toEqual(['gone']);
      // The store's own policy applies when the call gives none; a page with nothing skipped
      // has no `skipped`.
      const lenient = await open({ onCorruptRow: 'skip' });
      expect((await lenient.listThreads()).threads.map((t) => t.id)).toEqual(['last', 'first']);
      expect(await lenient.listThreads({ ownerId: 'nobody' })).toEqual({
        threads: [],
        hasMore: false,
        nextBefore: null,
      });
      await expectCode(lenient.listThreads({ onCorruptRow: 'throw' }), 'corrupt-row');
      await lenient.close();
      // A store opened without `encryption` skips every encrypted thread, saying why.
      const plain = harness.openStore({ onCorruptRow: 'skip' });
      const blind = await plain.listThreads();
      expect(blind.threads).toEqual([]);
      expect(blind.skipped?.map((s) => s.error.message.includes('without `encryption`'))).toEqual([
        true,
        true,
        true,
      ]);
      await plain.close();
      await store.close();
    },
  );

  it.skipIf(skip)('history states are stored encrypted, and read', async () => {
    await setUp();
    for (let t = 0; t < 3; t++) await store.appendTurn('h', markedTurn(`t${t}`, 'MARKER-STATE'));
    await store.writeHistorySnapshot('h');
    const states = await harness.raw
      .selectFrom(store.tables.historyStates)
      .select('data')
      .where('thread_id', '=', 'h')
      .execute();
    expect(states.length).toBeGreaterThan(0);
    for (const state of states) expect(String(state.data)).toMatch(/^ck1\.1\./);
    // With every row made unreadable, the history still reads whole: from the state.
    await harness.raw
      .updateTable(store.tables.chunks)
      .set({ data: JSON.stringify('ck1.1.AAAA') })
      .where('thread_id', '=', 'h')
      .execute();
    const history = await store.getHistory('h');
    expect(JSON.stringify(history.messages)).toContain('answer MARKER-STATE');
    await expectCode(store.getRows('h'), 'corrupt-row');
    await store.close();
  });

  it.skipIf(skip)('eraseThread: a backup taken before it no longer decrypts', async () => {
    await setUp();
    const marker = 'MARKER-ERASE-5c21';
    await store.createThread('gone', { metadata: { m: marker } });
    await store.appendTurn('gone', markedTurn('t1', marker));
    await store.recordUsage('gone', 't1', [{ step: 0, usage: { inputTokens: 3 } }]);
    await store.acquireLease('gone', 'worker-1', { ttlMs: 60_000 });
    await store.appendTurn('kept', markedTurn('t1', 'kept'));
    const before = takeDump(harness, store, join(dir, `${name}-erase.db`));
    const sealed = before.rows.filter((r) => r.threadId === 'gone');
    expect(sealed.length).toBe(5);
    for (const row of sealed) expect(await decryptDumped(row, keys)).toContain(marker);

    expect(await store.eraseThread('gone')).toBe(true);
    expect(await store.eraseThread('gone')).toBe(false);
    await expectCode(store.getThread('gone'), 'thread-not-found');
    for (const row of sealed) expect(await decryptDumped(row, keys)).toBeUndefined();
    expect(await keys.getKey('gone')).toBeUndefined();
    const after = takeDump(harness, store, join(dir, `${name}-erase-after.db`));
    expect(after.rows.filter((r) => r.threadId === 'gone')).toEqual([]);
    for (const table of Object.values(store.tables)) {
      if (table.endsWith('migrations') || table.endsWith('migration_lock')) continue;
      const column = table === store.tables.threads ? 'id' : 'thread_id';
      const left = await harness.raw
        .selectFrom(table)
        .select(column)
        .where(column, '=', 'gone')
        .execute();
      expect(left, table).toEqual([]);
    }
    expect((await store.getRows('kept')).length).toBe(5);
    await store.close();
  });

  it.skipIf(skip)('rows stored before encryption was turned on are still read', async () => {
    await setUpClearThread();
    store = await open();
    await store.appendTurn('old', markedTurn('t2', 'sealed'));
    const rows = await store.getRows('old');
    expect(rows.map((r) => r.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(JSON.stringify(rows[9]?.data)).toContain('sealed');
    const thread = await store.getThread('old');
    expect([thread.title, thread.metadata]).toEqual(['clear', { a: 1 }]);
    await store.close();
  });

  it.skipIf(skip)(
    'with requireEncrypted, what is stored in clear is refused: rows read as corrupt (or are skipped), a clear title fails, a rotation leaves clear rows and counts them',
    async () => {
      await setUpClearThread();
      const strict = { encryption: { keys, requireEncrypted: true } };
      store = await open(strict);
      await store.appendTurn('old', markedTurn('t2', 'sealed'));
      const refused = await expectCode(store.getRows('old'), 'corrupt-row');
      expect(refused.message).toMatch(/^Row 1 of thread "old" is corrupt: it is stored in clear/);
      expect(refused.message).toContain('encryption.requireEncrypted');
      const title = await expectCode(store.getThread('old'), 'corrupt-row');
      expect(title.message).toContain('stored in clear');

      const skipping = await open({ ...strict, onCorruptRow: 'skip' });
      const sealed = await skipping.getRows('old');
      expect(sealed.map((r) => r.seq)).toEqual([6, 7, 8, 9, 10]);
      expect(sealed.every((r) => r.turnId === 't2')).toBe(true);
      await skipping.updateThread('old', { title: 'sealed title', metadata: { b: 2 } });
      const thread = await skipping.getThread('old');
      expect([thread.title, thread.metadata]).toEqual(['sealed title', { b: 2 }]);
      // A clear row is not laundered into an encrypted one: left as it is, and counted.
      expect(await skipping.rotateThreadKey('old')).toEqual({ version: 2, rows: 5, unreadable: 5 });
      expect((await skipping.getRows('old')).map((r) => r.seq)).toEqual([6, 7, 8, 9, 10]);
      await skipping.close();
      await store.close();
    },
  );

  it.skipIf(skip)(
    "with requireEncrypted, a fork's pages, forward pages and rows read its parent's rows (each opened once)",
    async () => {
      await setUp();
      const strict = await open({ encryption: { keys, requireEncrypted: true } });
      await strict.appendTurn('p', markedTurn('t1', 'parent'));
      const fork = await strict.forkThread('p', { atSeq: 5, newThreadId: 'f' });
      await strict.appendTurn(fork.id, markedTurn('t2', 'fork'));
      const seqs = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
      const page = await strict.getChunks('f', { limit: 10 });
      expect(page.chunks.map((r) => r.seq)).toEqual(seqs);
      expect(JSON.stringify(page.chunks[0]?.data)).toContain('parent');
      const forward = await strict.getChunksAfter('f', { limit: 10 });
      expect(forward.chunks.map((r) => r.seq)).toEqual(seqs);
      expect((await strict.getRows('f')).map((r) => r.seq)).toEqual(seqs);
      await strict.close();
      await store.close();
    },
  );
});

describe('the encryption option and key providers', () => {
  it('refuses an encryption option without a key provider', async () => {
    const { createChunkStore } = await import('../../src/store/index.js');
    for (const bad of [{}, { keys: {} }, { keys: { getKey() {} } }, null, 'yes']) {
      const error = (() => {
        try {
          createChunkStore({ sqlite: ':memory:' }, { encryption: bad as never });
        } catch (e) {
          return e as ChunklogError;
        }
      })();
      expect(error?.code).toBe('invalid-option');
      expect(error?.option).toBe('encryption');
    }
  });

  it('refuses a requireEncrypted that is not a boolean, and a misspelt option in encryption', async () => {
    const { createChunkStore } = await import('../../src/store/index.js');
    const keys = createMemoryKeyProvider();
    const refusal = (encryption: unknown) => {
      try {
        createChunkStore({ sqlite: ':memory:' }, { encryption: encryption as never });
      } catch (e) {
        return ChunklogError.isInstance(e) ? [e.code, e.option, e.message] : String(e);
      }
      return 'accepted';
    };
    expect(refusal({ keys, requireEncrypted: 'yes' })).toEqual([
      'invalid-option',
      'encryption.requireEncrypted',
      expect.stringContaining('must be a boolean'),
    ]);
    expect(refusal({ keys, requireEncryption: true })).toEqual([
      'invalid-option',
      'encryption.requireEncryption',
      expect.stringContaining('did you mean `encryption.requireEncrypted`'),
    ]);
    expect(refusal({ keys, requireEncrypted: false })).toBe('accepted');
  });

  it('refuses a key that is not 32 bytes, naming the thread', async () => {
    const { createChunkStore } = await import('../../src/store/index.js');
    const keys: ThreadKeyProvider = {
      getKey: async () => ({ version: 1, key: new Uint8Array(16) }),
      createKey: async () => ({ version: 1, key: new Uint8Array(16) }),
      destroyKey: async () => {},
    };
    const store = createChunkStore({ sqlite: ':memory:' }, { encryption: { keys } });
    await store.migrate();
    const error = await expectCode(store.appendTurn('t', markedTurn('t1', 'x')), 'invalid-option');
    expect(error.message).toContain('"t"');
    await store.close();
  });

  it('updateThread of a thread that does not exist is refused and makes it no key', async () => {
    const { createChunkStore } = await import('../../src/store/index.js');
    const keys = createMemoryKeyProvider();
    const store = createChunkStore({ sqlite: ':memory:' }, { encryption: { keys } });
    await store.migrate();
    await expectCode(store.updateThread('nope', { title: 'x' }), 'thread-not-found');
    expect(await keys.getKey('nope')).toBeUndefined();
    await store.close();
  });

  it('the memory provider keeps versions and destroys one or all', async () => {
    const keys = createMemoryKeyProvider();
    expect(await keys.getKey('a')).toBeUndefined();
    const one = await keys.createKey('a');
    const two = await keys.createKey('a');
    expect([one.version, two.version]).toEqual([1, 2]);
    expect((await keys.getKey('a'))?.version).toBe(2);
    expect((await keys.getKey('a', 1))?.key).toEqual(one.key);
    await keys.destroyKey('a', 2);
    expect((await keys.getKey('a'))?.version).toBe(1);
    const copy = createMemoryKeyProvider(keys.export());
    expect((await copy.getKey('a', 1))?.key).toEqual(one.key);
    await keys.destroyKey('a');
    expect(await keys.getKey('a', 1)).toBeUndefined();
    expect((await copy.getKey('a', 1))?.key).toEqual((await copy.getKey('a'))?.key);
  });

  it('the file provider keeps wrapped keys across instances, and destroys them', async () => {
    const { createFileKeyProvider } = await import('../../src/store/index.js');
    const path = join(dir, 'keys.json');
    const masterKey = new Uint8Array(32).fill(7);
    const keys = createFileKeyProvider({ path, masterKey });
    const made = await keys.createKey('thread-1');
    await keys.createKey('thread-2');
    const again = createFileKeyProvider({ path, masterKey });
    expect((await again.getKey('thread-1'))?.key).toEqual(made.key);
    const { readFileSync } = await import('node:fs');
    expect(readFileSync(path, 'utf8')).not.toContain(Buffer.from(made.key).toString('base64'));
    const wrong = createFileKeyProvider({ path, masterKey: new Uint8Array(32).fill(8) });
    await expectCode(wrong.getKey('thread-1'), 'invalid-option');
    await again.destroyKey('thread-1');
    const third = createFileKeyProvider({ path, masterKey });
    expect(await third.getKey('thread-1')).toBeUndefined();
    expect(await third.getKey('thread-2')).toBeDefined();
    expect(() => createFileKeyProvider({ path, masterKey: new Uint8Array(8) })).toThrow(
      /masterKey/,
    );
  });
});

describe.each(['sqlite', 'postgres', 'mysql'] as const)('an erasure on %s', (name) => {
  const lateWrites = [
    { write: 'appendTurn', run: (s: ChunkStore) => s.appendTurn('t', markedTurn('late', 'late')) },
    {
      write: 'beginTurn',
      run: (s: ChunkStore) => s.beginTurn('t', markedTurn('late', 'late').slice(0, 1)),
    },
  ];
  /** Runs `write` with its key fetched before `eraseThread`, runs `between` after the erasure, then lets the write commit; answers the thread's turn ids. */
  async function raceErasure(
    write: (s: ChunkStore) => Promise<unknown>,
    between: (s: ChunkStore) => Promise<unknown>,
  ): Promise<string[]> {
    const harness = createHarness(name);
    harnesses.push(harness);
    const { provider, hold } = heldKeys(createMemoryKeyProvider());
    const store = harness.openStore({ encryption: { keys: provider } });
    await store.migrate();
    await store.appendTurn('t', markedTurn('old', 'old'));
    const held = hold();
    const late = write(store);
    await held.fetched;
    expect(await store.eraseThread('t')).toBe(true);
    await between(store);
    held.release();
    await late;
    const rows = await store.getRows('t');
    await store.close();
    expect(rows.length).toBeGreaterThan(0);
    return [...new Set(rows.map((r) => r.turnId))];
  }

  it.skipIf(!available.includes(name)).each(lateWrites)(
    'races $write, which fetched the key before eraseThread and commits after it: the thread it makes again reads',
    async ({ run }) => {
      expect(await raceErasure(run, async () => {})).toEqual(['late']);
    },
  );

  it.skipIf(!available.includes(name)).each(lateWrites)(
    'races $write, which fetched the key before eraseThread, while another write makes the thread again: every row reads',
    async ({ run }) => {
      // The thread is made again, with a new key of the same version as the destroyed one.
      const again = (s: ChunkStore) => s.appendTurn('t', markedTurn('again', 'again'));
      expect(await raceErasure(run, again)).toEqual(['again', 'late']);
    },
  );
});
