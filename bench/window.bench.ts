// ChunkWindow: the cost of apply() per event at the start and at the end of a 200,000-chunk turn
// (flat: within 1.5×), and reading `log` / `groups` of a full window against explodeTurn of the
// same chunks.

import type { ChunkEvent } from '../src/schema/index.js';
import { explodeTurn } from '../src/transforms/index.js';
import { ChunkWindow, type ChunkWindowSnapshot } from '../src/window/index.js';
import { compare } from './harness.js';

const TURN_CHUNKS = 200_000;
const LIMIT = 300;
// Chunks applied per timed run. At 500 (about 6 ms a run) whether a scavenge fell in a run moved
// the per-round ratio from 0.7× to 1.8× and the figure from 0.78× to 1.55× over four runs of the
// same code; at 2,000 (about 25 ms) the four runs gave 0.92–1.14×, spreads within 0.89–1.32×.
const SEGMENT_CHUNKS = 2_000;
const quick = process.env.BENCH_QUICK === '1';

/** The events of chunk `i`: mostly text and reasoning blocks of a few deltas, some tool calls. */
function eventsOf(i: number): ChunkEvent[] {
  if (i % 10 === 9) {
    const id = `call-${i}`;
    return [
      { type: 'tool-call', toolCallId: id, toolName: 'read', input: { path: `file-${i}.ts` } },
      { type: 'tool-result', toolCallId: id, toolName: 'read', output: `contents of ${i}` },
    ];
  }
  const [start, delta, end] =
    i % 3 === 0
      ? (['reasoning-start', 'reasoning-delta', 'reasoning-end'] as const)
      : (['text-start', 'text-delta', 'text-end'] as const);
  return [
    { type: start },
    { type: delta, text: `chunk ${i}: the quick brown fox ` },
    { type: delta, text: 'jumps over the lazy dog. ' },
    { type: end },
  ];
}

function eventsFor(from: number, count: number): ChunkEvent[] {
  const out: ChunkEvent[] = [];
  for (let i = from; i < from + count; i++) out.push(...eventsOf(i));
  return out;
}

function newWindow(): ChunkWindow {
  const window = new ChunkWindow({
    limit: LIMIT,
    loadPage: () => ({ chunks: [], total: 0, oldestSeq: null, hasMore: false }),
  });
  window.apply({ type: 'turn-start', turnId: 'giant' });
  return window;
}

// One window streamed to the end of the giant turn, reused: each timed run streams the next
// segment, so it always runs past chunk 200,000.
let giant: { window: ChunkWindow; next: number } | undefined;
function giantWindow(): { window: ChunkWindow; next: number } {
  if (giant === undefined) {
    const window = newWindow();
    const warm = quick ? 40_000 : TURN_CHUNKS;
    for (let i = 0; i < warm; i++) for (const e of eventsOf(i)) window.apply(e);
    giant = { window, next: warm };
  }
  return giant;
}

const segmentEvents = eventsFor(0, SEGMENT_CHUNKS).length;

await compare({
  title: `ChunkWindow.apply per event: start vs end of a ${TURN_CHUNKS.toLocaleString('en')}-chunk turn (limit ${LIMIT}, ${SEGMENT_CHUNKS} chunks = ${segmentEvents} events per run)`,
  baseline: {
    name: 'apply, chunks 0-1,999 (start of the turn)',
    prepare: () => ({ window: newWindow(), events: eventsFor(0, SEGMENT_CHUNKS) }),
    run: ({ window, events }: { window: ChunkWindow; events: ChunkEvent[] }) => {
      for (const e of events) window.apply(e);
    },
  },
  contenders: [
    {
      name: 'apply, 2,000 chunks past chunk 200,000 (end of the turn)',
      prepare: () => {
        const g = giantWindow();
        const events = eventsFor(g.next, SEGMENT_CHUNKS);
        g.next += SEGMENT_CHUNKS;
        return { window: g.window, events };
      },
      run: ({ window, events }: { window: ChunkWindow; events: ChunkEvent[] }) => {
        for (const e of events) window.apply(e);
      },
    },
  ],
  perItem: {
    'apply, chunks 0-1,999 (start of the turn)': segmentEvents,
    'apply, 2,000 chunks past chunk 200,000 (end of the turn)': segmentEvents,
  },
  rounds: 21,
  limits: [{ contender: 'apply, 2,000 chunks past chunk 200,000 (end of the turn)', atMost: 1.5 }],
});

// Reads: K snapshots taken one delta apart (each with an unbuilt log), read once each.
const READS = 200;
interface Reads {
  readonly snapshots: ChunkWindowSnapshot[];
}
function freshSnapshots(): Reads {
  const { window } = giantWindow();
  // An open text block that each delta grows.
  window.apply({ type: 'text-start' });
  const snapshots: ChunkWindowSnapshot[] = [];
  for (let k = 0; k < READS; k++) {
    window.apply({ type: 'text-delta', text: 'more ' });
    snapshots.push(window.getSnapshot());
  }
  window.apply({ type: 'text-end' });
  return { snapshots };
}

await compare({
  title: `Reading a full window (${LIMIT} entries) after a delta, ${READS} reads per run, against explodeTurn of the same chunks`,
  baseline: {
    name: 'explodeTurn(turnId, the window’s chunks)',
    prepare: freshSnapshots,
    run: ({ snapshots }: Reads) => {
      for (const s of snapshots)
        explodeTurn('giant', s.liveTurn?.chunks ?? [], { role: 'assistant' });
    },
  },
  contenders: [
    {
      name: 'window.log (cached per chunk, rebuilt for the change)',
      prepare: freshSnapshots,
      run: ({ snapshots }: Reads) => {
        for (const s of snapshots) void s.log;
      },
    },
    {
      name: 'window.groups (stored part cached, live part grouped per chunk)',
      prepare: freshSnapshots,
      run: ({ snapshots }: Reads) => {
        for (const s of snapshots) void s.groups;
      },
    },
  ],
  perItem: {
    'explodeTurn(turnId, the window’s chunks)': READS,
    'window.log (cached per chunk, rebuilt for the change)': READS,
    'window.groups (stored part cached, live part grouped per chunk)': READS,
  },
  limits: [
    { contender: 'window.log (cached per chunk, rebuilt for the change)', atMost: 1 },
    { contender: 'window.groups (stored part cached, live part grouped per chunk)', atMost: 1 },
  ],
});
