// Forks by reference (notes/0088), on an SQLite file in WAL mode:
//   1. forkThread of a 1,000,000-row thread vs forkThread of a 10-row thread: a fork writes one
//      thread row whatever the length (within 2× of the small fork, and at most 50 ms);
//   2. a page of 50 at scattered depths of a fork three levels deep vs the same page of a plain
//      thread holding the same 10,000 rows (within 1.3×). The fork's path is four stretches of
//      2,500 rows (the root's, then each fork's own), so pages fall in each and across them.
// The big thread is built by a bulk insert on a raw better-sqlite3 connection to the same file.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import type { ChunkRowDraft } from '../src/schema/chunk-row.js';
import { createChunkStore } from '../src/store/index.js';
import { compare, record } from './harness.js';

const quick = process.env.BENCH_QUICK === '1';
const dir = mkdtempSync(join(tmpdir(), 'chunklog-bench-fork-'));
const file = join(dir, 'bench.db');
const store = createChunkStore({ sqlite: file });
await store.migrate();
const raw = new Database(file, { timeout: 5000 });
raw.pragma('journal_mode = WAL');

/** A turn of `rows` rows: the user's message, then tool calls, results and text in turn. */
function turn(turnId: string, rows: number): ChunkRowDraft[] {
  return Array.from({ length: rows }, (_, i): ChunkRowDraft => {
    if (i === 0) {
      return { turnId, step: 0, role: 'user', type: 'text', data: { text: `Question ${turnId}` } };
    }
    const step = Math.floor(i / 3);
    if (i % 3 === 1) {
      return {
        turnId,
        step,
        role: 'assistant',
        type: 'tool_call',
        data: { id: `c${i}`, name: 'shell', index: 0, input: { command: `grep -rn x ${i}` } },
      };
    }
    if (i % 3 === 2) {
      return {
        turnId,
        step,
        role: 'tool',
        type: 'tool_result',
        data: { callId: `c${i}`, name: 'shell', result: { stdout: 'a match\n'.repeat(4) } },
      };
    }
    return {
      turnId,
      step,
      role: 'assistant',
      type: 'text',
      data: { text: 'Here is what I found. '.repeat(6) },
    };
  });
}

// 1. The 1,000,000-row thread, bulk-inserted (turns of 50 rows).
const BIG = 'million';
const BIG_ROWS = 1_000_000;
{
  const started = performance.now();
  const rows = turn('fixture', 50).map((d) => [d.step, d.role, d.type, JSON.stringify(d.data)]);
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
      const [step, role, type, data] = rows[(seq - 1) % 50] as unknown[];
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
const SMALL = 'small';
await store.appendTurn(SMALL, turn('s0', 10));

let forks = 0;
const FORKS = quick ? 5 : 20;
const forkComparison = await compare({
  title: `forkThread: ${FORKS} forks of a ${BIG_ROWS.toLocaleString('en')}-row thread vs of a 10-row thread`,
  baseline: {
    name: 'forkThread of a 10-row thread',
    run: async () => {
      for (let i = 0; i < FORKS; i++)
        await store.forkThread(SMALL, { atSeq: 10, newThreadId: `s-${forks++}` });
    },
  },
  contenders: [
    {
      name: 'forkThread of a 1,000,000-row thread (at its end)',
      run: async () => {
        for (let i = 0; i < FORKS; i++) {
          await store.forkThread(BIG, { atSeq: BIG_ROWS, newThreadId: `b-${forks++}` });
        }
      },
    },
  ],
  perItem: {
    'forkThread of a 10-row thread': FORKS,
    'forkThread of a 1,000,000-row thread (at its end)': FORKS,
  },
  limits: [{ contender: 'forkThread of a 1,000,000-row thread (at its end)', atMost: 2 }],
});
const perFork =
  (forkComparison.medians['forkThread of a 1,000,000-row thread (at its end)'] ?? 0) / FORKS;
record('forkThread of a 1,000,000-row thread, one fork', [
  {
    ok: perFork <= 50,
    text: `  ${perFork <= 50 ? 'PASS' : 'MISS'} forkThread of a 1,000,000-row thread: ${perFork.toFixed(2)} ms a fork (≤ 50 ms)`,
  },
]);

// 2. A page of 50 on a fork three levels deep vs on a plain thread of the same rows.
const PLAIN = 'plain';
const [ROOT, F1, F2, F3] = ['root', 'fork-1', 'fork-2', 'fork-3'];
const TURNS = 200; // of 50 rows: 10,000 rows
for (let t = 0; t < TURNS; t++) {
  const drafts = turn(`turn-${t}`, 50);
  await store.appendTurn(PLAIN, drafts);
  const owner = t < 50 ? ROOT : t < 100 ? F1 : t < 150 ? F2 : F3;
  if (t === 50) await store.forkThread(ROOT, { atSeq: 2500, newThreadId: F1 });
  if (t === 100) await store.forkThread(F1, { atSeq: 5000, newThreadId: F2 });
  if (t === 150) await store.forkThread(F2, { atSeq: 7500, newThreadId: F3 });
  await store.appendTurn(owner as string, drafts);
}
const PAGES = quick ? 100 : 400;
const befores = Array.from({ length: PAGES }, (_, i) => 51 + ((i * 7919) % 9900));
const same = (await store.getChunks(F3 as string, { limit: 50, before: 2520 })).chunks.map(
  (r) => r.seq,
);
if (same[0] !== 2470 || same.at(-1) !== 2519) throw new Error('the fork does not read its path');
const pagesOf = (threadId: string) => async () => {
  let n = 0;
  for (const before of befores)
    n += (await store.getChunks(threadId, { limit: 50, before })).chunks.length;
  return n;
};
await compare({
  title: `a page of 50: ${PAGES} pages at scattered depths of 10,000 rows, plain thread vs a fork three levels deep`,
  baseline: { name: 'getChunks on a plain thread', run: pagesOf(PLAIN) },
  contenders: [{ name: 'getChunks on a fork three levels deep', run: pagesOf(F3 as string) }],
  perItem: {
    'getChunks on a plain thread': PAGES,
    'getChunks on a fork three levels deep': PAGES,
  },
  rounds: 21,
  limits: [{ contender: 'getChunks on a fork three levels deep', atMost: 1.3 }],
});

raw.close();
await store.close();
rmSync(dir, { recursive: true, force: true });
