// Two processes send 20 turns each on one thread at once, with `durability: 'step'` and a lease
// (waiting for it): no two turns interleave, none is lost, and each turn's model input held every
// turn stored before it. On the SQLite file, PostgreSQL and MariaDB (the lease and the thread's
// row lock are each dialect's own).
import { fork } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ChunkRow } from '../../src/schema/chunk-row.js';
import {
  availableDialects,
  createHarness,
  type DialectHarness,
} from '../store/support/dialects.js';

const available = await availableDialects();
const harnesses: DialectHarness[] = [];
afterAll(async () => {
  for (const h of harnesses) await h.dispose();
});

interface Message {
  readonly type: string;
  readonly users?: number;
  readonly turnId?: string;
  readonly message?: string;
}

function runWriter(harness: DialectHarness, writer: string, turns: number) {
  const spec = { name: harness.name, prefix: harness.prefix, file: harness.file };
  const child = fork(
    join(import.meta.dirname, 'support', 'durable-worker.ts'),
    [JSON.stringify({ spec, threadId: 'shared', killAt: -1, turns, writer })],
    { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] },
  );
  const messages: Message[] = [];
  child.on('message', (m: Message) => messages.push(m));
  const exited = new Promise<number | NodeJS.Signals | null>((resolve) =>
    child.on('exit', (code, signal) => resolve(signal ?? code)),
  );
  return { messages, exited };
}

for (const name of ['sqlite', 'postgres', 'mysql'] as const) {
  describe.skipIf(!available.includes(name))(`${name}: two processes on one thread`, () => {
    it('20 turns each: never interleaved, none lost, each history holds every turn before it', async () => {
      const harness = createHarness(name);
      harnesses.push(harness);
      const store = harness.openStore();
      await store.migrate();
      const turns = 20;
      const writers = [runWriter(harness, 'a', turns), runWriter(harness, 'b', turns)];
      const codes = await Promise.all(writers.map((w) => w.exited));
      for (const w of writers) {
        expect(w.messages.find((m) => m.type === 'error')?.message).toBeUndefined();
      }
      expect(codes).toEqual([0, 0]);
      const rows = await store.getRows('shared');
      expect(rows.map((r) => r.seq)).toEqual(rows.map((_, i) => i + 1));
      // Each turn one contiguous run of rows: user message, answer.
      const order: string[] = [];
      for (const row of rows) {
        if (order.at(-1) !== row.turnId) {
          expect(order, `turn ${row.turnId} interleaved`).not.toContain(row.turnId);
          order.push(row.turnId);
        }
      }
      expect(order).toHaveLength(2 * turns);
      expect(new Set(order).size).toBe(2 * turns);
      for (const turnId of order) {
        const own = rows.filter((r: ChunkRow) => r.turnId === turnId);
        expect(own.map((r) => r.role)).toEqual(['user', 'assistant']);
        expect(await store.getTurnInfo('shared', turnId)).toMatchObject({ status: 'completed' });
      }
      // The model input of the turn at position p held p earlier turns and its own message.
      for (const w of writers) {
        const prompts = w.messages.filter((m) => m.type === 'prompt').map((m) => m.users);
        const done = w.messages.filter((m) => m.type === 'turn').map((m) => m.turnId as string);
        expect(prompts).toHaveLength(done.length);
        done.forEach((turnId, i) => {
          expect(prompts[i], turnId).toBe(order.indexOf(turnId) + 1);
        });
      }
      await store.close();
    }, 600_000);
  });
}
