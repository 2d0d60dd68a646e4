// toUIMessageStream (what `GET …/stream` and a `uiMessageStream` POST send): a 10,000-delta turn
// read by 50 readers against 1 reader (limit: 50×, each reader costs what one alone does), and the
// same turn against ten turns ten times shorter, per event (limit 1.5×: flat in the turn's length).
// Each reader folds the events and diffs the states itself. When every delta re-sliced the
// block's whole text (issue 35), the figures were 63× (145 s for the 50 readers, 2.3 s for one)
// and 10.4×; with deltas sent as their own text, 18× (2.5 s, 0.14 s) and 0.96×. Then the same
// through the handlers: a session turn with 50 `GET …/stream` clients against none.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { UIMessageChunk } from 'ai';
import { createAgentSession, createChunkHandlers } from '../src/entries/session.js';
import { createInProcessRelay } from '../src/relay/index.js';
import type { ChunkEvent } from '../src/schema/index.js';
import { createChunkStore } from '../src/store/index.js';
import { createScriptedModel } from '../src/testing/index.js';
import { toUIMessageStream } from '../src/ui-messages/index.js';
import { gatedTool } from '../test/support/gated-tool.js';
import { compare } from './harness.js';

const quick = process.env.BENCH_QUICK === '1';
const DELTAS = 10_000;
const READERS = 50;

/** A turn of reasoning then text, `deltas` deltas in all, the way a model streams it. */
function turn(deltas: number): ChunkEvent[] {
  const half = deltas / 2;
  return [
    { type: 'turn-start', turnId: 't' },
    { type: 'step-start' },
    { type: 'reasoning-start', id: 'r' },
    ...Array.from({ length: half }, () => ({
      type: 'reasoning-delta' as const,
      id: 'r',
      text: 'Let me think about this. ',
    })),
    { type: 'reasoning-end', id: 'r' },
    { type: 'text-start', id: 'a' },
    ...Array.from({ length: half }, () => ({
      type: 'text-delta' as const,
      id: 'a',
      text: 'The answer is here. ',
    })),
    { type: 'text-end', id: 'a' },
    { type: 'step-finish', finishReason: 'stop' },
    { type: 'turn-end', finishReason: 'stop' },
  ];
}

async function* replay(events: readonly ChunkEvent[]): AsyncGenerator<ChunkEvent> {
  for (const event of events) yield event;
}

async function read(stream: ReadableStream<UIMessageChunk>): Promise<void> {
  const reader = stream.getReader();
  while (!(await reader.read()).done) {}
}

/** `readers` streams of `events`, read side by side. */
async function readAll(events: readonly ChunkEvent[], readers: number): Promise<void> {
  await Promise.all(Array.from({ length: readers }, () => read(toUIMessageStream(replay(events)))));
}

const long = turn(DELTAS);
const short = turn(DELTAS / 10);

await compare({
  title: `toUIMessageStream: a ${DELTAS.toLocaleString('en')}-delta turn, ${READERS} readers ÷ 1 reader`,
  baseline: { name: '1 reader', run: () => readAll(long, 1) },
  contenders: [{ name: `${READERS} readers`, run: () => readAll(long, READERS) }],
  rounds: quick ? 3 : 7,
  warmup: 1,
  limits: [{ contender: `${READERS} readers`, atMost: READERS }],
});

await compare({
  title: `toUIMessageStream per event: a ${DELTAS.toLocaleString('en')}-delta turn ÷ a ${(DELTAS / 10).toLocaleString('en')}-delta one (10 of them)`,
  baseline: {
    name: `10 turns of ${(DELTAS / 10).toLocaleString('en')} deltas`,
    run: async () => {
      for (let i = 0; i < 10; i++) await readAll(short, 1);
    },
  },
  contenders: [
    { name: `1 turn of ${DELTAS.toLocaleString('en')} deltas`, run: () => readAll(long, 1) },
  ],
  limits: [{ contender: `1 turn of ${DELTAS.toLocaleString('en')} deltas`, atMost: 1.5 }],
});

// GET …/stream through the handlers: a 10,000-delta session turn (stored in SQLite, published on
// the in-process relay) with 50 useChat resume clients reading it ÷ the same turn with none
// (limit 1.2×, issue 35): the clients of a turn share one reader of the relay and one encoding, so
// a client costs a view of the bytes appended since its last read. Each client reads its stream
// to the end; the time is the turn's and its clients' together. Before they were shared, a turn
// of 9,000 deltas took 57.7 s with fifty clients instead of 10.5 s.
const dir = mkdtempSync(join(tmpdir(), 'chunklog-bench-stream-'));
const store = createChunkStore({ sqlite: join(dir, 'stream.db') }, { synchronous: 'normal' });
await store.migrate();
let threads = 0;
const answer = Array.from({ length: DELTAS }, (_, i) => `word${i % 100} `);

/** A session on a fresh thread whose turn waits in a tool until the clients are reading. */
function prepareTurn() {
  const { wait, running, release } = gatedTool();
  const relay = createInProcessRelay();
  const session = createAgentSession({
    store,
    threadId: `stream-${++threads}`,
    relay,
    tools: { wait },
    model: createScriptedModel([
      { parts: [{ type: 'tool-call', toolName: 'wait', input: {} }] },
      { parts: [{ type: 'text', text: answer }] },
    ]),
  });
  const handlers = createChunkHandlers({
    store,
    session,
    relay,
    authorize: () => true,
    uiMessageStream: true,
    maxConnectionsPerThread: READERS,
  });
  return { session, handlers, release, running };
}

async function drainBytes(body: ReadableStream<Uint8Array> | null): Promise<number> {
  let bytes = 0;
  const reader = (body as ReadableStream<Uint8Array>).getReader();
  for (;;) {
    const read = await reader.read();
    if (read.done === true) return bytes;
    bytes += read.value.length;
  }
}

/** The turn, with `readers` clients of `GET …/stream` reading it to its end. */
async function turnWithReaders(
  { session, handlers, release, running }: ReturnType<typeof prepareTurn>,
  readers: number,
): Promise<void> {
  const turn = session.send('Go');
  await running;
  const url = `http://bench/threads/${session.threadId}/stream`;
  const responses = await Promise.all(
    Array.from({ length: readers }, () => handlers.fetch(new Request(url))),
  );
  const drained = responses.map((response) => drainBytes(response.body));
  release();
  const [result, ...sizes] = await Promise.all([turn.result, ...drained]);
  if (result.outcome !== 'completed') throw new Error(`the turn ended ${result.outcome}`);
  if (sizes.some((size) => size < DELTAS * 10)) throw new Error('a client missed the turn');
  await session.close();
}

const withReaders = `${READERS} GET …/stream clients`;
await compare({
  title: `GET …/stream: a ${DELTAS.toLocaleString('en')}-delta session turn with ${READERS} resume clients ÷ with none`,
  baseline: { name: 'no client', prepare: prepareTurn, run: (t) => turnWithReaders(t, 0) },
  contenders: [
    { name: '1 client', prepare: prepareTurn, run: (t) => turnWithReaders(t, 1) },
    { name: withReaders, prepare: prepareTurn, run: (t) => turnWithReaders(t, READERS) },
  ],
  rounds: quick ? 3 : 9,
  warmup: 1,
  limits: [{ contender: withReaders, atMost: 1.2 }],
});
await store.close();
rmSync(dir, { recursive: true, force: true });
