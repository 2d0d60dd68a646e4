// A thread with every chunk kind and every turn status, usage recorded, a title, an owner and
// metadata: what the transfer tests export and import.
import type { Chunk } from '../../src/schema/chunk.js';
import type { ChunkStore } from '../../src/store/index.js';
import { explodeTurn } from '../../src/transforms/index.js';

const user = (turnId: string, text: string) =>
  explodeTurn(turnId, [{ type: 'text', step: 0, text }], { role: 'user' });

const RICH: Chunk[] = [
  {
    type: 'thinking',
    step: 0,
    text: 'Two tools at once.',
    providerMetadata: { anthropic: { signature: 'sig-1' } },
  },
  {
    type: 'tool-batch',
    step: 0,
    calls: [
      {
        id: 'c1',
        name: 'weather',
        input: { city: 'Lyon' },
        progress: 'locating…\n',
        result: { celsius: 21 },
      },
      { id: 'c2', name: 'flights', input: { to: 'Rome' }, result: 'HTTP 500', isError: true },
    ],
  },
  { type: 'system', step: 1, kind: 'model-changed', text: 'Switched from opus to sonnet' },
  { type: 'steering', step: 1, id: 'st1', text: 'only trains, please' },
  {
    type: 'source',
    step: 1,
    source: { sourceType: 'url', id: 's1', url: 'https://example.com/trains', title: 'Trains' },
  },
  { type: 'file', step: 1, mediaType: 'image/png', data: 'iVBORw0KGgo=', filename: 'map.png' },
  { type: 'custom', step: 1, kind: 'anthropic.fallback' },
  { type: 'data', step: 1, name: 'weather-card', data: { celsius: 21 } },
  { type: 'text', step: 1, text: 'Take the train — 🚆 “quoted” \u2028 line' },
  { type: 'error', step: 1, message: 'Overloaded', statusCode: 529 },
];

/** Seeds thread `threadId` (the store migrated): five turns, one of each status. */
export async function seedTransferThread(store: ChunkStore, threadId: string): Promise<void> {
  await store.createThread(threadId, {
    title: 'Trip planning',
    ownerId: 'ada',
    metadata: { pinned: true, tags: ['travel'] },
  });
  await store.appendTurn(
    threadId,
    [...user('t1', 'Plan a trip'), ...explodeTurn('t1', RICH, { role: 'assistant' })],
    { status: 'failed', createdAt: '2026-01-02T03:04:05.678Z' },
  );
  await store.recordUsage(threadId, 't1', [
    {
      step: 0,
      modelId: 'claude-opus-4-1',
      finishReason: 'tool-calls',
      usage: { inputTokens: 1200, outputTokens: 40, reasoningTokens: 12, cacheReadTokens: 1000 },
      durationMs: 2300,
    },
    { step: 1, modelId: 'claude-sonnet-4-5', usage: { inputTokens: 1400, outputTokens: 90 } },
  ]);
  await store.appendTurn(
    threadId,
    [
      ...user('t2', 'Thanks'),
      ...explodeTurn('t2', [{ type: 'text', step: 0, text: 'You are welcome.' }], {
        role: 'assistant',
      }),
    ],
    { createdAt: '2026-01-02T03:05:00.000Z' },
  );
  await store.appendTurn(
    threadId,
    [
      ...user('t3', 'Stop'),
      ...explodeTurn('t3', [{ type: 'system', step: 0, kind: 'cancelled', text: 'Stopped.' }], {
        role: 'assistant',
      }),
    ],
    { status: 'cancelled' },
  );
  await store.appendTurn(threadId, user('t4', 'Lost'), { status: 'interrupted' });
  // A turn still running: its user message and one step.
  await store.beginTurn(threadId, user('t5', 'Still going'));
  await store.appendSteps(
    threadId,
    't5',
    explodeTurn('t5', [{ type: 'text', step: 0, text: 'Working on it' }], { role: 'assistant' }),
  );
}

/** Collects an export's lines into one string. */
export async function collect(lines: AsyncIterable<string>): Promise<string> {
  let text = '';
  for await (const line of lines) text += line;
  return text;
}
