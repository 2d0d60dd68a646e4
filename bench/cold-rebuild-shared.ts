// A realistic turn for the cold-rebuild and AI SDK comparisons (issue 15): a user's text, ~500
// characters of reasoning, two tool calls with ~300-character results, ~800 characters of answer.
import type { Chunk } from '../src/schema/chunk.js';
import type { ChunkRowDraft } from '../src/schema/chunk-row.js';
import { explodeTurn } from '../src/transforms/explode-turn.js';

const sentence = (seed: string, length: number) =>
  `${seed}: ${'the build fails on CI because the cache key changed. '.repeat(Math.ceil(length / 52))}`.slice(
    0,
    length,
  );

/** The chunks of one realistic turn: the user's and the assistant's. */
export function realisticTurn(n: number): { user: Chunk[]; assistant: Chunk[] } {
  return {
    user: [{ type: 'text', step: 0, text: sentence(`question ${n}`, 120) }],
    assistant: [
      {
        type: 'thinking',
        step: 0,
        text: sentence(`thinking ${n}`, 500),
        providerMetadata: { anthropic: { signature: `sig-${n}-${'x'.repeat(40)}` } },
      },
      {
        type: 'tool-batch',
        step: 0,
        calls: [
          {
            id: `call-${n}-a`,
            name: 'read_file',
            input: { path: `src/file-${n}.ts` },
            result: sentence(`file ${n}`, 300),
          },
          {
            id: `call-${n}-b`,
            name: 'grep',
            input: { pattern: 'cache', dir: 'src' },
            result: sentence(`grep ${n}`, 300),
          },
        ],
      },
      { type: 'text', step: 1, text: sentence(`answer ${n}`, 800) },
    ],
  };
}

/** The row drafts of turn `n`. */
export function realisticDrafts(n: number): ChunkRowDraft[] {
  const turnId = `turn-${String(n).padStart(6, '0')}`;
  const { user, assistant } = realisticTurn(n);
  return [
    ...explodeTurn(turnId, user, { role: 'user' }),
    ...explodeTurn(turnId, assistant, { role: 'assistant' }),
  ];
}
