// `npm run demo`: one agent turn on an SQLite file, rendered live in the terminal; then the
// rows it stored, page by page, and the model input rebuilt from them for the next call; last,
// a thread under a small token budget, with the cut it made and its sentinel.
//
// Offline by default: a scripted model thinks, answers, calls two tools at once (they run in
// parallel and stream progress text, with `toolProgress`), hits a rate limit, so the session
// switches to the fallback model, which thinks again and answers. With ANTHROPIC_API_KEY or OPENAI_API_KEY set, the same session talks to that
// provider instead (the tools are local and harmless: made-up weather and headlines).
import { mkdirSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { createAgentSession } from 'chunklog/session';
import { createChunkStore } from 'chunklog/store';
import { createScriptedModel } from 'chunklog/testing';
import { exitQuietlyOnClosedStdout } from '../shared/closed-pipe.js';
import { createLiveRenderer } from '../shared/live-render.js';
import { printModelMessages, printPages } from '../shared/print.js';
import { sessionModelOptions } from '../shared/providers.js';
import { paint } from '../shared/terminal.js';
import { headlines, weather } from '../shared/tools.js';
import { pickModels } from './models.js';

const DB = process.env.CHUNKLOG_DEMO_DB ?? '.tmp/demo.db';
const THREAD = 'demo';
exitQuietlyOnClosedStdout();
const p = paint();
const out = (text: string) => process.stdout.write(text);
const print = (line = '') => out(`${line}\n`);
const heading = (text: string) =>
  print(`\n${p.bold(`━━ ${text} `)}${p.dim('━'.repeat(Math.max(3, 72 - text.length)))}`);

// A fresh database on every run.
mkdirSync(dirname(DB), { recursive: true });
for (const suffix of ['', '-wal', '-shm']) rmSync(`${DB}${suffix}`, { force: true });
const store = createChunkStore({ sqlite: DB });
await store.migrate();

const models = pickModels();
const session = createAgentSession({
  store,
  threadId: THREAD,
  ...sessionModelOptions(models),
  tools: { weather, headlines },
  system:
    'You are a concise assistant. Use the tools when they help; call independent tools at once.',
  maxSteps: 5,
});

print(p.bold('chunklog demo'));
print(p.dim(`  model: ${models.description}`));
print(p.dim(`  store: SQLite file ${DB}, thread "${THREAD}"`));

// 1. A turn, rendered live from its events.
const question = 'What is the weather in Paris, and what are the headlines there? Then advise me.';
heading('a turn, live');
print(`  ${p.magenta('you ▸')} ${question}`);
const render = createLiveRenderer({ write: out, paint: p, width: process.stdout.columns });
const turn = session.send(question);
for await (const event of turn) render(event);
const result = await turn.result;

// 2. Offline, a second turn shows a failure: both models are down, the error is stored as a chunk.
if (models.scripted) {
  heading('a second turn, while the provider is down');
  print(`  ${p.magenta('you ▸')} And tomorrow?`);
  for await (const event of session.send('And tomorrow?')) render(event);
}

// 3. A system notice outside any turn: stored as a system message, never sent to the model.
const stop = session.subscribe((event) => {
  if (event.type === 'system') render(event);
});
await session.notify({ kind: 'config-reload', text: 'Tool settings reloaded.' });
stop();

// 4. What the store holds, read the way a chat client scrolling up reads it.
heading(`stored rows, page by page (${(await store.getThread(THREAD)).total} rows)`);
await printPages(store, THREAD, print, p, 6);

// 5. What the next call will send: rebuilt from the store, not from memory.
heading('model input for the next call (session.modelMessages)');
printModelMessages(await session.modelMessages('Thanks! Let’s try again: and tomorrow?'), print, p);
print(
  p.dim(
    '\n  System notices, errors and thinking signed before the last model switch stay out of the\n' +
      '  model input; every tool call goes back with its result.',
  ),
);
print(
  `\n${p.green('done')} ${p.dim(`(${result.outcome}; inspect it: npm run example:scripts -- pages ${DB} ${THREAD})`)}`,
);

await session.close();

// 6. A long thread under a small token budget: old turns are left out of model input, and the
// cut is recorded in the log as a `context-truncated` system chunk, where it happened.
heading('a token budget: a cut and its sentinel');
const budgetThread = 'demo-budget';
const talker = createScriptedModel(
  (call, index) => ({
    parts: [{ type: 'text', text: `Answer ${index + 1}: ${'some detail '.repeat(30)}` }],
    usage: { input: Math.ceil(JSON.stringify(call.prompt).length / 4), output: 90 },
  }),
  { modelId: 'scripted-talker' },
);
const budgeted = createAgentSession({
  store,
  threadId: budgetThread,
  model: talker,
  contextBudget: { maxTokens: 600, keepTurns: 2 },
});
for (let n = 1; n <= 8; n++) {
  const asked = budgeted.send(`Question ${n}: tell me more.`);
  for await (const event of asked) {
    if (event.type === 'system' && event.kind === 'context-truncated') {
      print(`  ${p.yellow('✂')} turn ${n}: ${event.text}`);
    }
  }
}
await budgeted.close();
const sentinels = (await store.getRows(budgetThread)).filter(
  (row) => row.type === 'system' && (row.data as { kind?: string }).kind === 'context-truncated',
);
for (const row of sentinels) {
  print(p.dim(`  stored at seq ${row.seq} (turn ${row.turnId}): ${JSON.stringify(row.data)}`));
}
const spent = await store.getThreadUsage(budgetThread);
print(
  p.dim(
    `  usage stored per step: ${spent.steps} steps, ${spent.total.inputTokens} input and ${spent.total.outputTokens} output tokens`,
  ),
);

await store.close();
