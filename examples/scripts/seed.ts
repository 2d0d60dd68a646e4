// Seeds a store without a model: the chunk-refactor plan's example turn, written as the chunk
// events a live session would stream, folded by the reducer and stored as one turn.
import { type Chunk, type ChunkEvent, explodeTurn, foldTurn } from 'chunklog';
import type { ChunkStore } from 'chunklog/store';

const signed = (signature: string) => ({ anthropic: { signature } });

/** The plan's example: think, answer, rate limit and model switch, think, two tools, answer, error. */
export const exampleTurnEvents: readonly ChunkEvent[] = [
  { type: 'turn-start', turnId: 'turn-1' },
  { type: 'step-start', step: 0 },
  { type: 'reasoning-start', id: 'r1' },
  { type: 'reasoning-delta', id: 'r1', text: 'I should explain X from its definition.' },
  { type: 'reasoning-end', id: 'r1', providerMetadata: signed('sig-opus-1') },
  { type: 'text-delta', id: 't1', text: "Sure, here's the gist..." },
  {
    type: 'system',
    kind: 'model-changed',
    text: 'Switched to claude-sonnet-4 (rate limit, HTTP 429)',
  },
  { type: 'reasoning-start', id: 'r2' },
  { type: 'reasoning-delta', id: 'r2', text: 'Now I need to look at the source.' },
  { type: 'reasoning-end', id: 'r2', providerMetadata: signed('sig-sonnet-1') },
  { type: 'tool-call', toolCallId: 'call-1', toolName: 'read_file', input: { path: 'x.ts' } },
  { type: 'tool-call', toolCallId: 'call-2', toolName: 'list_files', input: { dir: '.' } },
  { type: 'tool-progress', toolCallId: 'call-2', text: 'x.ts\n' },
  {
    type: 'tool-result',
    toolCallId: 'call-1',
    toolName: 'read_file',
    output: 'export const x = 1;',
  },
  { type: 'tool-result', toolCallId: 'call-2', toolName: 'list_files', output: ['x.ts', 'y.ts'] },
  { type: 'step-finish', step: 0, finishReason: 'tool-calls' },
  { type: 'step-start', step: 1 },
  { type: 'text-delta', id: 't2', text: 'Looking at the file, X is a constant.' },
  { type: 'error', message: 'Network error', statusCode: 503 },
  { type: 'turn-end', finishReason: 'error' },
];

const userText = (text: string): Chunk[] => [{ type: 'text', step: 0, text }];

/** Stores the example turn (and a short second one) in `threadId`. Idempotent (turn ids). */
export async function seedExampleThread(store: ChunkStore, threadId: string): Promise<void> {
  const turn = foldTurn(exampleTurnEvents);
  await store.appendTurn(threadId, [
    ...explodeTurn('turn-1', userText('explain X'), { role: 'user' }),
    ...explodeTurn('turn-1', turn.chunks, { role: 'assistant' }),
  ]);
  const second = foldTurn([
    { type: 'turn-start', turnId: 'turn-2' },
    { type: 'text-delta', text: 'X is exported from x.ts and equals 1.' },
    { type: 'turn-end', finishReason: 'stop' },
  ]);
  await store.appendTurn(threadId, [
    ...explodeTurn('turn-2', userText('and in one line?'), { role: 'user' }),
    ...explodeTurn('turn-2', second.chunks, { role: 'assistant' }),
  ]);
}
