// A kill inside a step write's open transaction: the worker process SIGKILLs itself right after
// the write's chunk INSERT ran, before its COMMIT was sent. The store is then exactly as before the
// write: the rows of the writes that ended, no partial step, the turn `running`, and the thread's
// next seq where those rows end (closing the turn appends right after them). On the SQLite file,
// PostgreSQL and MariaDB.
import { afterAll, describe, expect, it } from 'vitest';
import { closeInterruptedTurns } from '../../src/entries/session.js';
import type { ChunkRow } from '../../src/schema/chunk-row.js';
import {
  availableDialects,
  createHarness,
  type DialectHarness,
} from '../store/support/dialects.js';
import { runWorker } from './support/kill-harness.js';

const available = await availableDialects();
const harnesses: DialectHarness[] = [];
afterAll(async () => {
  for (const h of harnesses) await h.dispose();
});

function body(row: ChunkRow): unknown {
  return { seq: row.seq, step: row.step, role: row.role, type: row.type, data: row.data };
}

for (const name of ['sqlite', 'postgres', 'mysql'] as const) {
  describe.skipIf(!available.includes(name))(`${name}: a kill inside a step write`, () => {
    it('leaves the store as before the write', async () => {
      const harness = createHarness(name);
      harnesses.push(harness);
      const store = harness.openStore();
      await store.migrate();

      const reference = await runWorker(harness, 'reference', -1);
      expect(reference.messages.find((m) => m.type === 'error')?.message).toBeUndefined();
      const whole = await store.getRows('reference');
      // Rows per write: beginTurn's, then each appendSteps'.
      const writes = reference.messages.filter((m) => m.type === 'written').map((m) => m.rows);
      const stepWrites = writes.length - 1;
      expect(stepWrites).toBeGreaterThanOrEqual(4);

      await Promise.all(
        Array.from({ length: stepWrites }, async (_, i) => {
          const threadId = `in-write-${i}`;
          const run = await runWorker(harness, threadId, -1, { killInWrite: i });
          expect(run.exit, `write ${i}`).toBe('SIGKILL');
          // Every write before the killed one was acknowledged; the killed one never was.
          const acknowledged = run.messages.filter((m) => m.type === 'written');
          expect(acknowledged.map((m) => m.rows)).toEqual(writes.slice(0, i + 1));
          const before = writes.slice(0, i + 1).reduce((n: number, r) => n + (r as number), 0);
          const stored = await store.getRows(threadId);
          expect(stored.map(body), `write ${i}`).toEqual(whole.slice(0, before).map(body));
          expect(await store.getTurnInfo(threadId, 'turn-1'), `write ${i}`).toMatchObject({
            status: 'running',
          });
          // The thread's next seq did not move: what comes next follows the stored rows.
          await closeInterruptedTurns(store, threadId);
          const after = await store.getRows(threadId);
          expect(after.map((r) => r.seq)).toEqual(after.map((_, k) => k + 1));
          expect(after.slice(0, before).map(body)).toEqual(stored.map(body));
        }),
      );
      await store.close();
    }, 300_000);
  });
}
