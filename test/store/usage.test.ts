// Usage per step: recorded with a turn, read back with it, totalled per thread, priced by the
// app's function; retries keep the first record; bad input is refused.
import { afterAll, describe, expect, it } from 'vitest';
import type { StepUsage } from '../../src/store/index.js';
import { textDrafts } from '../../src/testing/index.js';
import { rejected as errorOf } from '../support/chunklog-error.js';
import { availableDialects, createHarness, type DialectHarness } from './support/dialects.js';

const available = await availableDialects();
const harnesses: DialectHarness[] = [];
afterAll(async () => {
  for (const h of harnesses) await h.dispose();
});

const turnA: StepUsage[] = [
  {
    step: 0,
    modelId: 'model-a',
    finishReason: 'tool-calls',
    usage: { inputTokens: 1200, outputTokens: 40, cacheReadTokens: 1000, totalTokens: 1240 },
    durationMs: 850,
  },
  {
    step: 1,
    modelId: 'model-b',
    finishReason: 'stop',
    usage: { inputTokens: 1300, outputTokens: 60, reasoningTokens: 20, cacheWriteTokens: 5 },
  },
];
const turnB: StepUsage[] = [{ step: 0, usage: { inputTokens: 3_000_000_000, outputTokens: 1 } }];

for (const name of ['sqlite', 'postgres', 'mysql'] as const) {
  describe.skipIf(!available.includes(name))(`usage on ${name}`, () => {
    it('reads a turn’s steps back, totals the thread, prices it, keeps the first record', async () => {
      const h = createHarness(name);
      harnesses.push(h);
      const store = h.openStore();
      await store.migrate();
      await store.appendTurn('u', textDrafts('a', 2));
      await store.appendTurn('u', textDrafts('b', 2));
      await store.recordUsage('u', 'a', turnA);
      await store.recordUsage('u', 'b', turnB);
      // A retry with other numbers changes nothing.
      await store.recordUsage('u', 'a', [{ step: 0, usage: { inputTokens: 1 } }]);
      await store.recordUsage('u', 'a', []);

      const a = await store.getTurnUsage('u', 'a');
      expect(a).toEqual({
        turnId: 'a',
        steps: turnA,
        total: {
          inputTokens: 2500,
          outputTokens: 100,
          totalTokens: 1240,
          reasoningTokens: 20,
          cacheReadTokens: 1000,
          cacheWriteTokens: 5,
        },
      });
      expect(await store.getTurnUsage('u', 'missing')).toBeNull();

      const price = (modelId: string | undefined, u: { inputTokens?: number | undefined }) =>
        (modelId === 'model-a' ? 2 : 1) * (u.inputTokens ?? 0);
      const thread = await store.getThreadUsage('u', { price });
      expect(thread.turns).toBe(2);
      expect(thread.steps).toBe(3);
      expect(thread.total.inputTokens).toBe(2500 + 3_000_000_000);
      expect(thread.total.outputTokens).toBe(101);
      expect(thread.cost).toBe(2 * 1200 + 1300 + 3_000_000_000);
      expect((await store.getTurnUsage('u', 'a', { price }))?.cost).toBe(2 * 1200 + 1300);

      // Deleting the thread deletes its usage.
      await store.deleteThread('u');
      await store.appendTurn('u', textDrafts('a', 1));
      expect(await store.getTurnUsage('u', 'a')).toBeNull();
      expect((await store.getThreadUsage('u')).steps).toBe(0);
      await store.close();
    });

    it('refuses bad steps and an unknown thread', async () => {
      const h = createHarness(name);
      harnesses.push(h);
      const store = h.openStore();
      await store.migrate();
      await store.appendTurn('v', textDrafts('a', 1));
      const bad: Array<[unknown, string]> = [
        [{ step: -1, usage: {} }, 'steps[0]'],
        [{ step: 0, usage: { inputTokens: 1.5 } }, 'steps[0]'],
        [{ step: 0, usage: {}, extra: 1 }, 'steps[0]'],
      ];
      for (const [step, option] of bad) {
        const error = await errorOf(store.recordUsage('v', 'a', [step as StepUsage]));
        expect(error.code).toBe('invalid-option');
        expect(error.option).toBe(option);
      }
      expect((await errorOf(store.recordUsage('nope', 'a', turnA))).code).toBe('thread-not-found');
      expect((await errorOf(store.getThreadUsage('nope'))).code).toBe('thread-not-found');
      expect((await errorOf(store.getThreadUsage('v', { price: 3 as never }))).option).toBe(
        'price',
      );
      await store.close();
    });
  });
}
