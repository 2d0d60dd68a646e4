// Step durability: a 5-step turn through the session with `durability: 'step'` (the user's
// message at the start, one write per step) against `'turn'` (one write at the end), and bare
// `streamText` for scale, side by side — on the SQLite file (synchronous=normal and full) and on
// PostgreSQL (skipped when no server answers). The baseline is `'turn'`.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stepCountIs, streamText, tool } from 'ai';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { z } from 'zod';
import { createAgentSession, type SessionDurability } from '../src/entries/session.js';
import { type ChunkStore, createChunkStore } from '../src/store/index.js';
import { createScriptedModel, type ScriptedStep } from '../src/testing/index.js';
import { dropStoreTables } from '../test/support/drop-store-tables.js';
import { compare } from './harness.js';

const words = (count: number, seed: string) =>
  Array.from({ length: count }, (_, i) => `${seed}${i % 7 === 0 ? '.' : ''} `);

const steps: ScriptedStep[] = [
  {
    parts: [
      { type: 'reasoning', text: words(60, 'think'), signature: 'sig-1' },
      { type: 'tool-call', toolName: 'read_file', input: { path: 'src/a.ts' } },
      { type: 'tool-call', toolName: 'read_file', input: { path: 'src/b.ts' } },
    ],
  },
  { parts: [{ type: 'tool-call', toolName: 'list_files', input: { dir: 'src' } }] },
  {
    parts: [
      { type: 'text', text: words(40, 'say') },
      { type: 'tool-call', toolName: 'read_file', input: { path: 'src/c.ts' } },
    ],
  },
  { parts: [{ type: 'tool-call', toolName: 'list_files', input: { dir: 'test' } }] },
  { parts: [{ type: 'text', text: words(200, 'answer') }] },
];

const tools = {
  read_file: tool({
    inputSchema: z.object({ path: z.string() }),
    execute: async ({ path }) => `// ${path}\nexport function f() {}\n`.repeat(10),
  }),
  list_files: tool({
    inputSchema: z.object({ dir: z.string() }),
    execute: async () => ['a.ts', 'b.ts', 'c.ts'],
  }),
};
const question = 'What do the files export?';
const model = () => createScriptedModel(steps, { provider: 'test', modelId: 'bench' });
let thread = 0;

function contender(name: string, store: ChunkStore, durability: SessionDurability) {
  return {
    name,
    prepare: () =>
      createAgentSession({
        store,
        threadId: `durability-${++thread}`,
        model: model(),
        tools,
        caching: 'none',
        durability,
      }),
    run: async (session: ReturnType<typeof createAgentSession>) => {
      await session.send(question).rows;
    },
  };
}

const bare = {
  name: 'streamText().stream consumed',
  prepare: model,
  run: async (scripted: ReturnType<typeof model>) => {
    const result = streamText({
      model: scripted,
      tools,
      messages: [{ role: 'user', content: [{ type: 'text', text: question }] }],
      stopWhen: stepCountIs(20),
      onError: () => {},
    });
    for await (const _part of result.stream) {
      // consume
    }
  },
};

async function compareOn(label: string, store: ChunkStore, limit: boolean) {
  const turn = contender(`'turn' durability (${label})`, store, 'turn');
  const step = contender(`'step' durability (${label})`, store, 'step');
  await compare({
    title: `durability: a 5-step turn on ${label} — 'step' vs 'turn' (baseline) vs bare streamText`,
    baseline: turn,
    contenders: [step, bare],
    rounds: 40,
    warmup: 5,
    limits: limit ? [{ contender: step.name, atMost: 1.3 }] : [],
  });
}

const dir = mkdtempSync(join(tmpdir(), 'chunklog-durability-bench-'));
const normal = createChunkStore({ sqlite: join(dir, 'normal.db') }, { synchronous: 'normal' });
const full = createChunkStore({ sqlite: join(dir, 'full.db') });
await normal.migrate();
await full.migrate();
await compareOn('SQLite, synchronous=normal', normal, true);
// Printed, not limited: with synchronous=full every write is an fsync, which 'step' does per step.
await compareOn('SQLite, synchronous=full', full, false);
await normal.close();
await full.close();
rmSync(dir, { recursive: true, force: true });

const url = process.env.CHUNKLOG_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const db = new Kysely<unknown>({
  dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url, max: 4 }) }),
});
const reachable = await sql`select 1`.execute(db).then(
  () => true,
  () => false,
);
if (reachable) {
  const prefix = `bench${Math.random().toString(36).slice(2, 8)}_`;
  const store = createChunkStore({ db }, { tablePrefix: prefix });
  await store.migrate();
  try {
    await compareOn('PostgreSQL', store, true);
  } finally {
    await store.close();
    await dropStoreTables(db, prefix);
  }
} else {
  console.log('[bench] PostgreSQL is not reachable: the PostgreSQL comparison is skipped.');
}
await db.destroy();
