// History snapshots through the application's Kysely (notes/0078): on PostgreSQL, MariaDB/MySQL
// and a SQLite Kysely, a whole-thread read reads the snapshots and the rows after them in one
// REPEATABLE READ transaction, and writes snapshots afterwards only if the thread did not move.
// Every test compares against a second store on the same tables with snapshots off, which reads
// every row: a snapshot may make a read faster, never different.
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { modelMessagesOf } from '../../src/model-messages/to-model-messages.js';
import { MAX_SNAPSHOT_CHARS } from '../../src/store/history-snapshots.js';
import {
  type ChunkStore,
  type ChunkStoreOptions,
  createChunkStore,
} from '../../src/store/index.js';
import { groupRows } from '../../src/transforms/group-rows.js';
import { POSTGRES_URL } from '../support/services.js';
import { type TurnSpec, threadArb } from '../transforms/arbitraries.js';
import { availableDialects, createHarness, type DialectHarness } from './support/dialects.js';
import { draftsOf, firstModelInput, snapshotTurn as turn } from './support/history-turns.js';

const available = await availableDialects();
const harnesses: DialectHarness[] = [];
const opened: ChunkStore[] = [];
afterAll(async () => {
  for (const store of opened.splice(0)) await store.close();
  for (const h of harnesses) await h.dispose();
});

type Snap = { first_seq: number; last_seq: number; digest: string; data: string };

/** One database: the store under test and the reference reading every row, on the same tables. */
interface Setup {
  readonly h: DialectHarness;
  readonly store: ChunkStore;
  readonly reference: ChunkStore;
  /** The thread's snapshots, oldest first, as stored. */
  snapshots(threadId: string): Promise<Snap[]>;
}

type Target = 'postgres' | 'mysql' | 'sqlite-kysely';

/** A store through a Kysely: the harness's for servers, a SQLite Kysely on the harness's file. */
function openThrough(target: Target, h: DialectHarness, options: ChunkStoreOptions): ChunkStore {
  if (target !== 'sqlite-kysely') return h.openStore(options);
  const db = new Kysely({
    dialect: new SqliteDialect({
      database: () => {
        const sqlite = new Database(h.file as string, { timeout: 10_000 });
        sqlite.pragma('journal_mode = WAL');
        return Promise.resolve(sqlite);
      },
    }),
  });
  const store = createChunkStore({ db }, { ...options, tablePrefix: h.prefix });
  return {
    ...store,
    async close() {
      await store.close();
      await db.destroy();
    },
  };
}

async function setUp(target: Target, minRows: number): Promise<Setup> {
  const h = createHarness(target === 'sqlite-kysely' ? 'sqlite' : target);
  harnesses.push(h);
  const store = openThrough(target, h, { snapshotMinRows: minRows });
  const reference = openThrough(target, h, { snapshotMinRows: false });
  opened.push(store, reference);
  await store.migrate();
  return {
    h,
    store,
    reference,
    async snapshots(threadId) {
      const rows = await h.raw
        .selectFrom(`${h.prefix}snapshots`)
        .select(['first_seq', 'last_seq', 'digest', 'data'])
        .where('thread_id', '=', threadId)
        .orderBy('first_seq')
        .execute();
      return rows.map((r) => ({
        ...r,
        first_seq: Number(r.first_seq),
        last_seq: Number(r.last_seq),
      }));
    },
  };
}

/**
 * Both stores give the same messages and model input, and the history read groups to them.
 * Returns how many messages the history read took from snapshots.
 */
async function expectSame(s: Setup, threadId: string): Promise<number> {
  const expected = await s.reference.getMessages(threadId);
  const got = await s.store.getMessages(threadId);
  expect(JSON.stringify(got)).toBe(JSON.stringify(expected));
  expect(JSON.stringify(modelMessagesOf(got))).toBe(JSON.stringify(modelMessagesOf(expected)));
  const history = await s.store.getHistory(threadId);
  expect(JSON.stringify([...history.messages, ...groupRows(history.rows)])).toBe(
    JSON.stringify(groupRows(await s.reference.getRows(threadId))),
  );
  return history.messages.length;
}

async function appendTurns(store: ChunkStore, threadId: string, from: number, to: number) {
  for (let n = from; n < to; n++) await store.appendTurn(threadId, turn(n));
}

const targets: Array<{ target: Target; on: boolean }> = [
  { target: 'postgres', on: available.includes('postgres') },
  { target: 'mysql', on: available.includes('mysql') },
  { target: 'sqlite-kysely', on: true },
];

for (const { target, on } of targets) {
  describe.skipIf(!on)(`history snapshots through Kysely on ${target}`, () => {
    it('a whole-thread read writes a snapshot of the whole turns before the last, and later reads use it', async () => {
      const s = await setUp(target, 20);
      await appendTurns(s.store, 't', 0, 10);
      expect(await s.snapshots('t')).toEqual([]);
      await expectSame(s, 't');
      const spans = (await s.snapshots('t')).map((x) => [x.first_seq, x.last_seq]);
      // Ten turns of 5 rows: the snapshot holds the first nine, the last turn stays rows.
      expect(spans).toEqual([[1, 45]]);
      const history = await s.store.getHistory('t');
      expect(history.turnIds).toEqual(Array.from({ length: 9 }, (_, n) => `turn-${n}`));
      expect(history.rows.map((r) => r.seq)).toEqual([46, 47, 48, 49, 50]);
      await appendTurns(s.store, 't', 10, 14);
      await expectSame(s, 't');
      expect((await s.snapshots('t')).map((x) => [x.first_seq, x.last_seq])).toEqual([
        [1, 45],
        [46, 65],
      ]);
    });

    it('a tampered snapshot is not used, and is replaced by a true one', async () => {
      const s = await setUp(target, 20);
      await appendTurns(s.store, 't', 0, 10);
      await s.store.getMessages('t');
      const [before] = await s.snapshots('t');
      const table = `${s.h.prefix}snapshots`;
      await s.h.raw
        .updateTable(table)
        .set({ data: (before as Snap).data.replace('answer 3', 'answer X') })
        .where('thread_id', '=', 't')
        .execute();
      await expectSame(s, 't');
      expect(await s.snapshots('t')).toEqual([before]);
      expect((await s.store.getHistory('t')).messages.length).toBe(18);
    });

    it('truncateAfter and rows stored again at the same seqs are read, and new snapshots made', async () => {
      const s = await setUp(target, 10);
      await appendTurns(s.store, 't', 0, 6);
      await s.store.getMessages('t');
      expect((await s.snapshots('t')).map((x) => x.last_seq)).toEqual([25]);
      await s.store.truncateAfter('t', 24);
      expect(await s.snapshots('t')).toEqual([]);
      await s.store.appendTurn('t', turn(99));
      await s.store.appendTurn('t', turn(100));
      await expectSame(s, 't');
      expect((await s.snapshots('t')).map((x) => x.last_seq)).toEqual([29]);
    });

    it('a long run of large rows is snapshotted in parts of at most MAX_SNAPSHOT_CHARS, each stored and used', async () => {
      const s = await setUp(target, 10);
      // 30 turns with a 200,000-character tool result each: 6 MB of JSON, more than one value
      // MySQL takes in one insert by default (16 MB packets hold at most 4,000,000 characters of
      // 4-byte UTF-8).
      const big = '✓ a line of a large tool result\n'.repeat(6_500);
      for (let n = 0; n < 30; n++) {
        const drafts = turn(n);
        const call = drafts.find((d) => d.type === 'tool_result');
        if (call !== undefined) (call.data as { result: unknown }).result = `${n}: ${big}`;
        await s.store.appendTurn('big', drafts);
      }
      await expectSame(s, 'big');
      const snaps = await s.snapshots('big');
      expect(snaps.length).toBeGreaterThan(1);
      for (const snap of snaps) expect(snap.data.length).toBeLessThan(MAX_SNAPSHOT_CHARS * 1.05);
      expect(snaps.at(-1)?.last_seq).toBe(145);
      expect((await s.store.getHistory('big')).rows.map((r) => r.seq)).toEqual([
        146, 147, 148, 149, 150,
      ]);
      await expectSame(s, 'big');
    });

    it('a missing thread is thread-not-found, an empty one reads empty', async () => {
      const s = await setUp(target, 10);
      await expect(s.store.getHistory('nope')).rejects.toMatchObject({ code: 'thread-not-found' });
      await s.store.createThread('empty');
      expect(await s.store.getHistory('empty')).toEqual({ messages: [], turnIds: [], rows: [] });
    });

    it('a session started on a thread with snapshots sends the model input of one reading every row', async () => {
      const s = await setUp(target, 10);
      await appendTurns(s.store, 't', 0, 8);
      await s.store.getMessages('t');
      expect(await s.snapshots('t')).toHaveLength(1);
      const input = await firstModelInput(s.store, 't');
      expect(input).toBe(await firstModelInput(s.reference, 't'));
      expect(input).toContain('sig-3');
    });

    it('a whole-thread read through snapshots equals grouping every stored row, whatever the turns, truncations and reads in between', async () => {
      const s = await setUp(target, 3);
      let run = 0;
      let fromSnapshots = 0;
      const op = fc.oneof(
        fc.constant({ kind: 'read' as const }),
        fc.record({
          kind: fc.constant('truncate' as const),
          at: fc.double({ min: 0, max: 1, noNaN: true }),
        }),
        fc.constant({ kind: 'none' as const }),
      );
      await fc.assert(
        fc.asyncProperty(
          threadArb(10),
          fc.array(op, { minLength: 10, maxLength: 10 }),
          async (turns, ops) => {
            const threadId = `p${run++}`;
            // Four ordinary turns first, read once: the generated turns, truncations and reads
            // then play on a thread that has a snapshot.
            for (let n = 0; n < 4; n++) await s.store.appendTurn(threadId, turn(n, `base-${n}`));
            fromSnapshots += await expectSame(s, threadId);
            for (let i = 0; i < turns.length; i++) {
              await s.store.appendTurn(threadId, draftsOf(turns[i] as TurnSpec));
              const o = ops[i] as (typeof ops)[number];
              if (o.kind === 'read') fromSnapshots += await expectSame(s, threadId);
              if (o.kind === 'truncate') {
                const last = (await s.reference.getRows(threadId)).at(-1)?.seq ?? 0;
                await s.store.truncateAfter(threadId, Math.floor(o.at * last));
              }
            }
            fromSnapshots += await expectSame(s, threadId);
            fromSnapshots += await expectSame(s, threadId);
          },
        ),
        { numRuns: 15 },
      );
      // The reads did use snapshots.
      expect(fromSnapshots).toBeGreaterThan(0);
    });
  });
}

/** A PostgreSQL harness and a store on it (snapshots off) that writes the tables, migrated. */
async function postgresWriter(options: ChunkStoreOptions) {
  const h = createHarness('postgres');
  harnesses.push(h);
  const writer = h.openStore(options);
  opened.push(writer);
  await writer.migrate();
  return { h, writer };
}

describe.skipIf(!available.includes('postgres'))(
  'history snapshots on PostgreSQL, racing a writer',
  () => {
    it('rows stored between the read and its snapshot write: nothing is written, and the next read writes a true one', async () => {
      // A clock that moves on every call: each write of the writer gives the thread a new updated_at.
      let clock = Date.now();
      const { h, writer } = await postgresWriter({ snapshotMinRows: false, now: () => ++clock });
      await appendTurns(writer, 't', 0, 10);
      // The reader's pool stores one more turn, truncates into what the read would snapshot and
      // stores another, just before the snapshot write locks the thread: next_seq is back where the
      // read saw it, but the rows the snapshot would hold changed.
      let raced = 0;
      const r = readerOn(h, async (text) => {
        if (raced === 0 && /for update/i.test(text) && text.includes(`${h.prefix}threads`)) {
          raced++;
          await writer.appendTurn('t', turn(50));
          await writer.truncateAfter('t', 40);
          await writer.appendTurn('t', turn(51));
        }
      });
      const reader = r.reader;
      try {
        const first = await reader.getHistory('t');
        // The read answered from its own snapshot of the database: the ten turns.
        expect(first.rows.map((r) => r.turnId).at(-1)).toBe('turn-9');
        expect(raced).toBe(1);
        const table = `${h.prefix}snapshots`;
        const count = async () =>
          Number(
            (
              await h.raw
                .selectFrom(table)
                .select((eb) => eb.fn.countAll().as('n'))
                .executeTakeFirstOrThrow()
            ).n,
          );
        expect(await count()).toBe(0);
        const expected = JSON.stringify(await writer.getMessages('t'));
        expect(JSON.stringify(await reader.getMessages('t'))).toBe(expected);
        expect(await count()).toBe(1);
        expect(JSON.stringify(await reader.getMessages('t'))).toBe(expected);
        expect(expected).toContain('turn-51');
      } finally {
        await r.close();
      }
    });
  },
);

/**
 * A reader on its own Kysely, which logs every statement the store runs; its pool's clients run
 * `before(text)` ahead of each statement.
 */
function readerOn(h: DialectHarness, before: (text: string) => Promise<void> = async () => {}) {
  const pool = new pg.Pool({ connectionString: POSTGRES_URL, max: 2 });
  const connect = pool.connect.bind(pool);
  (pool as unknown as { connect: () => Promise<pg.PoolClient> }).connect = async () => {
    const client = await connect();
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as unknown as { query: unknown }).query = async (...args: unknown[]) => {
      await before(typeof args[0] === 'string' ? args[0] : '');
      return query(...args);
    };
    return client;
  };
  const statements: string[] = [];
  const db = new Kysely({
    dialect: new PostgresDialect({ pool }),
    log: (event) => {
      statements.push(event.query.sql);
    },
  });
  const reader = createChunkStore({ db }, { tablePrefix: h.prefix, snapshotMinRows: 20 });
  return {
    reader,
    statements,
    async close() {
      await reader.close();
      await db.destroy();
    },
  };
}

describe.skipIf(!available.includes('postgres'))(
  'history snapshots on PostgreSQL: the statements of a whole-thread read',
  () => {
    it('a thread without snapshots is read in one statement (its rows and version), an empty or missing one in two, a thread with snapshots in one REPEATABLE READ transaction after them', async () => {
      const { h, writer } = await postgresWriter({ snapshotMinRows: false });
      await appendTurns(writer, 'short', 0, 3);
      await appendTurns(writer, 'long', 0, 10);
      const r = readerOn(h);
      try {
        const short = await r.reader.getHistory('short');
        expect(short.rows.map((row) => row.turnId).at(-1)).toBe('turn-2');
        expect(r.statements).toHaveLength(1);
        r.statements.length = 0;
        // No row read: then the thread's version and whether it has snapshots, one statement more.
        await writer.createThread('empty');
        expect(await r.reader.getHistory('empty')).toEqual({ messages: [], turnIds: [], rows: [] });
        expect(r.statements).toHaveLength(2);
        r.statements.length = 0;
        await expect(r.reader.getHistory('missing')).rejects.toMatchObject({
          code: 'thread-not-found',
        });
        expect(r.statements).toHaveLength(2);
        r.statements.length = 0;
        // The long thread's first read has no snapshot either: its rows, then a snapshot write.
        await r.reader.getHistory('long');
        expect(r.statements[0]).toMatch(/from "\w+chunks"/);
        expect(r.statements[1]).toMatch(/^start transaction isolation level read committed/i);
        r.statements.length = 0;
        const history = await r.reader.getHistory('long');
        expect(history.turnIds).toHaveLength(9);
        expect(r.statements[2]).toMatch(/^start transaction isolation level repeatable read/i);
        expect(r.statements.at(-1)).toMatch(/^commit/i);
      } finally {
        await r.close();
      }
    });

    it('rows stored between the first statement (no row) and the second: the read has them, in one snapshot', async () => {
      const { h, writer } = await postgresWriter({ snapshotMinRows: false });
      await writer.createThread('t');
      let raced = 0;
      const r = readerOn(h, async (text) => {
        // Just before the second statement: the thread's version and whether it has snapshots.
        if (
          raced === 0 &&
          /exists/i.test(text) &&
          text.includes(`"${h.prefix}threads"`) &&
          !text.includes(`"${h.prefix}chunks"`)
        ) {
          raced++;
          await appendTurns(writer, 't', 0, 2);
        }
      });
      try {
        const history = await r.reader.getHistory('t');
        expect(raced).toBe(1);
        expect(history.rows.map((row) => row.seq)).toEqual(
          Array.from({ length: 10 }, (_, i) => i + 1),
        );
        expect(r.statements[2]).toMatch(/^start transaction isolation level repeatable read/i);
      } finally {
        await r.close();
      }
    });
  },
);
