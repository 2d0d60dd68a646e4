// Model input and the store at speed (issue 15), each figure side by side in one run:
//   1. a whole session turn on a thread of 5,000 stored turns vs on one of 10, then where the
//      difference goes (the AI SDK's own per-call work, timed beside a bare streamText with the
//      same prompt): the session turn over bare streamText must not grow by more than 1.2× from
//      10 to 5,000 turns; and the same turn under a 16k-token context budget (≤ 1.2×);
//   2. a cold rebuild (a new process: read the thread, group, toModelMessages) vs the AI SDK's
//      load (JSON.parse of the thread's UIMessage[]) + convertToModelMessages, at 1,000 and
//      5,000 realistic turns (≤ 1.0×). The store reads the thread's older turns from its history
//      snapshots (notes/0076), which the seeding's whole-thread read wrote; printed beside it,
//      without a limit: the same from every row, and the read that writes the snapshot;
//   3. the AI SDK persistence comparison, printed as a table: persisting one turn (the AI SDK
//      guide keeps the chat's whole UIMessage[] as one JSON value), the first screen, and the
//      next model input, at 10 to 5,000 turns. > 1 means chunklog is faster.
// A realistic turn: the user's text, ~500 characters of reasoning, two tool calls with
// ~300-character results, ~800 characters of answer (seven rows).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { convertToModelMessages, type ModelMessage, streamText, type UIMessage } from 'ai';
import Database from 'better-sqlite3';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { createAgentSession } from '../src/entries/session.js';
import { modelMessagesOf } from '../src/model-messages/to-model-messages.js';
import { createChunkStore } from '../src/store/index.js';
import { createScriptedModel, type ScriptedStep } from '../src/testing/index.js';
import { groupRows, groupRowsToMessages } from '../src/transforms/group-rows.js';
import { toUIMessages } from '../src/ui-messages/index.js';
import { dropStoreTables } from '../test/support/drop-store-tables.js';
import { realisticDrafts, realisticTurn } from './cold-rebuild-shared.js';
import { type Comparison, compare, record } from './harness.js';

const quick = process.env.BENCH_QUICK === '1';
const dir = mkdtempSync(join(tmpdir(), 'chunklog-bench-history-'));
const file = join(dir, 'history.db');
const store = createChunkStore({ sqlite: file }, { synchronous: 'normal' });
await store.migrate();
// The AI SDK guide's persistence: one row per chat holding its UIMessage[] as JSON.
const raw = new Database(file, { timeout: 5000 });
raw.pragma('journal_mode = WAL');
raw.pragma('synchronous = NORMAL');
raw.exec('create table if not exists ai_sdk_chats (id text primary key, messages text not null)');
const saveChat = raw.prepare(
  'insert into ai_sdk_chats (id, messages) values (?, ?) on conflict (id) do update set messages = excluded.messages',
);
const loadChat = raw.prepare('select messages from ai_sdk_chats where id = ?').pluck();

/** A thread of `turns` realistic turns in both stores. */
async function seed(threadId: string, turns: number): Promise<void> {
  for (let i = 0; i < turns; i++) await store.appendTurn(threadId, realisticDrafts(i));
  saveChat.run(threadId, JSON.stringify(toUIMessages(await store.getMessages(threadId))));
}

const SIZES = quick ? [10, 100, 1000] : [10, 100, 1000, 5000];
for (const n of SIZES) await seed(`t${n}`, n);

// 2 and 3: each size, interleaved contenders. They run first, on a heap that holds nothing of
// the session figures below (whose sessions keep a 5,000-turn history in memory): a cold rebuild
// is a new process's work, and a heap grown by other work would tax the side that allocates more.
const coldName =
  'chunklog cold rebuild: getMessages (history snapshots + rows after) + model messages';
const rowsName = 'chunklog from every row: getRows + group + model messages (no limit)';
const firstName = 'chunklog first read, no snapshot yet: writes one at 1,000+ rows (no limit)';
const dropSnapshots = raw.prepare('delete from chunklog_snapshots where thread_id = ?');
// Each timed run reads the thread this many times: at 1,000 turns one read is ~14 ms and a
// collection falling in it or not moved a round's ratio from 0.9× to 1.4×; several reads a run
// hold some collections each (notes/0077 §4).
const COLD_PASSES = 3;
const rows: string[] = [];
const figure = (c: Comparison, name: string) => 1 / (c.ratios[name] as number);
let persistTurn = 1_000_000;
for (const n of SIZES) {
  const threadId = `t${n}`;
  const ai = await compare({
    title: `next model input of a ${n.toLocaleString('en')}-turn thread, from the database (a new process), ${COLD_PASSES} reads a run`,
    baseline: {
      name: 'AI SDK: load (JSON.parse UIMessage[]) + convertToModelMessages',
      run: async () => {
        for (let k = 0; k < COLD_PASSES; k++)
          await convertToModelMessages(JSON.parse(loadChat.get(threadId) as string) as UIMessage[]);
      },
    },
    contenders: [
      {
        name: coldName,
        run: async () => {
          for (let k = 0; k < COLD_PASSES; k++) modelMessagesOf(await store.getMessages(threadId));
        },
      },
      {
        name: rowsName,
        run: async () => {
          for (let k = 0; k < COLD_PASSES; k++)
            modelMessagesOf(groupRows(await store.getRows(threadId)));
        },
      },
      {
        // The read that finds no snapshot yet (a thread written since it was last read whole):
        // each pass drops the thread's snapshots first.
        name: firstName,
        run: async () => {
          for (let k = 0; k < COLD_PASSES; k++) {
            dropSnapshots.run(threadId);
            modelMessagesOf(await store.getMessages(threadId));
          }
        },
      },
    ],
    rounds: n >= 5000 ? 15 : 30,
    limits: n >= 1000 ? [{ contender: coldName, atMost: 1.0 }] : [],
  });
  const screen = await compare({
    title: `first screen of a ${n.toLocaleString('en')}-turn thread`,
    baseline: {
      name: 'AI SDK: load whole UIMessage[], keep the last 20',
      run: () => (JSON.parse(loadChat.get(threadId) as string) as UIMessage[]).slice(-20),
    },
    contenders: [
      {
        name: 'chunklog: getChunks(limit 50) + groupRowsToMessages',
        run: async () =>
          groupRowsToMessages((await store.getChunks(threadId, { limit: 50 })).chunks),
      },
    ],
    rounds: 30,
  });
  // Persisting one more turn: the whole chat rewritten, or the turn's rows appended.
  const uiNow = JSON.parse(loadChat.get(threadId) as string) as UIMessage[];
  const persist = await compare({
    title: `persist one turn on a ${n.toLocaleString('en')}-turn thread`,
    baseline: {
      name: 'AI SDK guide: save the whole UIMessage[] (stringify + upsert)',
      prepare: () => {
        const { user, assistant } = realisticTurn(persistTurn);
        const [u, a] = toUIMessages([
          { id: 'u', turnId: 'u', role: 'user', chunks: user },
          { id: 'a', turnId: 'u', role: 'assistant', chunks: assistant },
        ]);
        return [...uiNow, u, a];
      },
      run: (messages: UIMessage[]) => saveChat.run(`persist-${threadId}`, JSON.stringify(messages)),
    },
    contenders: [
      {
        name: 'chunklog: appendTurn (7 rows)',
        prepare: () => realisticDrafts(persistTurn++),
        run: (drafts: ReturnType<typeof realisticDrafts>) =>
          store.appendTurn(`persist-${threadId}`, drafts),
      },
    ],
    rounds: 30,
  });
  rows.push(
    `| ${n.toLocaleString('en').padStart(5)} turns | ${figure(persist, 'chunklog: appendTurn (7 rows)').toFixed(2)}× | ${figure(screen, 'chunklog: getChunks(limit 50) + groupRowsToMessages').toFixed(2)}× | ${figure(ai, coldName).toFixed(2)}× |`,
  );
}
console.log(
  '\nAI SDK persistence vs chunklog (AI SDK time ÷ chunklog time: > 1 means chunklog is faster)',
);
console.log('| thread length | persist one turn | first screen | next model input (cold) |');
console.log('|---|---|---|---|');
for (const row of rows) console.log(row);

// 1. A whole session turn, flat in the thread's length.
// The input token count is given, so that the scripted model does not serialize the prompt to
// derive it (a real provider's request body is the AI SDK's and the network's cost, not ours).
const step: ScriptedStep = {
  usage: { input: 1000, output: 200 },
  parts: [
    { type: 'reasoning', text: 'Checking the cache key. '.repeat(20), signature: 'sig' },
    { type: 'text', text: 'The cache key changed. '.repeat(30) },
  ],
};
// Under a budget the model must report the prompt's real size: the session trusts the stored
// usage of the last turn as the exact size of the history (a provider's own count), so a fixed
// `input: 1000` would tell it that 5,000 turns fit in 16k tokens, and it would send them all.
const measuredStep: ScriptedStep = { ...step, usage: { output: 200 } };
const sessionOn = (threadId: string, maxTokens?: number) => {
  const session = createAgentSession({
    store,
    threadId,
    model: createScriptedModel([maxTokens === undefined ? step : measuredStep], {
      repeat: true,
      keepCalls: 1,
    }),
    caching: 'none',
    ...(maxTokens === undefined ? {} : { contextBudget: { maxTokens } }),
  });
  return session;
};
const longest = SIZES[SIZES.length - 1] as number;
const short = sessionOn('t10');
const long = sessionOn(`t${longest}`);
// The first turn of each session reads its thread whole (a restart); the figure is the next ones.
await short.send('warm up').rows;
await long.send('warm up').rows;
await compare({
  title: `session: one turn on a thread of ${longest.toLocaleString('en')} stored turns vs of 10`,
  baseline: { name: 'session turn, 10 stored turns', run: () => short.send('next?').rows },
  contenders: [
    {
      name: `session turn, ${longest.toLocaleString('en')} stored turns`,
      run: () => long.send('next?').rows,
    },
  ],
  rounds: 40,
  warmup: 5,
  // No limit on this raw figure: the AI SDK validates and converts the whole prompt on every
  // streamText call, so a bare streamText with the 5,000-turn prompt is itself ~1.8× the 10-turn
  // one (measured next). The limit is on the session's own share (below) and on the budgeted
  // turn (1b), which is how a thread of thousands of turns runs: no model takes 5,000 turns.
});
// Where the rest goes: the AI SDK's own work per call (it validates and converts the whole prompt
// on every call), measured alone on the same history; the session's share is the difference.
const longPrompt = await long.modelMessages({ text: 'next?' });
const bare = createScriptedModel([step], { repeat: true, keepCalls: 1 });
/** One bare `streamText` call with `messages`, consumed to its end. */
async function bareTurn(messages: ModelMessage[]): Promise<void> {
  const result = streamText({ model: bare, messages, onError: () => {} });
  for await (const _part of result.stream) {
    // consume
  }
}
await compare({
  title: `session turn vs bare streamText with the same ${longest.toLocaleString('en')}-turn prompt (the AI SDK's own per-call cost)`,
  baseline: {
    name: `bare streamText, ${longest.toLocaleString('en')}-turn prompt`,
    run: () => bareTurn(longPrompt),
  },
  contenders: [
    {
      name: `session turn, ${longest.toLocaleString('en')} stored turns`,
      run: () => long.send('next?').rows,
    },
  ],
  rounds: 30,
  warmup: 3,
});
// Where the difference comes from: the session's own part (the turn minus bare streamText with
// the same prompt) at each length. Printed, no limit: a difference of two medians is noisy.
const ownShare = await compare({
  title: `the session's own part of a turn: 10 vs ${longest.toLocaleString('en')} stored turns (each turn beside bare streamText with its own prompt)`,
  baseline: { name: 'session turn, 10 stored turns', run: () => short.send('next?').rows },
  contenders: [
    {
      name: 'bare streamText, 10-turn prompt',
      prepare: () => short.modelMessages({ text: 'next?' }),
      run: (messages: Awaited<ReturnType<typeof short.modelMessages>>) => bareTurn(messages),
    },
    {
      name: `session turn, ${longest.toLocaleString('en')} stored turns`,
      run: () => long.send('next?').rows,
    },
    {
      name: `bare streamText, ${longest.toLocaleString('en')}-turn prompt`,
      prepare: () => long.modelMessages({ text: 'next?' }),
      run: (messages: Awaited<ReturnType<typeof long.modelMessages>>) => bareTurn(messages),
    },
  ],
  rounds: 30,
  warmup: 3,
});
const m = ownShare.medians;
const own10 =
  (m['session turn, 10 stored turns'] as number) - (m['bare streamText, 10-turn prompt'] as number);
const ownLong =
  (m[`session turn, ${longest.toLocaleString('en')} stored turns`] as number) -
  (m[`bare streamText, ${longest.toLocaleString('en')}-turn prompt`] as number);
console.log(
  `  the session's own part: ${own10.toFixed(2)} ms at 10 turns, ${ownLong.toFixed(2)} ms at ${longest.toLocaleString('en')} (${(ownLong / own10).toFixed(2)}×); the rest is the AI SDK converting the prompt on every call`,
);
// The limit: the session turn over bare streamText with the same prompt, at 5,000 stored turns
// over at 10 (a ratio of ratios of medians from the same interleaved rounds). 1 means the session
// adds as much, relative to the AI SDK call it makes, on a long thread as on a short one.
const overheadLong =
  (m[`session turn, ${longest.toLocaleString('en')} stored turns`] as number) /
  (m[`bare streamText, ${longest.toLocaleString('en')}-turn prompt`] as number);
const overheadShort =
  (m['session turn, 10 stored turns'] as number) / (m['bare streamText, 10-turn prompt'] as number);
const overheadGrowth = overheadLong / overheadShort;
record(`session turn over bare streamText: ${longest.toLocaleString('en')} vs 10 stored turns`, [
  {
    ok: overheadGrowth <= 1.2,
    text: `  ${overheadGrowth <= 1.2 ? 'PASS' : 'MISS'} session turn ÷ bare streamText: ${overheadShort.toFixed(2)}× at 10 stored turns, ${overheadLong.toFixed(2)}× at ${longest.toLocaleString('en')}; growth ${overheadGrowth.toFixed(2)}× (≤ 1.2×)`,
  },
]);
await short.close();
await long.close();

// 1b. The same under a context budget, as a thread of thousands of turns runs in production (no
// model takes the whole of it): both threads send a prompt of about the same size, so the turn
// must cost about the same.
const BUDGET = 16_000;
const shortBudgeted = sessionOn('t10', BUDGET);
const longBudgeted = sessionOn(`t${longest}`, BUDGET);
// The first budgeted turn trusts the usage the unbudgeted turns above stored (the scripted 1,000
// tokens) and sends the whole thread; its own stored usage is the real size, so the second cuts
// (a sentinel in the log) and every later one is read from that cut on.
for (let i = 0; i < 2; i++) {
  await shortBudgeted.send('warm up').rows;
  await longBudgeted.send('warm up').rows;
}
const keptOf = async (session: typeof shortBudgeted) =>
  (await session.modelMessages({ text: 'next?' })).length;
console.log(
  `  model messages sent under the budget: ${await keptOf(shortBudgeted)} on the short thread, ${await keptOf(longBudgeted)} on the long one`,
);
await compare({
  title: `session under a ${BUDGET.toLocaleString('en')}-token context budget: one turn on a thread of ${longest.toLocaleString('en')} stored turns vs of 10`,
  baseline: {
    name: 'budgeted session turn, 10 stored turns',
    run: () => shortBudgeted.send('next?').rows,
  },
  contenders: [
    {
      name: `budgeted session turn, ${longest.toLocaleString('en')} stored turns`,
      run: () => longBudgeted.send('next?').rows,
    },
  ],
  rounds: 40,
  warmup: 5,
  limits: [
    {
      contender: `budgeted session turn, ${longest.toLocaleString('en')} stored turns`,
      atMost: 1.2,
    },
  ],
});
await shortBudgeted.close();
await longBudgeted.close();

raw.close();
await store.close();
rmSync(dir, { recursive: true, force: true });

// The cold rebuild on PostgreSQL (skipped when no server answers), printed without a limit: the
// store reads its snapshots through Kysely there (notes/0078); the AI SDK's chat is one text
// column of the same database.
const pgUrl = process.env.CHUNKLOG_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const pgPool = new pg.Pool({ connectionString: pgUrl, max: 4 });
const pgDb = new Kysely<unknown>({ dialect: new PostgresDialect({ pool: pgPool }) });
const pgReachable = await sql`select 1`.execute(pgDb).then(
  () => true,
  () => false,
);
if (pgReachable) {
  const prefix = `benchh${Math.random().toString(36).slice(2, 8)}_`;
  const pgStore = createChunkStore({ db: pgDb }, { tablePrefix: prefix });
  const pgRows = createChunkStore({ db: pgDb }, { tablePrefix: prefix, snapshotMinRows: false });
  const chats = `${prefix}chats`;
  try {
    await pgStore.migrate();
    const turns = quick ? 100 : 1000;
    const threadId = 'pg-cold';
    for (let n = 0; n < turns; n++) await pgStore.appendTurn(threadId, realisticDrafts(n));
    await pgPool.query(`create table ${chats} (id text primary key, messages text not null)`);
    const ui = JSON.stringify(toUIMessages(await pgStore.getMessages(threadId)));
    await pgPool.query(`insert into ${chats} (id, messages) values ($1, $2)`, [threadId, ui]);
    await pgPool.query(`analyze ${prefix}chunks; analyze ${prefix}snapshots; analyze ${chats}`);
    await compare({
      title: `next model input of a ${turns.toLocaleString('en')}-turn thread on PostgreSQL, from the database, ${COLD_PASSES} reads a run (no limit)`,
      baseline: {
        name: 'AI SDK: load from PostgreSQL (JSON.parse UIMessage[]) + convertToModelMessages',
        run: async () => {
          for (let k = 0; k < COLD_PASSES; k++) {
            const { rows } = await pgPool.query(`select messages from ${chats} where id = $1`, [
              threadId,
            ]);
            await convertToModelMessages(
              JSON.parse((rows[0] as { messages: string }).messages) as UIMessage[],
            );
          }
        },
      },
      contenders: [
        {
          name: 'chunklog cold rebuild on PostgreSQL: getMessages (snapshots) + model messages',
          run: async () => {
            for (let k = 0; k < COLD_PASSES; k++)
              modelMessagesOf(await pgStore.getMessages(threadId));
          },
        },
        {
          name: 'chunklog on PostgreSQL from every row (snapshotMinRows: false)',
          run: async () => {
            for (let k = 0; k < COLD_PASSES; k++)
              modelMessagesOf(await pgRows.getMessages(threadId));
          },
        },
      ],
    });
    // A short thread's cold read (a session starting on it): no snapshot exists, and the read
    // must cost what reading its rows costs, not a transaction's round trips (notes/0079).
    const SHORT_READS = 50;
    for (let n = 0; n < 5; n++) await pgStore.appendTurn('pg-short', realisticDrafts(n));
    await compare({
      title: `a 5-turn thread's history on PostgreSQL, ${SHORT_READS} reads a run (no limit)`,
      baseline: {
        name: 'getHistory from every row (snapshotMinRows: false)',
        run: async () => {
          for (let k = 0; k < SHORT_READS; k++) await pgRows.getHistory('pg-short');
        },
      },
      contenders: [
        {
          name: 'getHistory with snapshots on (none exists for a short thread)',
          run: async () => {
            for (let k = 0; k < SHORT_READS; k++) await pgStore.getHistory('pg-short');
          },
        },
      ],
    });
  } finally {
    await pgPool.query(`drop table if exists ${chats}`);
    await pgStore.close();
    await pgRows.close();
    await dropStoreTables(pgDb, prefix);
  }
} else {
  console.log('[bench] PostgreSQL is not reachable: the PostgreSQL cold rebuild is skipped.');
}
await pgDb.destroy();
