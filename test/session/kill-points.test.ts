// Kill points: a child process runs a 5-step turn (thinking, parallel tool calls, text) with
// `durability: 'step'` and a lease, and is SIGKILLed at every pause point (before and after each
// store write, inside each tool). After each kill the store holds exactly the rows of the writes
// that finished, seqs dense, the turn `running`; a new session that takes the lease over closes
// it (`interrupted`, no orphan tool call) and runs the next turn right after it. On the SQLite
// file, PostgreSQL and MariaDB.
import { afterAll, describe, expect, it } from 'vitest';
import { createAgentSession } from '../../src/entries/session.js';
import { toModelMessages } from '../../src/model-messages/index.js';
import { createScriptedModel } from '../../src/testing/index.js';
import {
  availableDialects,
  createHarness,
  type DialectHarness,
} from '../store/support/dialects.js';
import { durableTools } from './support/durable-script.js';
import { content, inBatches, killPoints, runWorker } from './support/kill-harness.js';
import { orphansInBodies } from './support/provider-request.js';

(globalThis as { AI_SDK_LOG_WARNINGS?: unknown }).AI_SDK_LOG_WARNINGS = false;
const available = await availableDialects();
const harnesses: DialectHarness[] = [];
afterAll(async () => {
  for (const h of harnesses) await h.dispose();
});

for (const name of ['sqlite', 'postgres', 'mysql'] as const) {
  describe.skipIf(!available.includes(name))(`${name}: a session killed at every point`, () => {
    it('keeps exactly the finished writes, and a takeover closes the turn honestly', async () => {
      const harness = createHarness(name);
      harnesses.push(harness);
      const store = harness.openStore();
      await store.migrate();

      const reference = await runWorker(harness, 'reference', -1);
      expect(reference.messages.find((m) => m.type === 'error')?.message).toBeUndefined();
      expect(reference.exit).toBe(0);
      const points = reference.messages.find((m) => m.type === 'done')?.points as number;
      expect(points).toBeGreaterThanOrEqual(10);
      const whole = await store.getRows('reference');
      // Where the turn's writes end, in rows (0: nothing stored yet).
      const boundaries = [0];
      for (const m of reference.messages) {
        if (m.type === 'written')
          boundaries.push((boundaries.at(-1) as number) + (m.rows as number));
      }
      expect(boundaries.at(-1)).toBe(whole.length);
      expect(await store.getTurnInfo('reference', 'turn-1')).toMatchObject({ status: 'completed' });

      // Every point on SQLite; on the servers ten or more spread over the turn (each kill is a
      // process start, slow on a loaded machine).
      const killAts = killPoints(name, points);
      expect(new Set(killAts).size).toBeGreaterThanOrEqual(10);
      const names = new Set<string>();
      await inBatches(killAts, 4, async (k) => {
        const threadId = `kill-${k}`;
        const run = await runWorker(harness, threadId, k);
        expect(run.exit, `point ${k}`).toBe('SIGKILL');
        const stopped = run.messages.find((m) => m.type === 'point');
        expect(stopped?.point).toBe(k);
        names.add(stopped?.name as string);
        // Writes the parent heard of landed; the one in flight at the kill may have too.
        const acknowledged = run.messages
          .filter((m) => m.type === 'written')
          .reduce((n, m) => n + (m.rows as number), 0);
        const stored = (await store.hasTurn(threadId, 'turn-1'))
          ? await store.getRows(threadId)
          : [];
        const written = stored.length;
        expect(written, `point ${k}`).toBeGreaterThanOrEqual(acknowledged);
        // Exactly the rows of writes that ended: the whole turn cut at a write's end.
        expect(boundaries, `point ${k} (${stopped?.name})`).toContain(written);
        expect(stored.map(content), `point ${k} (${stopped?.name})`).toEqual(
          whole.slice(0, written).map(content),
        );
        if (written === 0) return;
        const info = await store.getTurnInfo(threadId, 'turn-1');
        if (info?.status === 'completed') {
          // Killed after the write that ended the turn: it is whole.
          expect(written).toBe(whole.length);
          return;
        }
        expect(info).toMatchObject({ status: 'running' });

        // A new session, once the dead worker's lease expired (the store's clock, moved on).
        const later = harness.openStore({ now: () => Date.now() + 7_200_000 });
        try {
          const next = createAgentSession({
            store: later,
            threadId,
            model: createScriptedModel([{ parts: [{ type: 'text', text: 'Next answer.' }] }]),
            idGenerator: () => 'turn-2',
            durability: 'step',
            lease: { ttlMs: 60_000 },
          });
          await next.send('And now?').rows;
          await next.close();
        } finally {
          await later.close();
        }
        expect(await store.getTurnInfo(threadId, 'turn-1')).toMatchObject({
          status: 'interrupted',
        });
        const after = await store.getRows(threadId);
        expect(after.map((r) => r.seq)).toEqual(after.map((_, i) => i + 1));
        // The stored steps are untouched; the closing rows follow; then the next turn.
        expect(after.slice(0, written).map(content)).toEqual(whole.slice(0, written).map(content));
        const first = after.filter((r) => r.turnId === 'turn-1');
        expect(first.at(-1)).toMatchObject({ type: 'system', data: { kind: 'interrupted' } });
        expect(after[first.length]).toMatchObject({ turnId: 'turn-2', role: 'user' });
        expect(await store.getTurnInfo(threadId, 'turn-2')).toMatchObject({ status: 'completed' });
        // The next model input answers every call.
        const input = toModelMessages(await store.getMessages(threadId));
        const ids = (type: string) =>
          input
            .flatMap((m): readonly { type: string }[] =>
              Array.isArray(m.content) ? m.content : [],
            )
            .filter((p) => p.type === type)
            .map((p) => (p as unknown as { toolCallId: string }).toolCallId)
            .sort();
        expect(ids('tool-result')).toEqual(ids('tool-call'));
        // The real Anthropic and OpenAI request builders take it, every call answered.
        const next = [...input, { role: 'user' as const, content: 'And then?' }];
        const built = await orphansInBodies(next, durableTools());
        expect(built, `point ${k}`).toEqual({
          anthropic: [],
          openai: [],
          calls: [ids('tool-call').length, ids('tool-call').length],
        });
      });
      // Points of every kind were hit.
      expect([...names].some((n) => n.startsWith('in '))).toBe(true);
      expect([...names].some((n) => n.startsWith('before appendSteps'))).toBe(true);
      expect([...names].some((n) => n.startsWith('after appendSteps'))).toBe(true);
      await store.close();
    }, 600_000);
  });
}
