// Property: for any sequence of steps (text, tool calls with or without their results) and any
// kill point, a turn written step by step on the SQLite file holds exactly the steps written
// before the kill, seqs dense, status `running`; closing it leaves no call without a result and
// the next turn follows contiguously.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { closeInterruptedTurns } from '../../src/entries/session.js';
import { toModelMessages } from '../../src/model-messages/index.js';
import type { ChunkRowDraft } from '../../src/schema/chunk-row.js';
import { createChunkStore } from '../../src/store/index.js';

const dir = mkdtempSync(join(tmpdir(), 'chunklog-durable-prop-'));
const store = createChunkStore({ sqlite: join(dir, 'prop.db') });
await store.migrate();
afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const stepArb = fc.record({
  texts: fc.integer({ min: 0, max: 3 }),
  calls: fc.integer({ min: 0, max: 3 }),
  answered: fc.boolean(),
});

function stepDrafts(
  turnId: string,
  step: number,
  spec: { texts: number; calls: number; answered: boolean },
): ChunkRowDraft[] {
  const drafts: ChunkRowDraft[] = [];
  for (let i = 0; i < spec.texts; i++) {
    drafts.push({
      turnId,
      step,
      role: 'assistant',
      type: 'text',
      data: { text: `s${step} t${i}` },
    });
  }
  for (let i = 0; i < spec.calls; i++) {
    drafts.push({
      turnId,
      step,
      role: 'assistant',
      type: 'tool_call',
      data: { id: `c${step}-${i}`, name: 'read_file', input: { path: `${i}.ts` }, index: i },
    });
  }
  if (spec.answered) {
    for (let i = 0; i < spec.calls; i++) {
      drafts.push({
        turnId,
        step,
        role: 'tool',
        type: 'tool_result',
        data: { callId: `c${step}-${i}`, name: 'read_file', result: 'ok' },
      });
    }
  }
  return drafts;
}

let thread = 0;

describe('step durability (property)', () => {
  it('after a kill at any point the stored turn is exactly the written steps, and closing it answers every call', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(stepArb, { minLength: 1, maxLength: 6 }),
        fc.nat(),
        async (steps, killSeed) => {
          const threadId = `prop-${++thread}`;
          await store.appendTurn(threadId, [
            { turnId: 'before', step: 0, role: 'user', type: 'text', data: { text: 'earlier' } },
          ]);
          const writes = steps.map((s, i) => stepDrafts('t', i, s));
          const kill = killSeed % (writes.length + 1); // writes that finished before the kill
          await store.beginTurn(threadId, [
            { turnId: 't', step: 0, role: 'user', type: 'text', data: { text: 'go' } },
          ]);
          for (const drafts of writes.slice(0, kill))
            await store.appendSteps(threadId, 't', drafts);
          const rows = await store.getRows(threadId);
          const expected = writes.slice(0, kill).flat();
          expect(rows.map((r) => r.seq)).toEqual(rows.map((_, i) => i + 1));
          expect(rows.slice(2).map((r) => [r.type, r.data])).toEqual(
            expected.map((d) => [d.type, d.data]),
          );
          expect((await store.getTurnInfo(threadId, 't'))?.status).toBe('running');

          await closeInterruptedTurns(store, threadId);
          expect((await store.getTurnInfo(threadId, 't'))?.status).toBe('interrupted');
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
          const next = await store.appendTurn(threadId, [
            { turnId: 'after', step: 0, role: 'user', type: 'text', data: { text: 'next' } },
          ]);
          const closed = (await store.getTurn(threadId, 't')) ?? [];
          expect(closed.at(-1)).toMatchObject({ type: 'system', data: { kind: 'interrupted' } });
          expect(next[0]?.seq).toBe(1 + closed.length + 1);
        },
      ),
      { numRuns: 40 },
    );
  });
});
