// The chunk store on an SQLite file in WAL mode, side by side with raw better-sqlite3:
//   1. appendTurn of 50-row turns vs prepared inserts of the same rows, one transaction per turn
//      (at least 0.6× their throughput);
//   2. a page of 50 (getChunks, `total` included) vs the same keyset query run raw plus JSON.parse
//      of each row's data (within 1.3×);
//   3. a page at the start of a 1,000,000-row thread vs one at its end (within 1.5×: flat).
// Both sides use the same file and the same settings (WAL, synchronous as in STORE_SYNCHRONOUS,
// default NORMAL so that the figures measure the store and not the disk's fsync).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { ChunkRowDraft } from '../src/schema/chunk-row.js';
import { createChunkStore } from '../src/store/index.js';
import { compare } from './harness.js';

const quick = process.env.BENCH_QUICK === '1';
const synchronous = process.env.STORE_SYNCHRONOUS === 'full' ? 'full' : 'normal';
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

// 1. appendTurn of 50-row turns.
const TURNS = quick ? 10 : 40;
let batch = 0;
let rawSeq = 1;
await compare({
  title: `appendTurn: ${TURNS} turns of 50 rows, one transaction per turn (SQLite file, WAL, synchronous=${synchronous})`,
  baseline: {
    name: 'raw better-sqlite3 prepared inserts',
    prepare: () => Array.from({ length: TURNS }, (_, i) => turn(`raw-${batch}-${i}`, 50)),
    run: (turns: ChunkRowDraft[][]) => {
      batch++;
      for (const drafts of turns) {
        insertTurn('raw-append', rawSeq, drafts);
        rawSeq += drafts.length;
      }
    },
  },
  contenders: [
    {
      name: 'store.appendTurn',
      prepare: () => Array.from({ length: TURNS }, (_, i) => turn(`store-${batch}-${i}`, 50)),
      run: async (turns: ChunkRowDraft[][]) => {
        batch++;
        for (const drafts of turns) await store.appendTurn('store-append', drafts);
      },
    },
  ],
  perItem: { 'raw better-sqlite3 prepared inserts': TURNS, 'store.appendTurn': TURNS },
  limits: [{ contender: 'store.appendTurn', throughputAtLeast: 0.6 }],
});

// 2. A page of 50 on a 10,000-row thread.
const PAGE_THREAD = 'page-thread';
for (let t = 0; t < 200; t++) await store.appendTurn(PAGE_THREAD, turn(`page-${t}`, 50));
const keyset = raw.prepare(
  'select seq, turn_id, step, role, type, data, created_at from chunklog_chunks where thread_id = ? and seq < ? order by seq desc limit ?',
);
const PAGES = quick ? 100 : 400;
const befores = Array.from({ length: PAGES }, (_, i) => 51 + ((i * 7919) % 9900));
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
  limits: [{ contender: 'store.getChunks (validated rows, total included)', atMost: 1.3 }],
});

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

raw.close();
await store.close();
rmSync(dir, { recursive: true, force: true });
