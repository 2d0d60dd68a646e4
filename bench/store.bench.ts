// The chunk store on an SQLite file in WAL mode, side by side with raw better-sqlite3:
//   1. appendTurn of 50-row turns vs prepared inserts of the same rows, one transaction per turn
//      (at least 0.7× their throughput), and of realistic 7-row turns (at least 0.5×);
//   2. a page of 50 (getChunks, `total` included) vs the same keyset query run raw plus JSON.parse
//      of each row's data (within 1.3×);
//   3. a page at the start of a 1,000,000-row thread vs one at its end (within 1.5×: flat).
// Both sides use the same file and the same settings (WAL, synchronous as in STORE_SYNCHRONOUS,
// default NORMAL so that the figures measure the store and not the disk's fsync).
// And on PostgreSQL (skipped when no server answers), side by side with the same writes sent by
// hand through pg:
//   4. appendTurn of 7-row turns vs a hand-written transaction (lock and read the thread's
//      next_seq, one multi-row insert, advance the thread): within 1.2×;
//   5. a page of 50 vs the same keyset query run raw plus JSON.parse of each row's data: within 1.2×.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import type { ChunkRowDraft } from '../src/schema/chunk-row.js';
import { createChunkStore } from '../src/store/index.js';
import { dropStoreTables } from '../test/support/drop-store-tables.js';
import { compare } from './harness.js';

const quick = process.env.BENCH_QUICK === '1';
const synchronous = process.env.STORE_SYNCHRONOUS === 'full' ? 'full' : 'normal';
// STORE_BENCH=postgres runs the PostgreSQL figures only (STORE_BENCH=sqlite: the SQLite ones).
const onSqlite = process.env.STORE_BENCH !== 'postgres';
const onPostgres = process.env.STORE_BENCH !== 'sqlite';
const dir = mkdtempSync(join(tmpdir(), 'chunklog-bench-store-'));
const file = join(dir, 'bench.db');
const store = createChunkStore({ sqlite: file }, { synchronous });
await store.migrate();
const raw = new Database(file, { timeout: 5000 });
raw.pragma('journal_mode = WAL');
raw.pragma(`synchronous = ${synchronous.toUpperCase()}`);

/** A realistic turn: a user message, thinking, text, tool calls and results. */
function turn(turnId: string, rows: number): ChunkRowDraft[] {
  const out: ChunkRowDraft[] = [];
  for (let i = 0; out.length < rows; i++) {
    const step = Math.floor(i / 5);
    const k = i % 5;
    if (i === 0)
      out.push({
        turnId,
        step,
        role: 'user',
        type: 'text',
        data: { text: `Please look into issue ${i}: ${'the build fails on CI. '.repeat(4)}` },
      });
    else if (k === 1)
      out.push({
        turnId,
        step,
        role: 'assistant',
        type: 'thinking',
        data: {
          text: 'Let me check the logs first. '.repeat(6),
          providerMetadata: { anthropic: { signature: 'EqQBCkYIBxgCKkB'.repeat(8) } },
        },
      });
    else if (k === 2)
      out.push({
        turnId,
        step,
        role: 'assistant',
        type: 'tool_call',
        data: {
          id: `call_${i}`,
          name: 'shell',
          index: 0,
          input: { command: `grep -rn error logs/${i}.txt`, timeout: 30 },
        },
      });
    else if (k === 3)
      out.push({
        turnId,
        step,
        role: 'tool',
        type: 'tool_result',
        data: {
          callId: `call_${i}`,
          name: 'shell',
          result: { exitCode: 0, stdout: 'logs/x.txt:12: error: something broke\n'.repeat(3) },
        },
      });
    else
      out.push({
        turnId,
        step,
        role: 'assistant',
        type: 'text',
        data: { text: `Found it. ${'The failing step is the type check. '.repeat(5)}` },
      });
  }
  return out;
}

const insert = raw.prepare(
  'insert into chunklog_chunks (thread_id, seq, turn_id, step, role, type, data, created_at, version) values (?, ?, ?, ?, ?, ?, ?, ?, 1)',
);
const insertTurn = raw.transaction((threadId: string, first: number, drafts: ChunkRowDraft[]) => {
  const now = Date.now();
  for (let i = 0; i < drafts.length; i++) {
    const d = drafts[i] as ChunkRowDraft;
    insert.run(threadId, first + i, d.turnId, d.step, d.role, d.type, JSON.stringify(d.data), now);
  }
});
raw
  .prepare(
    'insert into chunklog_threads (id, created_at, updated_at, next_seq) values (?, ?, ?, 1)',
  )
  .run('raw-append', Date.now(), Date.now());

// 1. appendTurn of 50-row turns, then of realistic 7-row turns.
let batch = 0;
let rawSeq = 1;
if (onSqlite) {
  for (const [rowsPerTurn, turns, least] of [
    [50, quick ? 10 : 40, 0.7],
    [7, quick ? 50 : 200, 0.5],
  ] as const) {
    await compare({
      title: `appendTurn: ${turns} turns of ${rowsPerTurn} rows, one transaction per turn (SQLite file, WAL, synchronous=${synchronous})`,
      baseline: {
        name: 'raw better-sqlite3 prepared inserts',
        prepare: () =>
          Array.from({ length: turns }, (_, i) => turn(`raw-${batch}-${i}`, rowsPerTurn)),
        run: (drafts: ChunkRowDraft[][]) => {
          batch++;
          for (const one of drafts) {
            insertTurn('raw-append', rawSeq, one);
            rawSeq += one.length;
          }
        },
      },
      contenders: [
        {
          name: 'store.appendTurn',
          prepare: () =>
            Array.from({ length: turns }, (_, i) => turn(`store-${batch}-${i}`, rowsPerTurn)),
          run: async (drafts: ChunkRowDraft[][]) => {
            batch++;
            for (const one of drafts) await store.appendTurn('store-append', one);
          },
        },
      ],
      perItem: { 'raw better-sqlite3 prepared inserts': turns, 'store.appendTurn': turns },
      limits: [{ contender: 'store.appendTurn', throughputAtLeast: least }],
    });
  }
}

// 2. A page of 50 on a 10,000-row thread.
const PAGE_THREAD = 'page-thread';
if (onSqlite) {
  for (let t = 0; t < 200; t++) await store.appendTurn(PAGE_THREAD, turn(`page-${t}`, 50));
}
const keyset = raw.prepare(
  'select seq, turn_id, step, role, type, data, created_at from chunklog_chunks where thread_id = ? and seq < ? order by seq desc limit ?',
);
const PAGES = quick ? 100 : 400;
const befores = Array.from({ length: PAGES }, (_, i) => 51 + ((i * 7919) % 9900));
if (onSqlite) {
  await compare({
    title: `a page of 50: ${PAGES} pages at scattered depths of a 10,000-row thread`,
    baseline: {
      name: 'raw keyset query + JSON.parse of each row',
      run: () => {
        let n = 0;
        for (const before of befores) {
          const rows = keyset.all(PAGE_THREAD, before, 50) as Array<{ data: string }>;
          for (const row of rows) n += JSON.parse(row.data) === null ? 0 : 1;
        }
        return n;
      },
    },
    contenders: [
      {
        name: 'store.getChunks (validated rows, total included)',
        run: async () => {
          let n = 0;
          for (const before of befores)
            n += (await store.getChunks(PAGE_THREAD, { limit: 50, before })).chunks.length;
          return n;
        },
      },
    ],
    perItem: {
      'raw keyset query + JSON.parse of each row': PAGES,
      'store.getChunks (validated rows, total included)': PAGES,
    },
    rounds: 31,
    limits: [{ contender: 'store.getChunks (validated rows, total included)', atMost: 1.2 }],
  });
}

if (onSqlite) {
  // 3. A 1,000,000-row thread: a page at its start vs at its end. Built by a bulk insert.
  const BIG = 'million';
  const BIG_ROWS = 1_000_000;
  {
    const started = performance.now();
    const rows = turn('fixture', 50).map(
      (d) => [d.step, d.role, d.type, JSON.stringify(d.data)] as const,
    );
    const now = Date.now();
    raw
      .prepare(
        'insert into chunklog_threads (id, created_at, updated_at, next_seq) values (?, ?, ?, ?)',
      )
      .run(BIG, now, now, BIG_ROWS + 1);
    const bulk = raw.prepare(
      `insert into chunklog_chunks (thread_id, seq, turn_id, step, role, type, data, created_at, version) values ${Array.from({ length: 100 }, () => '(?, ?, ?, ?, ?, ?, ?, ?, 1)').join(', ')}`,
    );
    raw.transaction(() => {
      const params: unknown[] = [];
      for (let seq = 1; seq <= BIG_ROWS; seq++) {
        const [step, role, type, data] = rows[(seq - 1) % 50] as (typeof rows)[number];
        params.push(BIG, seq, `turn-${Math.floor((seq - 1) / 50)}`, step, role, type, data, now);
        if (params.length === 800) {
          bulk.run(params);
          params.length = 0;
        }
      }
    })();
    console.log(
      `\n(fixture: ${BIG_ROWS.toLocaleString('en')} rows bulk-inserted in ${((performance.now() - started) / 1000).toFixed(1)} s)`,
    );
  }
  const DEEP = quick ? 200 : 1000;
  await compare({
    title: `a page of 50 at the start vs at the end of a ${BIG_ROWS.toLocaleString('en')}-row thread (${DEEP} pages each)`,
    baseline: {
      name: 'getChunks at the end (newest rows)',
      run: async () => {
        for (let i = 0; i < DEEP; i++) await store.getChunks(BIG, { limit: 50 });
      },
    },
    contenders: [
      {
        name: 'getChunks at the start (before: 51)',
        run: async () => {
          for (let i = 0; i < DEEP; i++) await store.getChunks(BIG, { limit: 50, before: 51 });
        },
      },
    ],
    limits: [{ contender: 'getChunks at the start (before: 51)', atMost: 1.5 }],
  });
}

raw.close();
await store.close();
rmSync(dir, { recursive: true, force: true });

// 4 and 5: PostgreSQL.
const url = process.env.CHUNKLOG_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const pool = new pg.Pool({ connectionString: url, max: 4 });
const db = new Kysely<unknown>({ dialect: new PostgresDialect({ pool }) });
const reachable = await sql`select 1`.execute(db).then(
  () => true,
  () => false,
);
if (reachable && onPostgres) {
  const prefix = `bench${Math.random().toString(36).slice(2, 8)}_`;
  const pgStore = createChunkStore({ db }, { tablePrefix: prefix });
  await pgStore.migrate();
  try {
    await postgresFigures(prefix, pgStore);
  } finally {
    await pgStore.close();
    await dropStoreTables(db, prefix);
  }
} else {
  console.log('[bench] PostgreSQL is not reachable: the PostgreSQL figures are skipped.');
}
await db.destroy();

async function postgresFigures(prefix: string, pgStore: ReturnType<typeof createChunkStore>) {
  const threads = `${prefix}threads`;
  const chunks = `${prefix}chunks`;
  const now = Date.now();
  await pool.query(
    `insert into ${threads} (id, created_at, updated_at, next_seq) values ($1, $2, $2, 1)`,
    ['raw-append', now],
  );
  await pgStore.appendTurn('store-append', turn('first', 7));
  const ROWS = 7;
  const TURNS = quick ? 10 : 40;
  const values = Array.from(
    { length: ROWS },
    (_, r) => `(${Array.from({ length: 9 }, (_, c) => `$${r * 9 + c + 1}`).join(', ')})`,
  ).join(', ');
  const insertSql = `insert into ${chunks} (thread_id, seq, turn_id, step, role, type, data, created_at, version) values ${values}`;
  /** The same writes by hand: lock and read next_seq, one multi-row insert, advance the thread. */
  const handWritten = async (threadId: string, drafts: ChunkRowDraft[]) => {
    const client = await pool.connect();
    try {
      await client.query('begin isolation level read committed');
      const { rows } = await client.query(
        `select next_seq from ${threads} where id = $1 for update`,
        [threadId],
      );
      const first = Number(rows[0].next_seq);
      const at = Date.now();
      const params: unknown[] = [];
      drafts.forEach((d, i) => {
        params.push(
          threadId,
          first + i,
          d.turnId,
          d.step,
          d.role,
          d.type,
          JSON.stringify(d.data),
          at,
          1,
        );
      });
      await client.query(insertSql, params);
      await client.query(`update ${threads} set next_seq = $1, updated_at = $2 where id = $3`, [
        first + drafts.length,
        at,
        threadId,
      ]);
      await client.query('commit');
    } catch (error) {
      await client.query('rollback');
      throw error;
    } finally {
      client.release();
    }
  };
  let round = 0;
  await compare({
    title: `appendTurn on PostgreSQL: ${TURNS} turns of ${ROWS} rows, one transaction per turn`,
    baseline: {
      name: 'hand-written pg transaction, same writes',
      prepare: () => Array.from({ length: TURNS }, (_, i) => turn(`raw-${round}-${i}`, ROWS)),
      run: async (turns: ChunkRowDraft[][]) => {
        round++;
        for (const drafts of turns) await handWritten('raw-append', drafts);
      },
    },
    contenders: [
      {
        name: 'store.appendTurn (PostgreSQL)',
        prepare: () => Array.from({ length: TURNS }, (_, i) => turn(`store-${round}-${i}`, ROWS)),
        run: async (turns: ChunkRowDraft[][]) => {
          round++;
          for (const drafts of turns) await pgStore.appendTurn('store-append', drafts);
        },
      },
    ],
    perItem: {
      'hand-written pg transaction, same writes': TURNS,
      'store.appendTurn (PostgreSQL)': TURNS,
    },
    limits: [{ contender: 'store.appendTurn (PostgreSQL)', atMost: 1.2 }],
  });

  // 5. A page of 50 on a 10,000-row thread.
  for (let t = 0; t < 200; t++) await pgStore.appendTurn(PAGE_THREAD, turn(`page-${t}`, 50));
  // The planner's statistics, as autovacuum gathers them within a minute of such a load. Without
  // them PostgreSQL guesses a handful of rows per thread and answers a keyset page by sorting every
  // row below `before` (a bitmap scan, thousands of rows): both sides then time that scan, about
  // 2.5 ms a page instead of 0.4, and their ratio says little about the store.
  await pool.query(`analyze ${chunks}; analyze ${threads}; analyze ${prefix}turns`);
  const PG_PAGES = quick ? 50 : 200;
  const pgBefores = befores.slice(0, PG_PAGES);
  const keysetSql = `select seq, turn_id, step, role, type, data, created_at from ${chunks} where thread_id = $1 and seq < $2 order by seq desc limit $3`;
  // What a page answers besides its rows, asked in the same statement as the store asks it: the
  // thread's next seq (for `total`) and each row's turn status when the turn is not completed.
  // Printed without a limit: it splits the store's figure into the SQL's part and the rest.
  const pageSql = `select seq, turn_id, step, role, type, data, created_at, version, (select next_seq from ${threads} where id = $1) as thread_next_seq, (select status from ${prefix}turns t where t.thread_id = ${chunks}.thread_id and t.turn_id = ${chunks}.turn_id and t.status <> 'completed') as turn_status from ${chunks} where thread_id = $1 and seq < $2 order by seq desc limit $3`;
  await compare({
    title: `a page of 50 on PostgreSQL: ${PG_PAGES} pages at scattered depths of a 10,000-row thread`,
    baseline: {
      name: 'raw keyset query + JSON.parse of each row (PostgreSQL)',
      run: async () => {
        let n = 0;
        for (const before of pgBefores) {
          // pg parses each row's jsonb data with JSON.parse as it reads it.
          const { rows } = await pool.query(keysetSql, [PAGE_THREAD, before, 50]);
          for (const row of rows as Array<{ data: unknown }>) n += row.data === null ? 0 : 1;
        }
        return n;
      },
    },
    contenders: [
      {
        name: 'raw page query with next_seq and turn statuses + JSON.parse',
        run: async () => {
          let n = 0;
          for (const before of pgBefores) {
            const { rows } = await pool.query(pageSql, [PAGE_THREAD, before, 50]);
            for (const row of rows as Array<{ data: unknown }>) n += row.data === null ? 0 : 1;
          }
          return n;
        },
      },
      {
        name: 'store.getChunks (PostgreSQL)',
        run: async () => {
          let n = 0;
          for (const before of pgBefores)
            n += (await pgStore.getChunks(PAGE_THREAD, { limit: 50, before })).chunks.length;
          return n;
        },
      },
    ],
    perItem: {
      'raw keyset query + JSON.parse of each row (PostgreSQL)': PG_PAGES,
      'raw page query with next_seq and turn statuses + JSON.parse': PG_PAGES,
      'store.getChunks (PostgreSQL)': PG_PAGES,
    },
    limits: [{ contender: 'store.getChunks (PostgreSQL)', atMost: 1.2 }],
  });
}
