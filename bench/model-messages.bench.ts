// `npm run bench -- model-messages`: the cost of rebuilding the model input from stored rows.
//
// 1. groupRowsToMessages + toModelMessages over a 10,000-turn history, against JSON.parse of the
//    same rows (the cost of merely reading them from a store).
// 2. Linearity: the cost per row at 100,000 rows against 1,000 rows (the 1,000-row history is
//    rebuilt 100 times, so both sides process 100,000 rows); within 1.5×.

import {
  type Chunk,
  type ChunkRow,
  explodeTurn,
  groupRowsToMessages,
  toModelMessages,
} from '../src/index.js';
import { compare } from './harness.js';

function assistantTurn(i: number): Chunk[] {
  return [
    {
      type: 'thinking',
      step: 0,
      text: `Let me think about request ${i} and what to read.`,
      providerMetadata: { anthropic: { signature: `sig-${i}-${'x'.repeat(40)}` } },
      modelId: 'claude-sonnet-4-5',
    },
    { type: 'text', step: 0, text: `I will look at the files for request ${i}.` },
    {
      type: 'tool-batch',
      step: 0,
      calls: [
        {
          id: `call-${i}-a`,
          name: 'read_file',
          input: { path: `src/file-${i}.ts` },
          result: `export const value${i} = ${i};\n`.repeat(3),
        },
        {
          id: `call-${i}-b`,
          name: 'list_files',
          input: { dir: 'src' },
          result: ['a.ts', 'b.ts', `c${i}.ts`],
          progress: 'listing…\n',
        },
      ],
    },
    { type: 'text', step: 1, text: `Request ${i} is done: the value is ${i}.` },
  ];
}

/** A thread of `turns` turns (a user message and a 2-step answer each) as stored rows. */
function storedRows(turns: number): ChunkRow[] {
  const rows: ChunkRow[] = [];
  for (let i = 0; i < turns; i++) {
    const turnId = `turn-${i}`;
    const drafts = [
      ...explodeTurn(turnId, [{ type: 'text', step: 0, text: `Please handle request ${i}.` }], {
        role: 'user',
      }),
      ...explodeTurn(turnId, assistantTurn(i), { role: 'assistant' }),
    ];
    for (const d of drafts)
      rows.push({ ...d, threadId: 'bench', seq: rows.length + 1 } as ChunkRow);
  }
  return rows;
}

const rebuild = (rows: readonly ChunkRow[]) => toModelMessages(groupRowsToMessages(rows));

const history = storedRows(10_000);
const historyJson = JSON.stringify(history);

await compare({
  title: `rebuild model input from a 10,000-turn history (${history.length} rows) vs JSON.parse of the rows`,
  baseline: { name: 'JSON.parse(rows)', run: () => JSON.parse(historyJson) },
  contenders: [{ name: 'groupRowsToMessages + toModelMessages', run: () => rebuild(history) }],
  perItem: {
    'JSON.parse(rows)': history.length,
    'groupRowsToMessages + toModelMessages': history.length,
  },
});

const small = storedRows(1_000 / 8);
const large = storedRows(100_000 / 8);
const repeats = large.length / small.length;
await compare({
  title: `cost per row: ${large.length} rows once vs ${small.length} rows ${repeats}× (linear: within 1.5×)`,
  baseline: {
    name: `${small.length} rows × ${repeats}`,
    run: () => {
      for (let i = 0; i < repeats; i++) rebuild(small);
    },
  },
  contenders: [{ name: `${large.length} rows`, run: () => rebuild(large) }],
  perItem: {
    [`${small.length} rows × ${repeats}`]: large.length,
    [`${large.length} rows`]: large.length,
  },
  limits: [{ contender: `${large.length} rows`, atMost: 1.5 }],
});
