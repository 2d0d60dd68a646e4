// A store with every chunk kind, HTML in model output, a thread with a title and an owner, a long
// thread and enough threads for two pages: what the inspector tests browse.
import type { Chunk } from '../../src/schema/chunk.js';
import type { ChunkStore } from '../../src/store/index.js';
import { explodeTurn } from '../../src/transforms/index.js';

export const XSS = '<img src=x onerror=alert(1)>';

async function turn(
  store: ChunkStore,
  threadId: string,
  turnId: string,
  user: string,
  assistant: Chunk[],
  status?: 'cancelled' | 'failed',
) {
  await store.appendTurn(
    threadId,
    [
      ...explodeTurn(turnId, [{ type: 'text', step: 0, text: user }], { role: 'user' }),
      ...explodeTurn(turnId, assistant, { role: 'assistant' }),
    ],
    status === undefined ? undefined : { status },
  );
}

/**
 * Seeds `store` (migrated): threads `showcase` (two turns, usage recorded), `legacy` (no rows),
 * `long` (240 rows) and `t00`…`t54`.
 */
export async function seedInspectorStore(store: ChunkStore): Promise<void> {
  for (let i = 0; i < 55; i++) {
    await turn(store, `t${String(i).padStart(2, '0')}`, `tt${i}`, `hello ${i}`, [
      { type: 'text', step: 0, text: `answer ${i}` },
    ]);
  }
  for (let i = 1; i <= 120; i++) {
    await turn(store, 'long', `long-${i}`, `question ${i}`, [
      { type: 'text', step: 0, text: `answer ${i}` },
    ]);
  }
  await store.createThread('showcase', { ownerId: 'ada', title: 'Trip planning' });
  // A 0.1.0 thread kept its title and owner in metadata: still shown.
  await store.createThread('legacy', { metadata: { title: 'Old notes', owner: 'grace' } });
  await turn(
    store,
    'showcase',
    'turn-1',
    `Plan a trip ${XSS}`,
    [
      {
        type: 'thinking',
        step: 0,
        text: `Two tools at once. ${XSS}`,
        providerMetadata: { anthropic: { signature: 'sig-1' } },
      },
      {
        type: 'tool-batch',
        step: 0,
        calls: [
          {
            id: 'c1',
            name: 'weather',
            input: { city: XSS },
            progress: 'locating…\nreading the station…\n',
            result: { celsius: 21 },
          },
          { id: 'c2', name: 'flights', input: { to: 'Rome' }, result: 'HTTP 500', isError: true },
        ],
      },
      {
        type: 'system',
        step: 1,
        kind: 'model-changed',
        text: 'Switched from opus to sonnet (429)',
      },
      { type: 'steering', step: 1, id: 'st1', text: 'only trains, please' },
      {
        type: 'source',
        step: 1,
        source: { sourceType: 'url', id: 's1', url: 'https://example.com/trains', title: 'Trains' },
      },
      {
        type: 'source',
        step: 1,
        source: { sourceType: 'url', id: 's2', url: 'javascript:alert(2)', title: 'bad link' },
      },
      { type: 'file', step: 1, mediaType: 'image/png', data: 'iVBORw0KGgo=', filename: 'map.png' },
      { type: 'custom', step: 1, kind: 'anthropic.fallback' },
      { type: 'data', step: 1, name: 'weather-card', data: { celsius: 21 } },
      { type: 'text', step: 1, text: `Take the train. <script>alert(3)</script>` },
      { type: 'error', step: 1, message: 'Overloaded', statusCode: 529 },
      { type: 'system', step: 1, kind: 'cancelled', text: 'Stopped by the user.' },
    ],
    'failed',
  );
  await store.recordUsage('showcase', 'turn-1', [
    {
      step: 0,
      modelId: 'claude-opus-4-1',
      usage: { inputTokens: 1200, outputTokens: 40, reasoningTokens: 12, cacheReadTokens: 1000 },
      durationMs: 2300,
    },
    { step: 1, modelId: 'claude-sonnet-4-5', usage: { inputTokens: 1400, outputTokens: 90 } },
  ]);
  // A second turn: its model input holds the first as history, with cache breakpoints.
  await turn(store, 'showcase', 'turn-2', 'And the way back?', [
    { type: 'text', step: 0, text: 'The same train, at 18:05.' },
  ]);
  await store.recordUsage('showcase', 'turn-2', [
    {
      step: 0,
      modelId: 'claude-sonnet-4-5',
      usage: { inputTokens: 1500, outputTokens: 12, cacheReadTokens: 1400 },
      durationMs: 900,
    },
  ]);
}
