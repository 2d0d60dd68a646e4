// Kill points, then `recovery: 'continue'`: a child process runs the scripted 5-step turn
// (thinking, parallel tool calls, text) with `durability: 'step'` and is SIGKILLed at a pause
// point; a new session (its own store connection, the store's clock past the dead worker's lease)
// continues the turn. The turn then ends `completed` with exactly the rows of an uninterrupted
// run, apart from one `resumed` system row where the stored steps ended; the continued model got
// the very input the uninterrupted run's model got at that step. On the SQLite file,
// PostgreSQL and MariaDB.
import { afterAll, describe, expect, it } from 'vitest';
import { createAgentSession } from '../../src/entries/session.js';
import { toModelMessages } from '../../src/model-messages/index.js';
import type { ChunkRow } from '../../src/schema/chunk-row.js';
import {
  availableDialects,
  createHarness,
  type DialectHarness,
} from '../store/support/dialects.js';
import { durableScript, durableTools, stepOf } from './support/durable-script.js';
import { inBatches, killPoints, runWorker } from './support/kill-harness.js';
import { orphansInBodies } from './support/provider-request.js';

(globalThis as { AI_SDK_LOG_WARNINGS?: unknown }).AI_SDK_LOG_WARNINGS = false;
const available = await availableDialects();
const harnesses: DialectHarness[] = [];
afterAll(async () => {
  for (const h of harnesses) await h.dispose();
});

/** A row without its seq and what differs between threads and runs. */
function body(row: ChunkRow): unknown {
  return { turnId: row.turnId, step: row.step, role: row.role, type: row.type, data: row.data };
}

const isResumed = (row: ChunkRow) => row.type === 'system' && row.data.kind === 'resumed';

for (const name of ['sqlite', 'postgres', 'mysql'] as const) {
  describe.skipIf(!available.includes(name))(`${name}: continue after a kill`, () => {
    it("ends every killed turn with an uninterrupted run's rows, apart from the resume marker", async () => {
      const harness = createHarness(name);
      harnesses.push(harness);
      const store = harness.openStore();
      await store.migrate();

      // The uninterrupted run, in a child process like the killed ones.
      const reference = await runWorker(harness, 'reference', -1);
      expect(reference.messages.find((m) => m.type === 'error')?.message).toBeUndefined();
      const points = reference.messages.find((m) => m.type === 'done')?.points as number;
      const whole = await store.getRows('reference');
      // The same run in this process, for the model input of each step.
      const model = durableScript();
      const inProcess = createAgentSession({
        store,
        threadId: 'reference-here',
        model,
        tools: durableTools(),
        idGenerator: () => 'turn-1',
        durability: 'step',
      });
      await inProcess.send('What do the files export?').rows;
      await inProcess.close();
      expect((await store.getRows('reference-here')).map(body)).toEqual(whole.map(body));
      const prompts = model.prompts;
      expect(prompts).toHaveLength(5);

      const continued = new Set<number>();
      await inBatches(killPoints(name, points), 4, async (k) => {
        const threadId = `continue-${k}`;
        const run = await runWorker(harness, threadId, k);
        expect(run.exit, `point ${k}`).toBe('SIGKILL');
        const where = `point ${k} (${run.messages.find((m) => m.type === 'point')?.name})`;
        // Killed before the user's message was stored: the send never returned, nothing to continue.
        if (!(await store.hasTurn(threadId, 'turn-1'))) return;
        const stored = await store.getRows(threadId);
        if ((await store.getTurnInfo(threadId, 'turn-1'))?.status === 'completed') {
          expect(stored.map(body), where).toEqual(whole.map(body));
          return;
        }
        const later = harness.openStore({ now: () => Date.now() + 7_200_000 });
        const resumedModel = durableScript();
        try {
          const session = createAgentSession({
            store: later,
            threadId,
            model: resumedModel,
            tools: durableTools(),
            durability: 'step',
            lease: { ttlMs: 60_000 },
            recovery: 'continue',
          });
          const results = await session.resumeInterruptedTurns();
          await session.close();
          expect(
            results.map((r) => [r.turnId, r.outcome]),
            where,
          ).toEqual([['turn-1', 'completed']]);
        } finally {
          await later.close();
        }
        continued.add(k);
        expect(await store.getTurnInfo(threadId, 'turn-1'), where).toMatchObject({
          status: 'completed',
        });
        const after = await store.getRows(threadId);
        expect(
          after.map((r) => r.seq),
          where,
        ).toEqual(after.map((_, i) => i + 1));
        // The stored rows untouched, the marker right after them, then the rest of the turn.
        expect(after.slice(0, stored.length), where).toEqual(stored);
        expect(isResumed(after[stored.length] as ChunkRow), where).toBe(true);
        expect(after.filter(isResumed), where).toHaveLength(1);
        expect(after.filter((r) => !isResumed(r)).map(body), where).toEqual(whole.map(body));
        // The continued model was asked for the steps not stored, with the input the
        // uninterrupted run's model had at each of them.
        const storedSteps = new Set(stored.filter((r) => r.role !== 'user').map((r) => r.step));
        expect(stepOf(resumedModel.prompts[0] ?? []), where).toBe(storedSteps.size);
        expect(resumedModel.prompts, where).toEqual(prompts.slice(storedSteps.size));
        // The next model input goes through the real request builders, every call answered.
        const next = [
          ...toModelMessages(await store.getMessages(threadId)),
          { role: 'user' as const, content: 'And then?' },
        ];
        expect(await orphansInBodies(next, durableTools()), where).toEqual({
          anthropic: [],
          openai: [],
          calls: [5, 5],
        });
      });
      // Kills mid-turn were continued (not only after the last write).
      expect(continued.size).toBeGreaterThanOrEqual(5);
      await store.close();
    }, 600_000);
  });
}
