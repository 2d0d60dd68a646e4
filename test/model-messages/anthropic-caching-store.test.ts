// Caching across turns when the history comes back from the store: turn 1 runs through the real
// @ai-sdk/anthropic provider; its stream is folded by the reducer, exploded to rows, stored as
// JSON, grouped and rebuilt by toModelMessages for turn 2. The requests of both turns, taken
// together, keep the cached content up to every breakpoint identical: the store-rebuilt history
// serializes to the same bytes the provider cached during turn 1.
import type { ModelMessage } from 'ai';
import { describe, expect, it } from 'vitest';
import {
  type Chunk,
  type ChunkRow,
  explodeTurn,
  foldStream,
  groupRowsToMessages,
  toModelMessages,
} from '../../src/index.js';
import {
  anthropicStream,
  captureSdkWarnings,
  recordingFetch,
  scriptedAnthropic,
} from './support/anthropic-script.js';
import { cachedTurn, expectStableCaching, stepScripts } from './support/cache-run.js';

const warnings = captureSdkWarnings();

describe('applyAnthropicCaching over a history rebuilt from the store', () => {
  it('the next turn reads back what the previous turn cached', async () => {
    const recorder = recordingFetch(
      [...stepScripts, ...stepScripts.slice(1)].map((blocks) => anthropicStream(blocks)),
    );
    const model = scriptedAnthropic(recorder);
    const rows: ChunkRow[] = [];
    const store = (turnId: string, user: Chunk[], assistant: readonly Chunk[]) => {
      const drafts = [
        ...explodeTurn(turnId, user, { role: 'user' }),
        ...explodeTurn(turnId, assistant, { role: 'assistant' }),
      ];
      for (const d of drafts) rows.push({ ...d, threadId: 'th', seq: rows.length + 1 } as ChunkRow);
    };
    const ask = async (turnId: string, text: string, steps: number) => {
      const history = toModelMessages(
        groupRowsToMessages(JSON.parse(JSON.stringify(rows)) as ChunkRow[]),
      );
      const messages: ModelMessage[] = [...history, { role: 'user', content: text }];
      const state = await foldStream(cachedTurn(model, messages, steps).stream);
      store(turnId, [{ type: 'text', step: 0, text }], state.chunks);
    };

    await ask('t1', 'Read my project.', 4);
    await ask('t2', 'Read it again, without listing.', 3);

    expect(recorder.bodies).toHaveLength(7);
    expect(expectStableCaching(recorder.bodies)).toBeGreaterThan(0);
    // Turn 2's first request starts with exactly the blocks turn 1's last request sent.
    const last = JSON.stringify((recorder.bodies[3] as { messages: unknown[] }).messages);
    const next = JSON.stringify((recorder.bodies[4] as { messages: unknown[] }).messages);
    const strip = (s: string) => s.replace(/,?"cache_control":\{[^{}]*\}/g, '');
    expect(strip(next).startsWith(strip(last).slice(0, -1))).toBe(true);
    expect(warnings).toEqual([]);
  });
});
