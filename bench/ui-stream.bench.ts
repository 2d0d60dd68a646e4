// toUIMessageStream (what `GET …/stream` and a `uiMessageStream` POST send): a 10,000-delta turn
// read by 50 readers against 1 reader (limit: 50×, each reader costs what one alone does), and the
// same turn against ten turns ten times shorter, per event (limit 1.5×: flat in the turn's length).
// Each reader folds the events and diffs the states itself. When every delta re-sliced the
// block's whole text (issue 35), the figures were 63× (145 s for the 50 readers, 2.3 s for one)
// and 10.4×; with deltas sent as their own text, 18× (2.5 s, 0.14 s) and 0.96×.
import type { UIMessageChunk } from 'ai';
import type { ChunkEvent } from '../src/schema/index.js';
import { toUIMessageStream } from '../src/ui-messages/index.js';
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
