// Encryption at rest (issue 34, notes/0087), on SQLite files in WAL mode, each figure against the
// same work on a store without encryption, in the same process and run:
//   1. appendTurn of realistic 7-row turns, encrypted ÷ clear: within 1.3×;
//   2. a page of 50 (getChunks) at scattered depths of a 10,000-row thread, encrypted ÷ clear:
//      within 1.3×;
//   (1 and 2 again on PostgreSQL, when a server answers;)
//   3. erasing a 100,000-row thread (eraseThread: destroy its key, delete everything) ÷ deleting
//      a clear one of the same rows (deleteThread): within 1.3×, and its time.
// Both stores use the same settings (synchronous NORMAL, as store.bench.ts, so that the figures
// measure the store and not the disk's fsync).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import type { ChunkRowDraft } from '../src/schema/chunk-row.js';
import { type ChunkStore, createChunkStore, createMemoryKeyProvider } from '../src/store/index.js';
import { dropStoreTables } from '../test/support/drop-store-tables.js';
import { compare } from './harness.js';

const quick = process.env.BENCH_QUICK === '1';
const dir = mkdtempSync(join(tmpdir(), 'chunklog-bench-enc-'));
const keys = createMemoryKeyProvider();
const files = { clear: join(dir, 'clear.db'), sealed: join(dir, 'sealed.db') };
const clear = createChunkStore({ sqlite: files.clear }, { synchronous: 'normal' });
const sealed = createChunkStore(
  { sqlite: files.sealed },
  { synchronous: 'normal', encryption: { keys } },
);
await clear.migrate();
await sealed.migrate();

/** A realistic turn: a user message, then thinking, a tool call, its result and text per step. */
function turn(turnId: string, rows: number): ChunkRowDraft[] {
  const out: ChunkRowDraft[] = [
    {
      turnId,
      step: 0,
      role: 'user',
      type: 'text',
      data: { text: `Please look into this: ${'the build fails on CI. '.repeat(4)}` },
    },
  ];
  for (let i = 1; out.length < rows; i++) {
    const step = Math.floor(i / 4);
    const call = `call_${i}`;
    const kinds: ChunkRowDraft[] = [
      {
        turnId,
        step,
        role: 'assistant',
        type: 'thinking',
        data: {
          text: 'Let me check the logs first. '.repeat(6),
          providerMetadata: { anthropic: { signature: 'EqQBCkYIBxgCKkB'.repeat(8) } },
        },
      },
      {
        turnId,
        step,
        role: 'assistant',
        type: 'tool_call',
        data: { id: call, name: 'shell', index: 0, input: { command: `grep -rn error ${i}` } },
      },
      {
        turnId,
        step,
        role: 'tool',
        type: 'tool_result',
        data: { callId: call, name: 'shell', result: 'logs/x.txt:12: error\n'.repeat(3) },
      },
      {
        turnId,
        step,
        role: 'assistant',
        type: 'text',
        data: { text: `Found it. ${'The failing step is the type check. '.repeat(5)}` },
      },
    ];
    out.push(kinds[(i - 1) % 4] as ChunkRowDraft);
  }
  return out;
}

/** Figures 1 and 2 on one database: `clear` and `sealed` are stores over it. */
async function appendAndPages(where: string, clear: ChunkStore, sealed: ChunkStore) {
  // 1. appendTurn of 7-row turns.
  const TURNS = quick ? 50 : 200;
  let batch = 0;
  const appendOn = (store: ChunkStore, name: string) => ({
    name,
    prepare: () => Array.from({ length: TURNS }, (_, i) => turn(`t-${batch}-${i}`, 7)),
    run: async (drafts: ChunkRowDraft[][]) => {
      batch++;
      for (const one of drafts) await store.appendTurn('append', one);
    },
  });
  await compare({
    title: `appendTurn with encryption: ${TURNS} turns of 7 rows, one transaction per turn (${where})`,
    baseline: appendOn(clear, 'clear store.appendTurn'),
    contenders: [appendOn(sealed, 'encrypted store.appendTurn')],
    perItem: { 'clear store.appendTurn': TURNS, 'encrypted store.appendTurn': TURNS },
    limits: [{ contender: 'encrypted store.appendTurn', atMost: 1.3 }],
  });

  // 2. A page of 50 on a 10,000-row thread.
  for (const store of [clear, sealed]) {
    for (let t = 0; t < 200; t++) await store.appendTurn('pages', turn(`p-${t}`, 50));
  }
  const PAGES = quick ? 100 : 400;
  const befores = Array.from({ length: PAGES }, (_, i) => 51 + ((i * 7919) % 9900));
  const pagesOn = (store: ChunkStore, name: string) => ({
    name,
    run: async () => {
      let n = 0;
      for (const before of befores) {
        n += (await store.getChunks('pages', { limit: 50, before })).chunks.length;
      }
      return n;
    },
  });
  await compare({
    title: `a page of 50 with encryption: ${PAGES} pages at scattered depths of a 10,000-row thread (${where})`,
    baseline: pagesOn(clear, 'clear store.getChunks'),
    contenders: [pagesOn(sealed, 'encrypted store.getChunks')],
    perItem: { 'clear store.getChunks': PAGES, 'encrypted store.getChunks': PAGES },
    rounds: 31,
    limits: [{ contender: 'encrypted store.getChunks', atMost: 1.3 }],
  });
}

await appendAndPages('SQLite file, WAL', clear, sealed);

// 3. Erasing a 100,000-row thread. Each sample erases a fresh copy of a thread written through
// the store (copied by SQL, not timed: a copy's rows do not decrypt under its id, but erasing
// reads none), with a key of its own.
const BIG_ROWS = quick ? 20_000 : 100_000;
for (const store of [clear, sealed]) {
  for (let t = 0; t < BIG_ROWS / 50; t++) await store.appendTurn('big', turn(`b-${t}`, 50));
}
const raws = { clear: new Database(files.clear), sealed: new Database(files.sealed) };
let copies = 0;
const copyBig = (db: Database.Database): string => {
  const id = `big-copy-${copies++}`;
  db.transaction(() => {
    const now = Date.now();
    db.prepare(
      'insert into chunklog_threads (id, created_at, updated_at, next_seq) values (?, ?, ?, ?)',
    ).run(id, now, now, BIG_ROWS + 1);
    db.prepare(
      `insert into chunklog_chunks (thread_id, seq, turn_id, step, role, type, data, created_at, version)
       select ?, seq, turn_id, step, role, type, data, created_at, version from chunklog_chunks where thread_id = 'big'`,
    ).run(id);
  })();
  return id;
};
await compare({
  title: `erasing a ${BIG_ROWS.toLocaleString('en')}-row thread: eraseThread (key destroyed, rows deleted) vs deleteThread of a clear one`,
  baseline: {
    name: 'clear store.deleteThread',
    prepare: () => copyBig(raws.clear),
    run: (id: string) => clear.deleteThread(id),
  },
  contenders: [
    {
      name: 'encrypted store.eraseThread',
      prepare: async () => {
        const id = copyBig(raws.sealed);
        await keys.createKey(id);
        return id;
      },
      run: (id: string) => sealed.eraseThread(id),
    },
  ],
  rounds: 5,
  warmup: 1,
  limits: [{ contender: 'encrypted store.eraseThread', atMost: 1.3 }],
});

raws.clear.close();
raws.sealed.close();
await clear.close();
await sealed.close();
rmSync(dir, { recursive: true, force: true });

// 1 and 2 on PostgreSQL (skipped when no server answers), each store under its own prefix.
const url = process.env.CHUNKLOG_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const db = new Kysely<unknown>({
  dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url, max: 4 }) }),
});
if (
  await sql`select 1`.execute(db).then(
    () => true,
    () => false,
  )
) {
  const prefixes = [0, 1].map(() => `bench${Math.random().toString(36).slice(2, 8)}_`);
  const [pgClear, pgSealed] = [
    createChunkStore({ db }, { tablePrefix: prefixes[0] }),
    createChunkStore({ db }, { tablePrefix: prefixes[1], encryption: { keys } }),
  ] as const;
  try {
    await pgClear.migrate();
    await pgSealed.migrate();
    await appendAndPages('PostgreSQL', pgClear, pgSealed);
  } finally {
    for (const prefix of prefixes) await dropStoreTables(db, prefix as string);
  }
} else {
  console.log('[bench] PostgreSQL is not reachable: the PostgreSQL figures are skipped.');
}
await db.destroy();
