// A sweep across threads (recoverInterruptedTurns): workers SIGKILLed mid-turn leave `running`
// turns; a sweep run from another process (this one), twice at once, closes each exactly once,
// leaves a thread whose writer is alive alone, and can continue a turn instead of closing it.
import { afterAll, describe, expect, it } from 'vitest';
import { createAgentSession, recoverInterruptedTurns } from '../../src/entries/session.js';
import type { ChunkRow } from '../../src/schema/chunk-row.js';
import {
  availableDialects,
  createHarness,
  type DialectHarness,
} from '../store/support/dialects.js';
import { durableScript, durableTools } from './support/durable-script.js';
import { runWorker } from './support/kill-harness.js';

(globalThis as { AI_SDK_LOG_WARNINGS?: unknown }).AI_SDK_LOG_WARNINGS = false;
const available = await availableDialects();
const harnesses: DialectHarness[] = [];
afterAll(async () => {
  for (const h of harnesses) await h.dispose();
});

const HOUR = 3_600_000;
const interrupted = (row: ChunkRow) => row.type === 'system' && row.data.kind === 'interrupted';

for (const name of ['postgres', 'sqlite'] as const) {
  describe.skipIf(!available.includes(name))(`${name}: recoverInterruptedTurns`, () => {
    it('closes each killed worker’s turn once, across threads, from another process', async () => {
      const harness = createHarness(name);
      harnesses.push(harness);
      const store = harness.openStore();
      await store.migrate();
      const reference = await runWorker(harness, 'reference', -1);
      const points = reference.messages.find((m) => m.type === 'done')?.points as number;
      expect(points).toBeGreaterThanOrEqual(10);

      // Three workers killed at different points after their turn began, one more to continue.
      const killed = ['k1', 'k2', 'k3', 'k4'];
      for (const [i, threadId] of killed.entries()) {
        const run = await runWorker(harness, threadId, Math.floor((points * (i + 1)) / 6));
        expect(run.exit).toBe('SIGKILL');
        expect(await store.getTurnInfo(threadId, 'turn-1')).toMatchObject({ status: 'running' });
      }
      const before = new Map<string, ChunkRow[]>();
      for (const threadId of killed) before.set(threadId, await store.getRows(threadId));
      // A live writer's thread: its lease holds, the sweep must not touch it.
      const alive = await store.acquireLease('alive', 'worker-alive', { ttlMs: 10 * HOUR });
      await store.beginTurn(
        'alive',
        [{ turnId: 'a1', step: 0, role: 'user', type: 'text', data: { text: 'still here' } }],
        { fence: alive.lease },
      );

      // The workers' leases (one hour) have expired by the sweeps' clock.
      const later = () => Date.now() + 2 * HOUR;
      const sweepA = harness.openStore({ now: later });
      const sweepB = harness.openStore({ now: later });
      try {
        // k4 is continued by its own sweep first; then two sweeps at once close the rest.
        const continued = await recoverInterruptedTurns(sweepA, {
          continueWith: (threadId) =>
            createAgentSession({
              store: sweepA,
              threadId,
              model: durableScript(),
              tools: durableTools(),
              durability: 'step',
              lease: { ttlMs: 60_000 },
            }),
          limit: 1,
        });
        expect(continued.map((t) => t.outcome)).toEqual(['continued']);
        const continuedId = continued[0]?.threadId as string;
        expect(await store.getTurnInfo(continuedId, 'turn-1')).toMatchObject({
          status: 'completed',
        });

        const [a, b] = await Promise.all([
          recoverInterruptedTurns(sweepA),
          recoverInterruptedTurns(sweepB),
        ]);
        const closedTurns = [...a, ...b]
          .filter((t) => t.outcome === 'closed')
          .flatMap((t) => t.turnIds.map((turnId) => `${t.threadId}/${turnId}`));
        const rest = killed.filter((threadId) => threadId !== continuedId);
        expect(closedTurns.sort()).toEqual(rest.map((threadId) => `${threadId}/turn-1`).sort());
        expect([...a, ...b].filter((t) => t.outcome === 'failed')).toEqual([]);
        expect([...a, ...b].some((t) => t.threadId === 'alive')).toBe(false);

        for (const threadId of rest) {
          const rows = await store.getRows(threadId);
          expect(await store.getTurnInfo(threadId, 'turn-1')).toMatchObject({
            status: 'interrupted',
          });
          // What the worker stored is untouched; the turn is closed once.
          expect(rows.slice(0, before.get(threadId)?.length)).toEqual(before.get(threadId));
          expect(rows.filter(interrupted)).toHaveLength(1);
          expect(rows.map((r) => r.seq)).toEqual(rows.map((_, i) => i + 1));
        }
        expect(await store.getTurnInfo('alive', 'a1')).toMatchObject({ status: 'running' });
        // Nothing is left for the next sweep but the live writer's turn.
        expect(
          (await sweepA.findInterruptedTurns()).filter((t) => harnessThread(t.threadId)),
        ).toEqual([]);
      } finally {
        await sweepA.close();
        await sweepB.close();
        await store.close();
      }
    });
  });
}

/** Whether a thread is one of this test's (the store's tables are the harness's own). */
function harnessThread(threadId: string): boolean {
  return threadId !== 'alive';
}
