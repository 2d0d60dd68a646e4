// The turns the history-snapshot suites store: a realistic small turn, and a generated one.

import { createAgentSession } from '../../../src/entries/session.js';
import type { Chunk } from '../../../src/schema/chunk.js';
import type { ChunkRowDraft } from '../../../src/schema/chunk-row.js';
import type { ChunkStore } from '../../../src/store/index.js';
import { createScriptedModel } from '../../../src/testing/index.js';
import { explodeTurn } from '../../../src/transforms/explode-turn.js';
import type { TurnSpec } from '../../transforms/arbitraries.js';

/**
 * The 5 rows of a realistic small turn: a question, reasoning with a signature, a tool call and
 * its result, an answer (with characters outside ASCII and the BMP).
 */
export function snapshotTurn(n: number, turnId = `turn-${n}`): ChunkRowDraft[] {
  const assistant: Chunk[] = [
    {
      type: 'thinking',
      step: 0,
      text: `thinking ${n}`,
      providerMetadata: { anthropic: { signature: `sig-${n}` } },
    },
    {
      type: 'tool-batch',
      step: 0,
      calls: [{ id: `call-${n}`, name: 'read', input: { path: `f${n}` }, result: `file ${n}` }],
    },
    { type: 'text', step: 1, text: `answer ${n} ✓ 🎉` },
  ];
  return [
    ...explodeTurn(turnId, [{ type: 'text', step: 0, text: `question ${n}` }], { role: 'user' }),
    ...explodeTurn(turnId, assistant, { role: 'assistant' }),
  ];
}

/** The drafts of a generated turn. */
export function draftsOf(spec: TurnSpec): ChunkRowDraft[] {
  if (spec.kind === 'system') return explodeTurn(spec.turnId, spec.chunks, { role: 'system' });
  return [
    ...explodeTurn(spec.turnId, spec.user, { role: 'user' }),
    ...explodeTurn(spec.turnId, spec.assistant, { role: 'assistant' }),
  ];
}

/** The model input a new session over `store` sends for its first turn on `threadId`, as JSON. */
export async function firstModelInput(store: ChunkStore, threadId: string): Promise<string> {
  const model = createScriptedModel([{ parts: [{ type: 'text', text: 'ok' }] }]);
  const session = createAgentSession({ store, threadId, model });
  try {
    return JSON.stringify(await session.modelMessages({ text: 'next', turnId: 'n' }));
  } finally {
    await session.close();
  }
}
