// `npm run bench -- reducer`: the reducer's three figures, each a ratio measured side by side
// (contenders interleaved round by round, medians compared; see harness.ts).
import { readUIMessageStream, type UIMessage } from 'ai';
import { createTurnState, foldStream, foldTurn, reduceTurn } from '../src/reducer/index.js';
import type { ChunkEvent } from '../src/schema/index.js';
import { compare } from './harness.js';
import { deltaEvents, naiveFold, pullStream, streamParts, uiChunks } from './reducer-workloads.js';

// ---- 1. foldStream over 10,000 AI SDK parts, against the floor and against the AI SDK. ----

async function iterate<T>(stream: ReadableStream<T>): Promise<number> {
  const reader = stream.getReader();
  let n = 0;
  while (!(await reader.read()).done) n++;
  return n;
}

async function readUI(
  stream: ReadableStream<ReturnType<typeof uiChunks>[number]>,
): Promise<UIMessage | undefined> {
  let last: UIMessage | undefined;
  for await (const message of readUIMessageStream<UIMessage>({ stream })) last = message;
  return last;
}

/** Passes over the stream per timed run of the floor comparison. */
const PASSES = 5;

/** {@link PASSES} fresh streams of the same parts. */
function streamsOf<T>(parts: readonly T[]): ReadableStream<T>[] {
  return Array.from({ length: PASSES }, () => pullStream(parts));
}

async function streamFigures(blocks: number): Promise<number> {
  const parts = streamParts(10_000, blocks);
  const ui = uiChunks(parts);
  const label = `${parts.length} parts in ${blocks} blocks`;
  await compare({
    title: `foldStream vs merely iterating the same stream (${label})`,
    baseline: {
      name: `iterate the stream (floor), ${PASSES} times`,
      prepare: () => streamsOf(parts),
      run: async (streams: ReadableStream<(typeof parts)[number]>[]) => {
        for (const stream of streams) await iterate(stream);
      },
    },
    contenders: [
      {
        name: 'foldStream',
        prepare: () => streamsOf(parts),
        run: async (streams: ReadableStream<(typeof parts)[number]>[]) => {
          for (const stream of streams) await foldStream(stream);
        },
      },
    ],
    // One pass is ~10 ms, and whether a collection falls in it moved a pass by half either way
    // (per-round ratios from 0.6× to 2.3×): each run makes several passes, so that every run
    // holds some collections, and enough rounds for a steady median.
    rounds: 31,
    limits: [{ contender: 'foldStream', atMost: 1.5 }],
  });
  const vsSdk = await compare({
    title: `foldStream vs the AI SDK's readUIMessageStream (${label})`,
    baseline: {
      name: 'readUIMessageStream (equivalent UI chunks)',
      prepare: () => pullStream(ui),
      run: readUI,
    },
    contenders: [
      { name: 'foldStream', prepare: () => pullStream(parts), run: (s) => foldStream(s) },
    ],
    rounds: 7,
    warmup: 1,
    limits: [{ contender: 'foldStream', atLeastFaster: 30 }],
  });
  return 1 / (vsSdk.ratios.foldStream as number);
}

const gap100 = await streamFigures(100);
// The AI SDK clones the message (every part of it so far) on every delta, so its cost per delta
// grows with the number of parts; ours does not. With the same 10,000 parts in 1,000 blocks the
// gap must be wider.
const gap1000 = await streamFigures(1_000);
console.log(
  `\n  gap: ${gap100.toFixed(1)}× with 100 blocks, ${gap1000.toFixed(1)}× with 1,000 blocks (${gap1000 > gap100 ? 'widens' : 'DOES NOT widen'})`,
);

// ---- 2. foldTurn over 100,000 deltas in 1,000 chunks, against a naive mutable fold. ----

const big = deltaEvents(100_000, 1_000);
await compare({
  title: `foldTurn vs a naive mutable fold (${big.length} events: 100,000 deltas in 1,000 chunks, ${PASSES} passes a run)`,
  baseline: {
    name: `naive mutable fold (objects, string +=), ${PASSES} times`,
    run: () => {
      let n = 0;
      for (let i = 0; i < PASSES; i++) n += naiveFold(big).length;
      return n;
    },
  },
  contenders: [
    {
      name: `foldTurn, ${PASSES} times`,
      run: () => {
        let n = 0;
        for (let i = 0; i < PASSES; i++) n += foldTurn(big).chunkCount;
        return n;
      },
    },
  ],
  // One pass is about 2 ms, and a pass paid for collecting the garbage of the pass before it,
  // whichever contender that was: one pass a run printed 4.00–4.56× (quartiles up to 6×) while
  // the two folds alone cost about the same; with the order reversed the naive fold was the slow
  // one. Several passes a run make each run pay for its own garbage.
  limits: [{ contender: `foldTurn, ${PASSES} times`, atMost: 3 }],
});

// ---- 3. Cost per event stays flat as the turn grows: 100k events/1,000 chunks vs 10k/100. ----

const small = deltaEvents(10_000, 100);
const tenSmall = (fold: (events: readonly ChunkEvent[]) => number) => () => {
  let n = 0;
  for (let i = 0; i < 10; i++) n += fold(small);
  return n;
};
const folded = (events: readonly ChunkEvent[]) => foldTurn(events).chunkCount;
const reduced = (events: readonly ChunkEvent[]) => {
  let state = createTurnState();
  for (const event of events) state = reduceTurn(state, event);
  return state.chunkCount;
};
await compare({
  title: 'foldTurn: cost per event at 100,000 events in 1,000 chunks vs 10,000 in 100 (×10 runs)',
  baseline: { name: 'foldTurn, 10,000 events in 100 chunks, 10 times', run: tenSmall(folded) },
  contenders: [{ name: 'foldTurn, 100,000 events in 1,000 chunks', run: () => folded(big) }],
  rounds: 25,
  limits: [{ contender: 'foldTurn, 100,000 events in 1,000 chunks', atMost: 1.5 }],
});
await compare({
  title: 'reduceTurn one event at a time (a state per event): the same two sizes',
  baseline: { name: 'reduceTurn, 10,000 events in 100 chunks, 10 times', run: tenSmall(reduced) },
  contenders: [{ name: 'reduceTurn, 100,000 events in 1,000 chunks', run: () => reduced(big) }],
  rounds: 25,
  limits: [{ contender: 'reduceTurn, 100,000 events in 1,000 chunks', atMost: 1.5 }],
  perItem: {
    'reduceTurn, 10,000 events in 100 chunks, 10 times': 10 * small.length,
    'reduceTurn, 100,000 events in 1,000 chunks': big.length,
  },
});
