// chunklog beside the AI SDK's documented persistence pattern (its guide keeps a chat's whole
// `UIMessage[]` as one JSON value, loaded and saved whole), each in its own SQLite file with the
// same settings (WAL, synchronous=FULL on both), in one run. Three figures at 10 turns, each held to
// ≤ 1.0× the pattern, and the same at 1,000 turns (printed, no limit: chunklog is far ahead there):
//   1. persisting one turn: the pattern stringifies the whole chat and upserts it; chunklog appends
//      the turn's rows and its step usage (what a session writes when a turn ends);
//   2. the first page a client shows: the pattern loads and parses the whole chat and keeps the
//      last 20 messages; chunklog reads a page of 50 rows and groups it;
//   3. the next model input of a warm server: the pattern loads the chat and converts it
//      (`convertToModelMessages`), as its route does on every request; chunklog asks a session
//      that served the thread before (`session.modelMessages`), which reads what changed since.
// At 10 turns each sample times a batch of calls (per call figures; see TIMING below), and each
// persisted turn goes to its own 10-turn thread in both stores, so that every call persists the
// 11th turn of a 10-turn chat.
// One file each, as an app has one or the other: two connections writing one file empty each
// other's page cache at every commit (SQLite drops a connection's cache when another connection
// changed the file), a cost no app of either kind pays, and one that falls hardest on the write
// that touches more tables. Measured on one file, 10 persists of each alternated call by call,
// no forced collection: chunklog 1.25–1.27× the pattern; the same in two files: 1.11–1.15×
// (notes/0100, which corrects 0097's figures).
// A realistic turn (bench/cold-rebuild-shared.ts): the user's text, ~500 characters of
// reasoning, two tool calls with ~300-character results, ~800 characters of answer (seven rows).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { convertToModelMessages, type UIMessage } from 'ai';
import Database from 'better-sqlite3';
import { createAgentSession } from '../src/entries/session.js';
import { createChunkStore } from '../src/store/index.js';
import { createScriptedModel } from '../src/testing/index.js';
import { groupRowsToMessages } from '../src/transforms/group-rows.js';
import { toUIMessages } from '../src/ui-messages/index.js';
import { realisticDrafts, realisticTurn } from './cold-rebuild-shared.js';
import { compare } from './harness.js';

const dir = mkdtempSync(join(tmpdir(), 'chunklog-bench-pattern-'));
const store = createChunkStore({ sqlite: join(dir, 'chunklog.db') }, { synchronous: 'full' });
await store.migrate();
const raw = new Database(join(dir, 'pattern.db'), { timeout: 5000 });
raw.pragma('journal_mode = WAL');
raw.pragma('synchronous = FULL');
raw.exec('create table if not exists ai_sdk_chats (id text primary key, messages text not null)');
const saveChat = raw.prepare(
  'insert into ai_sdk_chats (id, messages) values (?, ?) on conflict (id) do update set messages = excluded.messages',
);
const loadChat = raw.prepare('select messages from ai_sdk_chats where id = ?').pluck();
// The floor of a first page: the 50 rows selected by hand, with none of chunklog's JavaScript (no
// driver, no decoding, no grouping). At 10 turns it alone costs more than the whole pattern,
// which reads one row; it is printed beside the page for that reason (notes/0094).
const floor = new Database(join(dir, 'chunklog.db'), { readonly: true });
const selectPage = floor.prepare(
  'select seq, turn_id, step, role, type, data, created_at from chunklog_chunks where thread_id = ? order by seq desc limit 50',
);

/** The UI messages of turn `n` (what the AI SDK app appends to its chat when the turn ends). */
function uiTurn(n: number): UIMessage[] {
  const { user, assistant } = realisticTurn(n);
  return toUIMessages([
    { id: `u${n}`, turnId: `t${n}`, role: 'user', chunks: user },
    { id: `a${n}`, turnId: `t${n}`, role: 'assistant', chunks: assistant },
  ]);
}

/** The step usage a session records with a turn. */
const usage = [
  { step: 0, modelId: 'bench', usage: { inputTokens: 1200, outputTokens: 300 } },
  { step: 1, modelId: 'bench', usage: { inputTokens: 1700, outputTokens: 200 } },
];

let next = 0;
/** A thread of `turns` realistic turns in both stores; returns the pattern's chat. */
async function seed(threadId: string, turns: number): Promise<UIMessage[]> {
  let chat: UIMessage[] = [];
  for (let i = 0; i < turns; i++) {
    const drafts = realisticDrafts(next++);
    await store.appendTurn(threadId, drafts, { usage });
    chat = chat.concat(uiTurn(i));
  }
  saveChat.run(threadId, JSON.stringify(chat));
  return chat;
}

/**
 * Calls per sample, warm-up rounds and rounds, by thread length and figure. The harness forces a
 * full collection before each sample, and the calls right after it run slow (a cold CPU cache and
 * heap): measured, the first two `appendTurn`s after `gc()` took 1.5–6.5 ms where the rest took
 * 0.5–0.7 ms. A batch of 10 sub-millisecond calls still measured mostly that penalty, and it
 * falls harder on the contender that runs more code. A batch lasts about 20 ms or more (40
 * persists, 100 reads), so that the penalty is a few percent of it (notes/0097).
 */
const TIMING = {
  10: {
    persist: { batch: 40, warmup: 3, rounds: 30 },
    read: { batch: 100, warmup: 3, rounds: 30 },
  },
  1000: {
    persist: { batch: 1, warmup: 3, rounds: 40 },
    read: { batch: 1, warmup: 3, rounds: 40 },
  },
} as const;

for (const turns of [10, 1000] as const) {
  const threadId = `t${turns}`;
  await seed(threadId, turns);
  const timing = TIMING[turns];
  // Each persisted turn goes to a thread of exactly `turns` turns, in both stores: as many
  // threads as calls, when that is cheap to seed; else one thread, which grows by a turn a call
  // in both stores alike.
  const calls = timing.persist.batch * (timing.persist.warmup + timing.persist.rounds);
  const threads = turns === 10 ? calls : 1;
  const chats: Array<{ id: string; chat: UIMessage[] }> = [];
  for (let i = 0; i < threads; i++) {
    const id = `persist-${turns}-${i}`;
    chats.push({ id, chat: await seed(id, turns) });
  }
  let pattern = 0;
  let ours = 0;
  const limits = turns === 10;
  await compare({
    title: `persist one turn on a ${turns.toLocaleString('en')}-turn thread (synchronous=FULL)`,
    baseline: {
      name: 'AI SDK pattern: stringify the chat + upsert it',
      prepare: () => {
        const thread = chats[pattern++ % threads] as { id: string; chat: UIMessage[] };
        thread.chat = thread.chat.concat(uiTurn(turns + pattern));
        return { id: thread.id, messages: thread.chat };
      },
      run: ({ id, messages }: { id: string; messages: UIMessage[] }) =>
        saveChat.run(id, JSON.stringify(messages)),
    },
    contenders: [
      {
        name: 'chunklog: appendTurn (7 rows + step usage)',
        prepare: () => ({
          id: (chats[ours++ % threads] as { id: string }).id,
          drafts: realisticDrafts(next++),
        }),
        run: ({ id, drafts }: { id: string; drafts: ReturnType<typeof realisticDrafts> }) =>
          store.appendTurn(id, drafts, { usage }),
      },
    ],
    ...timing.persist,
    limits: limits
      ? [{ contender: 'chunklog: appendTurn (7 rows + step usage)', atMost: 1.0 }]
      : [],
  });
  await compare({
    title: `the first page of a ${turns.toLocaleString('en')}-turn thread`,
    baseline: {
      name: 'AI SDK pattern: load + parse the chat, keep the last 20',
      run: () => (JSON.parse(loadChat.get(threadId) as string) as UIMessage[]).slice(-20),
    },
    contenders: [
      {
        name: 'chunklog: getChunks(limit 50) + groupRowsToMessages',
        run: async () =>
          groupRowsToMessages((await store.getChunks(threadId, { limit: 50 })).chunks),
      },
      {
        name: 'the floor: the same 50 rows selected by hand, no JavaScript',
        run: () => selectPage.all(threadId),
      },
    ],
    ...timing.read,
    limits: limits
      ? [{ contender: 'chunklog: getChunks(limit 50) + groupRowsToMessages', atMost: 1.0 }]
      : [],
  });
  const session = createAgentSession({
    store,
    threadId,
    model: createScriptedModel([{ parts: [{ type: 'text', text: 'ok' }] }], { repeat: true }),
    caching: 'none',
  });
  await session.modelMessages({ text: 'warm up' });
  await compare({
    title: `the next model input of a ${turns.toLocaleString('en')}-turn thread, warm server`,
    baseline: {
      name: 'AI SDK pattern: load + parse the chat + convertToModelMessages',
      run: () =>
        convertToModelMessages(JSON.parse(loadChat.get(threadId) as string) as UIMessage[]),
    },
    contenders: [
      {
        name: 'chunklog: session.modelMessages (warm session)',
        run: () => session.modelMessages({ text: 'next?' }),
      },
    ],
    ...timing.read,
    limits: limits
      ? [{ contender: 'chunklog: session.modelMessages (warm session)', atMost: 1.0 }]
      : [],
  });
  await session.close();
}

await store.close();
raw.close();
floor.close();
rmSync(dir, { recursive: true, force: true });
