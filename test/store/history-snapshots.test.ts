// History snapshots (notes/0076): on the SQLite file the store opened itself, a whole-thread read
// reads a thread's older turns from grouped snapshots and only the rows after them. Every test
// compares against a second store on the same file with snapshots off, which reads every row:
// a snapshot may make a read faster, never different.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { modelMessagesOf } from '../../src/model-messages/to-model-messages.js';
import { type ChunkStore, createChunkStore } from '../../src/store/index.js';
import { groupRows } from '../../src/transforms/group-rows.js';
import { rejected, thrown } from '../support/chunklog-error.js';
import { type TurnSpec, threadArb } from '../transforms/arbitraries.js';
import { draftsOf, firstModelInput, snapshotTurn as turn } from './support/history-turns.js';

const T = 'thread';

let dir: string;
let file: string;
const opened: ChunkStore[] = [];
const raws: Database.Database[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'chunklog-snapshots-'));
  file = join(dir, 'chat.db');
});
afterEach(async () => {
  for (const store of opened.splice(0)) await store.close();
  for (const raw of raws.splice(0)) raw.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The store under test (snapshots after `minRows` rows), and one reading every row. */
async function stores(minRows: number): Promise<{
  store: ChunkStore;
  reference: ChunkStore;
  raw: Database.Database;
}> {
  const store = createChunkStore({ sqlite: file }, { snapshotMinRows: minRows });
  const reference = createChunkStore({ sqlite: file }, { snapshotMinRows: false });
  opened.push(store, reference);
  await store.migrate();
  const raw = new Database(file);
  raws.push(raw);
  return { store, reference, raw };
}

type Snap = { first_seq: number; last_seq: number; digest: string; data: string };
const snapshotsOf = (raw: Database.Database, threadId = T): Snap[] =>
  raw
    .prepare(
      'select first_seq, last_seq, digest, data from chunklog_snapshots where thread_id = ? order by first_seq',
    )
    .all(threadId) as Snap[];

/** The seq ranges of the thread's snapshots. */
const spansOf = (raw: Database.Database): number[][] =>
  snapshotsOf(raw).map((s) => [s.first_seq, s.last_seq]);

/** Appends turns `from` to `to - 1`. */
async function appendTurns(store: ChunkStore, from: number, to: number): Promise<void> {
  for (let n = from; n < to; n++) await store.appendTurn(T, turn(n));
}

/** Both stores give the same messages and model input, and the history read groups to them. */
async function expectSame(store: ChunkStore, reference: ChunkStore, threadId = T): Promise<void> {
  const expected = await reference.getMessages(threadId);
  const got = await store.getMessages(threadId);
  expect(JSON.stringify(got)).toBe(JSON.stringify(expected));
  expect(JSON.stringify(modelMessagesOf(got))).toBe(JSON.stringify(modelMessagesOf(expected)));
  const history = await store.getHistory(threadId);
  expect(JSON.stringify([...history.messages, ...groupRows(history.rows)])).toBe(
    JSON.stringify(groupRows(await reference.getRows(threadId))),
  );
}

describe('history snapshots', () => {
  it('a whole-thread read writes a snapshot of the whole turns before the last, and later reads use it', async () => {
    const { store, reference, raw } = await stores(20);
    await appendTurns(store, 0, 10);
    expect(snapshotsOf(raw)).toEqual([]);
    await expectSame(store, reference);
    const [snap, ...more] = snapshotsOf(raw);
    expect(more).toEqual([]);
    // Ten turns of 5 rows: the snapshot holds the first nine, the last turn stays rows.
    expect(snap).toMatchObject({ first_seq: 1, last_seq: 45 });
    const history = await store.getHistory(T);
    expect(history.turnIds).toEqual(Array.from({ length: 9 }, (_, n) => `turn-${n}`));
    expect(history.messages.map((m) => m.id)).toEqual(
      Array.from({ length: 9 }, (_, n) => [`turn-${n}:user`, `turn-${n}:assistant`]).flat(),
    );
    expect(history.rows.map((r) => r.seq)).toEqual([46, 47, 48, 49, 50]);
    // The next snapshot once 20 more rows of whole turns follow; chained after the first.
    await appendTurns(store, 10, 14);
    await expectSame(store, reference);
    expect(spansOf(raw)).toEqual([
      [1, 45],
      [46, 65],
    ]);
    await expectSame(store, reference);
  });

  it('a new process’s first read, the store’s first operation, reads and writes snapshots', async () => {
    const { store, reference } = await stores(10);
    await appendTurns(store, 0, 6);
    for (const first of [true, false]) {
      const fresh = createChunkStore({ sqlite: file }, { snapshotMinRows: 10 });
      opened.push(fresh);
      const history = await fresh.getHistory(T);
      // The first process writes the snapshot; the second reads it.
      expect(history.messages.length).toBe(first ? 0 : 10);
      expect(history.rows.length).toBe(first ? 30 : 5);
      await expectSame(fresh, reference);
    }
  });

  it('splits a long run of new turns into snapshots of at most 20 × snapshotMinRows rows, at turn boundaries', async () => {
    const { store, reference, raw } = await stores(3);
    await appendTurns(store, 0, 30);
    await expectSame(store, reference);
    expect(spansOf(raw)).toEqual([
      [1, 60],
      [61, 120],
      [121, 145],
    ]);
    await expectSame(store, reference);
  });

  it('writes none for fewer rows, with snapshotMinRows false, or from a read that skipped a corrupt row', async () => {
    const { store, raw } = await stores(20);
    await appendTurns(store, 0, 3);
    await store.getMessages(T);
    expect(snapshotsOf(raw)).toEqual([]);
    await appendTurns(store, 3, 10);
    raw.prepare("update chunklog_chunks set data = '{' where thread_id = ? and seq = 2").run(T);
    const skipped = await store.getMessages(T, { onCorruptRow: 'skip' });
    expect(skipped.length).toBeGreaterThan(0);
    expect(snapshotsOf(raw)).toEqual([]);
    expect((await rejected(store.getMessages(T))).code).toBe('corrupt-row');
    const off = createChunkStore({ sqlite: file }, { snapshotMinRows: false });
    opened.push(off);
    raw.prepare('delete from chunklog_chunks where thread_id = ? and seq = 2').run(T);
    await off.getMessages(T);
    expect(snapshotsOf(raw)).toEqual([]);
  });

  for (const [what, change] of [
    [
      'its JSON changed',
      "update chunklog_snapshots set data = replace(data, 'answer 3', 'answer X')",
    ],
    [
      'its digest changed',
      "update chunklog_snapshots set digest = replace(digest, substr(digest, 1, 1), 'g')",
    ],
    ['another format', 'update chunklog_snapshots set format = 2'],
    ['its last row replaced', "update chunklog_snapshots set last_turn_id = 'other'"],
    ['a gap before it', 'update chunklog_snapshots set first_seq = 2'],
  ] as const) {
    it(`a snapshot with ${what} is not used, and is replaced by a true one`, async () => {
      const { store, reference, raw } = await stores(20);
      await appendTurns(store, 0, 10);
      await store.getMessages(T);
      const [before] = snapshotsOf(raw);
      raw.exec(change);
      await expectSame(store, reference);
      expect(snapshotsOf(raw)).toEqual([before]);
      expect((await store.getHistory(T)).messages.length).toBe(18);
    });
  }

  it('truncateAfter deletes the snapshots it cuts into; rows stored again at the same seqs are read', async () => {
    const { store, reference, raw } = await stores(10);
    await appendTurns(store, 0, 6);
    await store.getMessages(T);
    expect(snapshotsOf(raw).map((s) => s.last_seq)).toEqual([25]);
    await store.truncateAfter(T, 25);
    expect(snapshotsOf(raw).map((s) => s.last_seq)).toEqual([25]);
    await store.truncateAfter(T, 24);
    expect(snapshotsOf(raw)).toEqual([]);
    await store.appendTurn(T, turn(99));
    await expectSame(store, reference);
    // A writer that knows nothing of snapshots (an older chunklog) truncates and writes again:
    // the snapshot's last row is no longer the one it was made from.
    await store.appendTurn(T, turn(100));
    await store.getMessages(T);
    const [snap] = snapshotsOf(raw);
    expect(snap).toBeDefined();
    const last = (snap as Snap).last_seq;
    raw.prepare('delete from chunklog_chunks where thread_id = ? and seq >= ?').run(T, last);
    raw.prepare('update chunklog_threads set next_seq = ? where id = ?').run(last, T);
    await store.appendTurn(T, turn(200));
    await store.appendTurn(T, turn(201));
    await expectSame(store, reference);
  });

  it('a row of a snapshot’s turn stored after it makes the read use rows, and the snapshots are made again', async () => {
    const { store, reference, raw } = await stores(10);
    await appendTurns(store, 0, 6);
    await store.getMessages(T);
    expect(snapshotsOf(raw)).toHaveLength(1);
    // A foreign writer adds a row to turn 1, after the snapshot.
    const next = raw
      .prepare('select next_seq from chunklog_threads where id = ?')
      .pluck()
      .get(T) as number;
    raw
      .prepare(
        "insert into chunklog_chunks (thread_id, seq, turn_id, step, role, type, data, created_at, version) values (?, ?, 'turn-1', 2, 'assistant', 'text', '{\"text\":\"late\"}', 5, 1)",
      )
      .run(T, next);
    raw.prepare('update chunklog_threads set next_seq = ? where id = ?').run(next + 1, T);
    await expectSame(store, reference);
    expect(JSON.stringify(await store.getMessages(T))).toContain('late');
  });

  it('deleteThread removes the snapshots; a fork reads rows until it has its own', async () => {
    const { store, reference, raw } = await stores(10);
    await appendTurns(store, 0, 6);
    await store.getMessages(T);
    await store.forkThread(T, { atSeq: 24, newThreadId: 'fork' });
    expect(snapshotsOf(raw, 'fork')).toEqual([]);
    await expectSame(store, reference, 'fork');
    expect(await store.deleteThread(T)).toBe(true);
    expect(snapshotsOf(raw)).toEqual([]);
    expect((await rejected(store.getHistory(T))).code).toBe('thread-not-found');
  });

  it('a read while another connection writes, or holds the write lock, reads and writes no snapshot', async () => {
    const { store, reference, raw } = await stores(10);
    await appendTurns(store, 0, 6);
    raw.exec('begin immediate');
    await expectSame(store, reference);
    expect(snapshotsOf(raw)).toEqual([]);
    raw.exec('commit');
    await store.getMessages(T);
    expect(snapshotsOf(raw)).toHaveLength(1);
  });

  it('a store whose database predates migration 0004 reads rows', async () => {
    const { store, reference, raw } = await stores(10);
    await appendTurns(store, 0, 6);
    raw.exec('drop table chunklog_snapshots');
    await expectSame(store, reference);
  });

  it('refuses a snapshotMinRows that is not a positive integer or false', () => {
    for (const value of [0, -1, 1.5, '10', true, null]) {
      const error = thrown(() =>
        createChunkStore({ sqlite: ':memory:' }, { snapshotMinRows: value as never }),
      );
      expect(error).toMatchObject({ code: 'invalid-option', option: 'snapshotMinRows' });
    }
  });

  it('a session started on a thread with snapshots sends the model input of one reading every row', async () => {
    const { store, reference } = await stores(10);
    await appendTurns(store, 0, 8);
    await store.getMessages(T);
    const input = await firstModelInput(store, T);
    expect(input).toBe(await firstModelInput(reference, T));
    expect(input).toContain('sig-3');
  });

  it('a whole-thread read through snapshots equals grouping every stored row, whatever the turns, truncations, foreign rows and reads in between', async () => {
    const { store, reference, raw } = await stores(3);
    let run = 0;
    const op = fc.oneof(
      fc.constant({ kind: 'read' as const }),
      fc.record({
        kind: fc.constant('truncate' as const),
        at: fc.double({ min: 0, max: 1, noNaN: true }),
      }),
      fc.record({ kind: fc.constant('foreign' as const), of: fc.nat() }),
      fc.constant({ kind: 'none' as const }),
    );
    await fc.assert(
      fc.asyncProperty(
        threadArb(14),
        fc.array(op, { minLength: 14, maxLength: 14 }),
        fc.array(fc.boolean(), { minLength: 14, maxLength: 14 }),
        async (turns, ops, durable) => {
          const threadId = `p${run++}`;
          const seen: string[] = [];
          for (let i = 0; i < turns.length; i++) {
            const spec = turns[i] as TurnSpec;
            const drafts = draftsOf(spec);
            const first = drafts.findIndex((d) => d.role !== 'user');
            if (durable[i] && first > 0) {
              // Stored step by step, with a whole-thread read while it runs.
              await store.beginTurn(threadId, drafts.slice(0, first));
              await expectSame(store, reference, threadId);
              await store.appendSteps(threadId, spec.turnId, drafts.slice(first), {
                status: 'completed',
              });
            } else {
              await store.appendTurn(threadId, drafts);
            }
            seen.push(spec.turnId);
            const o = ops[i] as (typeof ops)[number];
            if (o.kind === 'read') await expectSame(store, reference, threadId);
            if (o.kind === 'truncate') {
              const last = (await reference.getRows(threadId)).at(-1)?.seq ?? 0;
              await store.truncateAfter(threadId, Math.floor(o.at * last));
            }
            if (o.kind === 'foreign') {
              const next = raw
                .prepare('select next_seq from chunklog_threads where id = ?')
                .pluck()
                .get(threadId) as number;
              raw
                .prepare(
                  "insert into chunklog_chunks (thread_id, seq, turn_id, step, role, type, data, created_at, version) values (?, ?, ?, 0, 'assistant', 'text', '{\"text\":\"foreign\"}', 7, 1)",
                )
                .run(threadId, next, seen[o.of % seen.length]);
              raw
                .prepare('update chunklog_threads set next_seq = ? where id = ?')
                .run(next + 1, threadId);
            }
          }
          await expectSame(store, reference, threadId);
          await expectSame(store, reference, threadId);
        },
      ),
      { numRuns: 60 },
    );
    // The runs did write and use snapshots.
    expect(
      raw.prepare('select count(*) from chunklog_snapshots').pluck().get() as number,
    ).toBeGreaterThan(0);
  });
});
