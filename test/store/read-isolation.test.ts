// On the SQLite connection the store opens itself, reads and writes share one connection (through
// Kysely, the store's one query engine): a read inside a write's transaction would see its
// uncommitted rows. These tests start a read at every point of a turn's write and check that it
// sees the thread as it was before the turn or after it, never part of it.
import { afterEach, describe, expect, it } from 'vitest';
import type { ChunkRowDraft } from '../../src/schema/chunk-row.js';
import { type ChunkStore, createChunkStore } from '../../src/store/index.js';

const THREAD = 'direct';
const ROWS_PER_TURN = 4;

const drafts = (turn: number): ChunkRowDraft[] =>
  Array.from({ length: ROWS_PER_TURN }, (_, i) => ({
    turnId: `turn-${turn}`,
    step: 0,
    role: 'assistant' as const,
    type: 'text' as const,
    data: { text: `turn ${turn} row ${i}` },
  }));

/** Resolves after `n` turns of the microtask queue. */
async function microtasks(n: number): Promise<void> {
  for (let i = 0; i < n; i++) await Promise.resolve();
}

let store: ChunkStore | undefined;
afterEach(async () => {
  await store?.close();
  store = undefined;
});

describe('reads beside writes on the store’s own SQLite connection', () => {
  const reads = {
    getChunks: async (s: ChunkStore) => {
      const page = await s.getChunks(THREAD, { limit: 1000 });
      return { total: page.total, rows: page.chunks };
    },
    getChunksAfter: async (s: ChunkStore) => {
      const page = await s.getChunksAfter(THREAD, { limit: 1000 });
      return { total: page.total, rows: page.chunks };
    },
    getRows: async (s: ChunkStore) => {
      const rows = await s.getRows(THREAD);
      return { total: rows.length, rows };
    },
  };

  for (const [name, readThread] of Object.entries(reads)) {
    it(`${name} started at any point of a turn's write sees the thread before or after the turn, never part of it`, async () => {
      store = createChunkStore({ sqlite: ':memory:' });
      await store.migrate();
      await store.appendTurn(THREAD, drafts(0));
      // Far more microtask turns than a write takes, so that reads land before, inside and
      // after its transaction.
      for (let delay = 0; delay < 60; delay++) {
        const turn = delay + 1;
        const before = turn * ROWS_PER_TURN;
        const write = store.appendTurn(THREAD, drafts(turn));
        const read = microtasks(delay).then(() => readThread(store as ChunkStore));
        const [, got] = await Promise.all([write, read]);
        expect([before, before + ROWS_PER_TURN]).toContain(got.total);
        expect(got.rows).toHaveLength(got.total);
        expect(got.rows.map((r) => r.seq)).toEqual(
          Array.from({ length: got.total }, (_, i) => i + 1),
        );
      }
    });

    it(`${name} started at any point of a repeated turn's write never sees the rows it rolls back`, async () => {
      store = createChunkStore({ sqlite: ':memory:' });
      await store.migrate();
      await store.appendTurn(THREAD, drafts(0));
      await store.appendTurn(THREAD, drafts(1));
      for (let delay = 0; delay < 60; delay++) {
        // Turn 1 again: its rows are inserted, then found stored before, and rolled back.
        const write = store.appendTurn(THREAD, drafts(1));
        const read = microtasks(delay).then(() => readThread(store as ChunkStore));
        const [, got] = await Promise.all([write, read]);
        expect(got.total).toBe(2 * ROWS_PER_TURN);
        expect(got.rows.map((r) => r.seq)).toEqual(
          Array.from({ length: 2 * ROWS_PER_TURN }, (_, i) => i + 1),
        );
      }
    });
  }
});

describe('a whole-thread read longer than one decode batch', () => {
  // getRows reads the direct read in keyset pages of 1,000 rows in one read transaction, each
  // page decoded before the next is read.
  const TURNS = 700; // 2,800 rows: three batches, the last one partial
  const seed = async (s: ChunkStore) => {
    await s.migrate();
    for (let turn = 0; turn < TURNS; turn++) await s.appendTurn(THREAD, drafts(turn));
  };
  // A file, so that a second connection can corrupt rows under the store.
  const corruptSeqs = async (file: string, seqs: number[]) => {
    const { default: Database } = await import('better-sqlite3');
    const raw = new Database(file);
    const update = raw.prepare(
      'update chunklog_chunks set data = ? where thread_id = ? and seq = ?',
    );
    for (const seq of seqs) update.run(JSON.stringify({ text: seq }), THREAD, seq);
    raw.close();
  };

  it('getRows returns every row in seq order, each decoded as the paged reads decode it', async () => {
    store = createChunkStore({ sqlite: ':memory:' });
    await seed(store);
    const rows = await store.getRows(THREAD);
    expect(rows.map((r) => r.seq)).toEqual(
      Array.from({ length: TURNS * ROWS_PER_TURN }, (_, i) => i + 1),
    );
    const paged = [];
    for (let afterSeq = 0; ; ) {
      const page = await store.getChunksAfter(THREAD, { afterSeq, limit: 500 });
      paged.push(...page.chunks);
      if (!page.hasMore || page.newestSeq === null) break;
      afterSeq = page.newestSeq;
    }
    expect(rows).toEqual(paged);
    expect(rows[2799]).toMatchObject({ turnId: 'turn-699', data: { text: 'turn 699 row 3' } });
    expect((await store.getRows(THREAD, { afterSeq: 1999 })).map((r) => r.seq)).toEqual(
      Array.from({ length: 801 }, (_, i) => i + 2000),
    );
  });

  it('a corrupt row in a later batch fails the read naming its seq, or is the only row skipped', async () => {
    const { mkdtempSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const dir = mkdtempSync(join(tmpdir(), 'chunklog-batches-'));
    try {
      const file = join(dir, 'batches.db');
      store = createChunkStore({ sqlite: file });
      await seed(store);
      await corruptSeqs(file, [1500, 2800]);
      const error = await store.getRows(THREAD).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toMatchObject({ code: 'corrupt-row', threadId: THREAD, seq: 1500 });
      // The same read again, after the failed one ended its read transaction.
      const skipped = await store.getRows(THREAD, { onCorruptRow: 'skip' });
      expect(skipped).toHaveLength(TURNS * ROWS_PER_TURN - 2);
      expect(skipped.some((r) => r.seq === 1500 || r.seq === 2800)).toBe(false);
      expect(skipped[1498]?.seq).toBe(1499);
      expect(skipped[1499]?.seq).toBe(1501);
    } finally {
      await store?.close();
      store = undefined;
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
