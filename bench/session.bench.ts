// A whole turn through the session (events to a subscriber, the turn stored in SQLite) against
// merely consuming `streamText().stream` of the same scripted model, side by side. The turn is
// realistic: three steps, interleaved thinking, parallel tool calls, ~600 deltas.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stepCountIs, streamText, tool } from 'ai';
import { z } from 'zod';
import { type AgentSession, createAgentSession } from '../src/entries/session.js';
import { createChunkStore } from '../src/store/index.js';
import { createScriptedModel, type ScriptedStep } from '../src/testing/index.js';
import { compare } from './harness.js';

const words = (count: number, seed: string) =>
  Array.from({ length: count }, (_, i) => `${seed}${i % 7 === 0 ? '.' : ''} `);

const steps: ScriptedStep[] = [
  {
    parts: [
      { type: 'reasoning', text: words(120, 'think'), signature: 'sig-1' },
      { type: 'text', text: words(60, 'say') },
      { type: 'tool-call', toolName: 'read_file', input: { path: 'src/a.ts' } },
      { type: 'tool-call', toolName: 'read_file', input: { path: 'src/b.ts' } },
    ],
  },
  {
    parts: [
      { type: 'reasoning', text: words(80, 'more'), signature: 'sig-2' },
      { type: 'tool-call', toolName: 'list_files', input: { dir: 'src' } },
    ],
  },
  {
    parts: [
      { type: 'reasoning', text: words(60, 'final'), signature: 'sig-3' },
      { type: 'text', text: words(280, 'answer') },
    ],
  },
];
const deltas = 120 + 60 + 80 + 60 + 280;

const tools = {
  read_file: tool({
    inputSchema: z.object({ path: z.string() }),
    execute: async ({ path }) => `// ${path}\nexport function f() {}\n`.repeat(20),
  }),
  list_files: tool({
    inputSchema: z.object({ dir: z.string() }),
    execute: async () => ['a.ts', 'b.ts', 'c.ts'],
  }),
};
const system = 'You are a careful coding assistant.';
const question = 'What do the files in src export?';
const model = () =>
  createScriptedModel(steps, { provider: 'anthropic.messages', modelId: 'claude' });

const dir = mkdtempSync(join(tmpdir(), 'chunklog-bench-'));
// WAL with synchronous=NORMAL survives a crash of the process; FULL (the store's default) also
// survives a power loss, at the price of an fsync per turn: disk latency, not chunklog's work.
const store = createChunkStore({ sqlite: join(dir, 'normal.db') }, { synchronous: 'normal' });
const durable = createChunkStore({ sqlite: join(dir, 'full.db') });
await store.migrate();
await durable.migrate();
let thread = 0;

const normalName = 'session: send → subscriber → SQLite (synchronous=normal)';
const fullName = 'session: send → subscriber → SQLite (synchronous=full, fsync)';

/** A fresh session (on a fresh thread by default), with one subscriber counting events. */
function prepareSession(on: typeof store, threadId = `bench-${++thread}`, scripted = model()) {
  const session = createAgentSession({
    store: on,
    threadId,
    model: scripted,
    tools,
    system,
    caching: 'none',
  });
  const seen = { events: 0 };
  session.subscribe(() => {
    seen.events++;
  });
  return { session, seen };
}

async function runTurn({ session, seen }: { session: AgentSession; seen: { events: number } }) {
  await session.send(question).rows;
  if (seen.events < deltas) throw new Error('the subscriber missed events');
}

await compare({
  title: `session: one turn (${deltas} deltas, 3 steps, 3 tool calls) — session vs bare streamText`,
  baseline: {
    name: 'streamText().stream consumed',
    prepare: model,
    run: async (scripted: ReturnType<typeof model>) => {
      const result = streamText({
        model: scripted,
        tools,
        instructions: system,
        messages: [{ role: 'user', content: [{ type: 'text', text: question }] }],
        stopWhen: stepCountIs(20),
        onError: () => {},
      });
      for await (const _part of result.stream) {
        // consume
      }
    },
  },
  contenders: [
    { name: normalName, prepare: () => prepareSession(store), run: runTurn },
    { name: fullName, prepare: () => prepareSession(durable), run: runTurn },
  ],
  // A turn is ~50 ms of mostly timer-free work; 60 rounds keep the median steady on a noisy machine.
  rounds: 60,
  warmup: 8,
  limits: [{ contender: normalName, atMost: 1.1 }],
  perItem: { 'streamText().stream consumed': deltas, [normalName]: deltas, [fullName]: deltas },
});

// A turn of a conversation whose active path is an alternative (an edit of its 6th turn, then
// four more turns on it: ten turns, the first five read through the conversation's rows) vs a
// turn of a plain thread of ten turns. Same model input, same turn; the alternative's session
// reads the active path once at admission and reads its history across two stretches.
const stored = (turnId: string, text: string) => [
  { turnId, step: 0, role: 'user' as const, type: 'text' as const, data: { text } },
  {
    turnId,
    step: 0,
    role: 'assistant' as const,
    type: 'text' as const,
    data: { text: `${text}.` },
  },
];
async function sessionOn(threadId: string) {
  const repeating = createScriptedModel(steps, {
    provider: 'anthropic.messages',
    modelId: 'claude',
    repeat: true,
  });
  const prepared = prepareSession(store, threadId, repeating);
  // A warm session: its first turn reads the history; the measured one is the next.
  await prepared.session.send(question).rows;
  prepared.seen.events = 0;
  return prepared;
}
const plainName = 'session turn on a plain thread of 10 turns';
const alternativeName = 'session turn on an alternative (active path of 10 turns)';
await compare({
  title:
    'session: a turn on a conversation whose active path is an alternative vs on a plain thread',
  baseline: {
    name: plainName,
    prepare: async () => {
      const id = `plain-${++thread}`;
      for (let t = 0; t < 10; t++) await store.appendTurn(id, stored(`t${t}`, `question ${t}`));
      return await sessionOn(id);
    },
    run: runTurn,
  },
  contenders: [
    {
      name: alternativeName,
      prepare: async () => {
        const id = `conversation-${++thread}`;
        for (let t = 0; t < 10; t++) await store.appendTurn(id, stored(`t${t}`, `question ${t}`));
        const version = await store.addAlternative(id, { turnId: 't5' });
        for (let t = 5; t < 10; t++) {
          await store.appendTurn(version.id, stored(`v${t}`, `question ${t}, edited`));
        }
        return await sessionOn(id);
      },
      run: runTurn,
    },
  ],
  rounds: 40,
  warmup: 6,
  limits: [{ contender: alternativeName, atMost: 1.1 }],
  perItem: { [plainName]: deltas, [alternativeName]: deltas },
});

await store.close();
await durable.close();
rmSync(dir, { recursive: true, force: true });
