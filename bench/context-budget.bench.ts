// `npm run bench -- context-budget`: the cost of a token budget on model input.
//
// 1. A 5,000-turn thread with a cut in force (a context-truncated chunk keeping the newest 400
//    turns, under budget): planModelInput against toModelMessages of the turns it keeps; ≤ 1.2×.
// 2. The same thread with no cut yet and a budget it exceeds (a fresh cut: the whole thread is
//    built and counted once, then the kept turns): printed, no limit (it happens once per cut).

import {
  type ChatMessage,
  type Chunk,
  type ChunkRow,
  explodeTurn,
  groupRowsToMessages,
  planModelInput,
  toModelMessages,
} from '../src/index.js';
import { compare } from './harness.js';

const TURNS = 5_000;
const KEPT = 400;

function assistantTurn(i: number, sentinel: boolean): Chunk[] {
  const chunks: Chunk[] = [
    { type: 'text', step: 0, text: `I will look at the file for request ${i}.` },
    {
      type: 'tool-batch',
      step: 0,
      calls: [
        {
          id: `call-${i}`,
          name: 'read_file',
          input: { path: `src/file-${i}.ts` },
          result: `export const value${i} = ${i};\n`.repeat(3),
        },
      ],
    },
    { type: 'text', step: 1, text: `Request ${i} is done: the value is ${i}.` },
  ];
  if (!sentinel) return chunks;
  return [
    {
      type: 'system',
      step: 0,
      kind: 'context-truncated',
      text: 'cut',
      truncation: {
        firstKeptTurnId: `turn-${TURNS - KEPT}`,
        leftOutTurns: TURNS - KEPT,
        maxTokens: 1_000_000,
        keptTokens: 1,
      },
    },
    ...chunks,
  ];
}

function thread(withCut: boolean): ChatMessage[] {
  const rows: ChunkRow[] = [];
  for (let i = 0; i < TURNS; i++) {
    const turnId = `turn-${i}`;
    const drafts = [
      ...explodeTurn(turnId, [{ type: 'text', step: 0, text: `Please handle request ${i}.` }], {
        role: 'user',
      }),
      ...explodeTurn(turnId, assistantTurn(i, withCut && i === TURNS - KEPT), {
        role: 'assistant',
      }),
    ];
    for (const d of drafts)
      rows.push({ ...d, threadId: 'bench', seq: rows.length + 1 } as ChunkRow);
  }
  return groupRowsToMessages(rows);
}

const withCut = thread(true);
const keptMessages = withCut.filter((m) => Number(m.turnId.slice(5)) >= TURNS - KEPT);
const steady = planModelInput(withCut, {
  build: (kept) => toModelMessages(kept),
  budget: { maxTokens: 1_000_000 },
});
if (steady.cut !== undefined || steady.firstKeptTurnId !== `turn-${TURNS - KEPT}`) {
  throw new Error('the bench thread should be under its cut, with no new cut');
}

await compare({
  title: `budgeted input of a ${TURNS}-turn thread with a cut in force vs toModelMessages of the ${KEPT} turns it keeps (≤ 1.2×)`,
  baseline: {
    name: `toModelMessages(${KEPT} kept turns)`,
    run: () => toModelMessages(keptMessages),
  },
  contenders: [
    {
      name: 'planModelInput (cut in force, counted)',
      run: () =>
        planModelInput(withCut, {
          build: (kept) => toModelMessages(kept),
          budget: { maxTokens: 1_000_000 },
        }),
    },
  ],
  // ~2 ms a run: warm up long enough that both sides run optimized code when timed.
  rounds: 61,
  warmup: 20,
  limits: [{ contender: 'planModelInput (cut in force, counted)', atMost: 1.2 }],
});

const noCut = thread(false);
const fresh = planModelInput(noCut, {
  build: (kept) => toModelMessages(kept),
  budget: { maxTokens: 40_000 },
});
const freshKept = noCut.filter(
  (m) =>
    m.turnId >= (fresh.firstKeptTurnId ?? '') &&
    Number(m.turnId.slice(5)) >= Number((fresh.firstKeptTurnId ?? 'turn-0').slice(5)),
);
await compare({
  title: `a fresh cut of a ${TURNS}-turn thread (keeps ${freshKept.length / 2} turns) vs toModelMessages of the turns it keeps (no limit: once per cut)`,
  baseline: { name: 'toModelMessages(kept turns)', run: () => toModelMessages(freshKept) },
  contenders: [
    {
      name: 'planModelInput (fresh cut)',
      run: () =>
        planModelInput(noCut, {
          build: (kept) => toModelMessages(kept),
          budget: { maxTokens: 40_000 },
        }),
    },
  ],
});
