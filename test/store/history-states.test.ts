// History states (notes/0081): a whole-thread read starts from the thread's newest history state
// (its rows folded into messages up to a seq, written by writes) and folds the rows after it.
// Every test compares against a second store on the same tables with states off, which reads
// every row: a state may make a read faster, never different. On an SQLite file, an SQLite
// Kysely, PostgreSQL and MariaDB.
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { Kysely, type LogEvent, MysqlDialect, PostgresDialect, SqliteDialect } from 'kysely';
import { createPool } from 'mysql2';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { modelMessagesOf } from '../../src/model-messages/to-model-messages.js';
import { STATE_PART_CHARS } from '../../src/store/history/state-codec.js';
import {
  type ChunkStore,
  type ChunkStoreOptions,
  createChunkStore,
} from '../../src/store/index.js';
import { groupRows } from '../../src/transforms/group-rows.js';
import { rejected, thrown } from '../support/chunklog-error.js';
import { MYSQL_URL, POSTGRES_URL } from '../support/services.js';
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

type Target = 'sqlite' | 'sqlite-kysely' | 'postgres' | 'mysql';

/** A store on the harness's database: the store's own SQLite, or a Kysely of the caller's. */
function openOn(target: Target, h: DialectHarness, options: ChunkStoreOptions): ChunkStore {
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

interface Setup {
  readonly h: DialectHarness;
  readonly store: ChunkStore;
  readonly reference: ChunkStore;
  /** The thread's stored states: their seqs, parts and data, in order. */
  states(threadId: string): Promise<Array<{ at_seq: number; part: number; data: string }>>;
  /** Runs raw SQL on the database (to tamper with a state, or write as an older chunklog). */
  // biome-ignore lint/suspicious/noExplicitAny: raw access to tables named at run time
  readonly raw: Kysely<any>;
}

async function setUp(target: Target, minRows: number): Promise<Setup> {
  const h = createHarness(target === 'sqlite-kysely' ? 'sqlite' : target);
  harnesses.push(h);
  const store = openOn(target, h, { snapshotMinRows: minRows });
  const reference = openOn(target, h, { snapshotMinRows: false });
  opened.push(store, reference);
  await store.migrate();
  return {
    h,
    store,
    reference,
    raw: h.raw,
    async states(threadId) {
      const rows = await h.raw
        .selectFrom(`${h.prefix}history_states`)
        .select(['at_seq', 'part', 'data'])
        .where('thread_id', '=', threadId)
        .orderBy('at_seq')
        .orderBy('part')
        .execute();
      return rows.map((r) => ({ at_seq: Number(r.at_seq), part: Number(r.part), data: r.data }));
    },
  };
}

/** Both stores give the same messages, model input and fold; returns the state seq read from. */
async function expectSame(s: Setup, threadId: string): Promise<void> {
  const expected = await s.reference.getMessages(threadId);
  const got = await s.store.getMessages(threadId);
  expect(JSON.stringify(got)).toBe(JSON.stringify(expected));
  expect(JSON.stringify(modelMessagesOf(got))).toBe(JSON.stringify(modelMessagesOf(expected)));
  const history = await s.store.getHistory(threadId);
  const rows = await s.reference.getRows(threadId);
  expect(JSON.stringify(history.messages)).toBe(JSON.stringify(groupRows(rows)));
  expect(history.fold.seq).toBe(rows.at(-1)?.seq ?? 0);
}

async function appendTurns(store: ChunkStore, threadId: string, from: number, to: number) {
  for (let n = from; n < to; n++) await store.appendTurn(threadId, turn(n));
}

/** Appends a row as a writer that knows nothing of states (an older chunklog, or by hand). */
async function foreignRow(s: Setup, threadId: string, turnId: string): Promise<void> {
  const threads = `${s.h.prefix}threads`;
  const chunks = `${s.h.prefix}chunks`;
  const thread = await s.raw
    .selectFrom(threads)
    .select('next_seq')
    .where('id', '=', threadId)
    .executeTakeFirstOrThrow();
  const next = Number(thread.next_seq);
  await s.raw
    .insertInto(chunks)
    .values({
      thread_id: threadId,
      seq: next,
      turn_id: turnId,
      step: 0,
      role: 'assistant',
      type: 'text',
      data: JSON.stringify({ text: 'foreign' }),
      created_at: 7,
      version: 1,
    })
    .execute();
  await s.raw
    .updateTable(threads)
    .set({ next_seq: next + 1 })
    .where('id', '=', threadId)
    .execute();
}

const targets: Array<{ target: Target; on: boolean }> = [
  { target: 'sqlite', on: true },
  { target: 'sqlite-kysely', on: true },
  { target: 'postgres', on: available.includes('postgres') },
  { target: 'mysql', on: available.includes('mysql') },
];

for (const { target, on } of targets) {
  describe.skipIf(!on)(`history states on ${target}`, () => {
    it('writes write a state once snapshotMinRows rows follow the last one; reads start from it and never write', async () => {
      const s = await setUp(target, 20);
      await appendTurns(s.store, 'a', 0, 3);
      expect(await s.states('a')).toEqual([]);
      // 15 rows: no state yet, and reads write none.
      await s.store.getMessages('a');
      await s.store.getHistory('a');
      expect(await s.states('a')).toEqual([]);
      await appendTurns(s.store, 'a', 3, 4);
      // The append that brought the thread to 20 rows wrote a state of all of them.
      expect((await s.states('a')).map((r) => r.at_seq)).toEqual([20]);
      await expectSame(s, 'a');
      await appendTurns(s.store, 'a', 4, 8);
      // 40 rows: the next state replaces the first.
      expect((await s.states('a')).map((r) => r.at_seq)).toEqual([40]);
      await appendTurns(s.store, 'a', 8, 9);
      await expectSame(s, 'a');
      expect((await s.states('a')).map((r) => r.at_seq)).toEqual([40]);
    });

    it('a new store’s first read starts from the state another process wrote', async () => {
      const s = await setUp(target, 10);
      await appendTurns(s.store, 'b', 0, 3);
      const fresh = openOn(target, s.h, { snapshotMinRows: 10 });
      opened.push(fresh);
      const history = await fresh.getHistory('b');
      expect(history.fold.seq).toBe(15);
      expect((await s.states('b')).map((r) => r.at_seq)).toEqual([10]);
      await expectSame(s, 'b');
    });

    it('writes none with snapshotMinRows false, or from a read that skipped a corrupt row', async () => {
      const s = await setUp(target, 10);
      const off = openOn(target, s.h, { snapshotMinRows: false });
      opened.push(off);
      await appendTurns(off, 'c', 0, 4);
      expect(await s.states('c')).toEqual([]);
      await s.raw
        .updateTable(`${s.h.prefix}chunks`)
        .set({ version: 99 })
        .where('thread_id', '=', 'c')
        .where('seq', '=', 2)
        .execute();
      await appendTurns(s.store, 'c', 4, 6);
      expect(await s.states('c')).toEqual([]);
      expect(await s.store.writeHistorySnapshot('c')).toBeUndefined();
      expect((await rejected(s.store.getMessages('c'))).code).toBe('corrupt-row');
      expect((await s.store.getMessages('c', { onCorruptRow: 'skip' })).length).toBeGreaterThan(0);
    });

    for (const [what, change] of [
      ['its JSON changed', (data: string) => data.replace('answer 3', 'answer X')],
      ['a part cut short', (data: string) => data.slice(0, -1)],
    ] as const) {
      it(`a state with ${what} is not used (the rows are read), and the next write replaces it`, async () => {
        const s = await setUp(target, 10);
        await appendTurns(s.store, 'd', 0, 4);
        const [state] = await s.states('d');
        expect(state?.at_seq).toBe(20);
        await s.raw
          .updateTable(`${s.h.prefix}history_states`)
          .set({ data: change(state?.data as string) })
          .where('thread_id', '=', 'd')
          .execute();
        await expectSame(s, 'd');
        expect(JSON.stringify(await s.store.getMessages('d'))).not.toContain('answer X');
        expect(await s.store.writeHistorySnapshot('d')).toBe(20);
        expect((await s.states('d'))[0]?.data).toBe(state?.data);
      });
    }

    it('truncateAfter removes the states past the cut; a foreign truncation under a state is seen', async () => {
      const s = await setUp(target, 10);
      await appendTurns(s.store, 'e', 0, 4);
      expect((await s.states('e')).map((r) => r.at_seq)).toEqual([20]);
      await s.store.truncateAfter('e', 20);
      expect((await s.states('e')).map((r) => r.at_seq)).toEqual([20]);
      await s.store.truncateAfter('e', 17);
      expect(await s.states('e')).toEqual([]);
      // Three turns of five rows after the cut: states at 22 (10 rows since none), then at 32.
      await appendTurns(s.store, 'e', 10, 13);
      await expectSame(s, 'e');
      expect((await s.states('e')).map((r) => r.at_seq)).toEqual([32]);
      // An older chunklog truncates below the state and writes again: the state's last row is no
      // longer the one it was made from, and the read takes the rows.
      await s.raw
        .deleteFrom(`${s.h.prefix}chunks`)
        .where('thread_id', '=', 'e')
        .where('seq', '>=', 25)
        .execute();
      await s.raw
        .updateTable(`${s.h.prefix}threads`)
        .set({ next_seq: 25 })
        .where('id', '=', 'e')
        .execute();
      await foreignRow(s, 'e', 'turn-x');
      await foreignRow(s, 'e', 'turn-x');
      await foreignRow(s, 'e', 'turn-x');
      await expectSame(s, 'e');
    });

    it('a row of an old turn stored after a state joins its turn, as reading every row gives', async () => {
      const s = await setUp(target, 10);
      await appendTurns(s.store, 'f', 0, 4);
      expect((await s.states('f')).map((r) => r.at_seq)).toEqual([20]);
      await foreignRow(s, 'f', 'turn-1');
      await expectSame(s, 'f');
      expect(JSON.stringify(await s.store.getMessages('f'))).toContain('foreign');
    });

    it('deleteThread removes the states; a fork reads rows until its own writes make one', async () => {
      const s = await setUp(target, 10);
      await appendTurns(s.store, 'g', 0, 4);
      await s.store.forkThread('g', { atSeq: 15, newThreadId: 'g-fork' });
      expect(await s.states('g-fork')).toEqual([]);
      await expectSame(s, 'g-fork');
      // The fork reads g's rows by reference: g goes only once the fork has gone.
      expect((await rejected(s.store.deleteThread('g'))).code).toBe('thread-has-forks');
      expect(await s.store.deleteThread('g-fork')).toBe(true);
      expect(await s.store.deleteThread('g')).toBe(true);
      expect(await s.states('g')).toEqual([]);
      expect((await rejected(s.store.getHistory('g'))).code).toBe('thread-not-found');
    });

    it('forks of forks write states of their own path, ending with their own rows; reads through them equal the rows', async () => {
      const s = await setUp(target, 10);
      await appendTurns(s.store, 'k', 0, 6);
      await s.store.forkThread('k', { atSeq: 15, newThreadId: 'k1' });
      await appendTurns(s.store, 'k1', 6, 8);
      // The fork's own rows are 16 to 25: a state once 10 rows follow none, at its row 20.
      expect((await s.states('k1')).map((r) => r.at_seq)).toEqual([20]);
      await expectSame(s, 'k1');
      await s.store.forkThread('k1', { atSeq: 20, newThreadId: 'k2' });
      await appendTurns(s.store, 'k2', 8, 10);
      expect((await s.states('k2')).map((r) => r.at_seq)).toEqual([25]);
      await expectSame(s, 'k2');
      // The parent's states are its own: k's rows after 15 are not on the forks' paths.
      expect((await s.states('k')).map((r) => r.at_seq)).toEqual([30]);
      // Cut into k's part, k2 loses its state and reads rows again, then writes on.
      expect(await s.store.truncateAfter('k2', 10)).toBe(20);
      expect(await s.states('k2')).toEqual([]);
      await expectSame(s, 'k2');
      await appendTurns(s.store, 'k2', 10, 13);
      const again = (await s.states('k2')).map((r) => r.at_seq);
      expect(again.length).toBe(1);
      expect(again[0]).toBeGreaterThan(10); // one of its own rows
      await expectSame(s, 'k2');
    });

    it('a fork without a state of its own starts from its parent’s when it ends within what the fork reads', async () => {
      const s = await setUp(target, 10);
      await appendTurns(s.store, 'm', 0, 6);
      expect((await s.states('m')).map((r) => r.at_seq)).toEqual([30]);
      await s.store.forkThread('m', { atSeq: 99, newThreadId: 'm-end' });
      await s.store.forkThread('m', { atSeq: 15, newThreadId: 'm-mid' });
      await expectSame(s, 'm-end');
      await expectSame(s, 'm-mid');
      // White box: row 1 changed under the state. A read that starts from the state does not see
      // it; one that reads rows does (m's state ends at 30, past m-mid's fork seq).
      await s.raw
        .updateTable(`${s.h.prefix}chunks`)
        .set({ data: JSON.stringify({ text: 'changed under the state' }) })
        .where('thread_id', '=', 'm')
        .where('seq', '=', 1)
        .execute();
      expect(JSON.stringify(await s.store.getMessages('m-end'))).not.toContain('changed under');
      expect(JSON.stringify(await s.reference.getMessages('m-end'))).toContain('changed under');
      expect(JSON.stringify(await s.store.getMessages('m-mid'))).toContain('changed under');
      // The fork's first write makes a state of its own (a read from the parent's is not one).
      await appendTurns(s.store, 'm-end', 6, 7);
      expect((await s.states('m-end')).map((r) => r.at_seq)).toEqual([35]);
    });

    it('a missing thread is thread-not-found, an empty one reads empty', async () => {
      const s = await setUp(target, 10);
      expect((await rejected(s.store.getHistory('nope'))).code).toBe('thread-not-found');
      await s.store.createThread('empty');
      const history = await s.store.getHistory('empty');
      expect(history.messages).toEqual([]);
      expect(history.fold.seq).toBe(0);
    });

    it('a state larger than one part is stored in parts, each used', async () => {
      const s = await setUp(target, 3);
      const big = 'r'.repeat(400_000);
      for (let n = 0; n < 12; n++) {
        const drafts = turn(n);
        await s.store.appendTurn(
          'h',
          drafts.map((d) =>
            d.type === 'tool_result' ? { ...d, data: { ...d.data, result: `${n} ${big}` } } : d,
          ),
        );
      }
      await s.store.writeHistorySnapshot('h');
      const parts = await s.states('h');
      expect(parts.length).toBeGreaterThan(1);
      expect(new Set(parts.map((p) => p.at_seq)).size).toBe(1);
      expect(parts.every((p) => p.data.length <= STATE_PART_CHARS)).toBe(true);
      await expectSame(s, 'h');
    });

    it('a session started on a thread with a state sends the model input of one reading every row', async () => {
      const s = await setUp(target, 10);
      await appendTurns(s.store, 'i', 0, 8);
      expect((await s.states('i')).length).toBeGreaterThan(0);
      const input = await firstModelInput(s.store, 'i');
      expect(input).toBe(await firstModelInput(s.reference, 'i'));
      expect(input).toContain('sig-3');
    });

    it('a whole-thread read through states equals grouping every stored row, whatever the turns, truncations, foreign rows and reads in between', async () => {
      const s = await setUp(target, 3);
      let run = 0;
      const op = fc.oneof(
        fc.constant({ kind: 'read' as const }),
        fc.record({
          kind: fc.constant('truncate' as const),
          at: fc.double({ min: 0, max: 1, noNaN: true }),
        }),
        fc.record({ kind: fc.constant('foreign' as const), of: fc.nat() }),
        fc.constant({ kind: 'snapshot' as const }),
        fc.constant({ kind: 'none' as const }),
      );
      await fc.assert(
        fc.asyncProperty(
          threadArb(12),
          fc.array(op, { minLength: 12, maxLength: 12 }),
          fc.array(fc.boolean(), { minLength: 12, maxLength: 12 }),
          async (turns, ops, durable) => {
            const threadId = `p${run++}`;
            const seen: string[] = [];
            for (let i = 0; i < turns.length; i++) {
              const spec = turns[i] as TurnSpec;
              const drafts = draftsOf(spec);
              const first = drafts.findIndex((d) => d.role !== 'user');
              if (durable[i] && first > 0) {
                // Stored step by step, with a whole-thread read while it runs.
                await s.store.beginTurn(threadId, drafts.slice(0, first));
                await expectSame(s, threadId);
                await s.store.appendSteps(threadId, spec.turnId, drafts.slice(first), {
                  status: 'completed',
                });
              } else {
                await s.store.appendTurn(threadId, drafts);
              }
              seen.push(spec.turnId);
              const o = ops[i] as (typeof ops)[number];
              if (o.kind === 'read') await expectSame(s, threadId);
              if (o.kind === 'snapshot') await s.store.writeHistorySnapshot(threadId);
              if (o.kind === 'truncate') {
                const last = (await s.reference.getRows(threadId)).at(-1)?.seq ?? 0;
                await s.store.truncateAfter(threadId, Math.floor(o.at * last));
              }
              if (o.kind === 'foreign') {
                await foreignRow(s, threadId, seen[o.of % seen.length] as string);
              }
            }
            await expectSame(s, threadId);
          },
        ),
        { numRuns: target === 'sqlite' ? 60 : 15 },
      );
      // The runs did write and read states.
      const count = await s.raw
        .selectFrom(`${s.h.prefix}history_states`)
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirst();
      expect(Number(count?.n)).toBeGreaterThan(0);
    });

    it('a read is one statement for a thread without a state, and no read writes', async () => {
      const s = await setUp(target, 10);
      await appendTurns(s.store, 'j', 0, 1);
      const log: string[] = [];
      const logged = openLogged(target, s.h, log);
      opened.push(logged);
      await logged.getHistory('j');
      await logged.getMessages('j');
      await logged.getChunks('j', { limit: 3 });
      const reads = log.filter((q) => !/^(begin|commit|set |pragma|start transaction)/i.test(q));
      expect(reads.filter((q) => /^\s*(insert|update|delete)/i.test(q))).toEqual([]);
      // getHistory: its rows in one statement (a thread without a state).
      expect(log[0]).toMatch(/^select/i);
      await appendTurns(s.store, 'j', 1, 3);
      log.length = 0;
      await logged.getHistory('j');
      // With a state: the rows after it, then its parts.
      expect(log.filter((q) => /^select/i.test(q))).toHaveLength(2);
      expect(log.filter((q) => /^\s*(insert|update|delete)/i.test(q))).toEqual([]);
    });
  });
}

/** A store on the harness's database whose statements are logged, lower-cased. */
function openLogged(target: Target, h: DialectHarness, log: string[]): ChunkStore {
  const onQuery = (event: LogEvent) => {
    if (event.level === 'query') log.push(event.query.sql.trim().toLowerCase());
  };
  const db =
    target === 'postgres'
      ? new Kysely({
          dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: POSTGRES_URL }) }),
          log: onQuery,
        })
      : target === 'mysql'
        ? new Kysely({
            dialect: new MysqlDialect({ pool: createPool({ uri: MYSQL_URL }) }),
            log: onQuery,
          })
        : new Kysely({
            dialect: new SqliteDialect({
              database: () => Promise.resolve(new Database(h.file as string, { timeout: 10_000 })),
            }),
            log: onQuery,
          });
  const store = createChunkStore({ db }, { tablePrefix: h.prefix, snapshotMinRows: 10 });
  return {
    ...store,
    async close() {
      await store.close();
      await db.destroy();
    },
  };
}

describe('history states options', () => {
  it('refuses a snapshotMinRows that is not a positive integer or false', () => {
    for (const value of [0, -1, 1.5, '10', true, null]) {
      const error = thrown(() =>
        createChunkStore({ sqlite: ':memory:' }, { snapshotMinRows: value as never }),
      );
      expect(error).toMatchObject({ code: 'invalid-option', option: 'snapshotMinRows' });
    }
  });
});
