// Property: for any stored part of a turn (steps of text and tool calls, answered or not) and any
// choice of tools safe to re-run, `continue` leaves the stored rows as they were, answers every
// call exactly once (running again exactly the unanswered calls of safe tools), marks the resume
// point once, numbers the model's next step after the last stored one, and ends the turn
// `completed` with seqs dense and a next model input without an orphan call. On the SQLite file.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tool } from 'ai';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgentSession } from '../../src/entries/session.js';
import { toModelMessages } from '../../src/model-messages/index.js';
import type { ChunkRowDraft } from '../../src/schema/chunk-row.js';
import { createChunkStore } from '../../src/store/index.js';
import { createScriptedModel } from '../../src/testing/index.js';

const dir = mkdtempSync(join(tmpdir(), 'chunklog-continue-prop-'));
const store = createChunkStore({ sqlite: join(dir, 'prop.db') });
await store.migrate();
afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const TOOLS = ['read_file', 'write_file', 'list_files'] as const;

const stepArb = fc.record({
  texts: fc.integer({ min: 0, max: 2 }),
  calls: fc.array(fc.record({ tool: fc.constantFrom(...TOOLS), answered: fc.boolean() }), {
    maxLength: 3,
  }),
});

type StepSpec = { texts: number; calls: Array<{ tool: string; answered: boolean }> };

function stepDrafts(step: number, spec: StepSpec): ChunkRowDraft[] {
  const drafts: ChunkRowDraft[] = [];
  for (let i = 0; i < spec.texts; i++) {
    drafts.push({
      turnId: 't',
      step,
      role: 'assistant',
      type: 'text',
      data: { text: `s${step} t${i}` },
    });
  }
  spec.calls.forEach((call, i) => {
    drafts.push({
      turnId: 't',
      step,
      role: 'assistant',
      type: 'tool_call',
      data: { id: `c${step}-${i}`, name: call.tool, input: { path: `${i}.ts` }, index: i },
    });
  });
  spec.calls.forEach((call, i) => {
    if (!call.answered) return;
    drafts.push({
      turnId: 't',
      step,
      role: 'tool',
      type: 'tool_result',
      data: { callId: `c${step}-${i}`, name: call.tool, result: 'stored' },
    });
  });
  return drafts;
}

let thread = 0;

describe("recovery 'continue' (property)", () => {
  it('keeps the stored rows, answers every call once (re-running exactly the safe unanswered ones), marks the resume once, and numbers the next step after the last stored one', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(stepArb, { maxLength: 4 }),
        fc.subarray([...TOOLS]),
        async (steps, safe) => {
          const threadId = `prop-${++thread}`;
          await store.beginTurn(threadId, [
            { turnId: 't', step: 0, role: 'user', type: 'text', data: { text: 'go' } },
          ]);
          for (const [i, spec] of steps.entries()) {
            const drafts = stepDrafts(i, spec);
            if (drafts.length > 0) await store.appendSteps(threadId, 't', drafts);
          }
          const before = await store.getRows(threadId);
          const runs: string[] = [];
          const tools = Object.fromEntries(
            TOOLS.map((name) => [
              name,
              tool({
                description: name,
                inputSchema: z.object({ path: z.string() }),
                execute: async (_input, { toolCallId }) => {
                  runs.push(toolCallId);
                  return `${name} again`;
                },
              }),
            ]),
          );
          const model = createScriptedModel([{ parts: [{ type: 'text', text: 'Done.' }] }]);
          const session = createAgentSession({
            store,
            threadId,
            model,
            tools,
            recovery: { policy: 'continue', rerunTools: safe },
          });
          const results = await session.resumeInterruptedTurns();
          await session.close();
          expect(results.map((r) => r.outcome)).toEqual(['completed']);
          expect((await store.getTurnInfo(threadId, 't'))?.status).toBe('completed');

          const after = await store.getRows(threadId);
          expect(after.map((r) => r.seq)).toEqual(after.map((_, i) => i + 1));
          expect(after.slice(0, before.length)).toEqual(before);
          const added = after.slice(before.length);
          // Every call answered exactly once.
          const calls = after.filter((r) => r.type === 'tool_call');
          const answers = after.filter((r) => r.type === 'tool_result');
          expect(answers.map((r) => r.data.callId).sort()).toEqual(
            calls.map((r) => r.data.id).sort(),
          );
          // Exactly the unanswered calls of safe tools ran again; the others got errors.
          const unanswered = steps.flatMap((spec, step) =>
            spec.calls.flatMap((call, i) =>
              call.answered ? [] : [{ ...call, id: `c${step}-${i}` }],
            ),
          );
          expect(runs.sort()).toEqual(
            unanswered
              .filter((c) => safe.includes(c.tool as (typeof TOOLS)[number]))
              .map((c) => c.id)
              .sort(),
          );
          for (const call of unanswered) {
            const answer = added.find((r) => r.type === 'tool_result' && r.data.callId === call.id);
            const isError = answer?.type === 'tool_result' && answer.data.isError === true;
            expect(isError).toBe(!safe.includes(call.tool as never));
          }
          // One marker, after the recovered results.
          const markers = after.filter((r) => r.type === 'system' && r.data.kind === 'resumed');
          expect(markers).toHaveLength(1);
          expect(added[unanswered.length]).toBe(markers[0]);
          // The model ran unless the last stored step already answered (text, no call).
          const stored = before.filter((r) => r.role !== 'user');
          const lastStep = stored.length === 0 ? -1 : Math.max(...stored.map((r) => r.step));
          const last = stored.filter((r) => r.step === lastStep);
          const ended = last.length > 0 && !last.some((r) => r.type === 'tool_call');
          expect(model.callCount).toBe(ended ? 0 : 1);
          if (!ended) {
            expect(added.at(-1)).toMatchObject({ step: lastStep + 1, data: { text: 'Done.' } });
          }
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
        },
      ),
      { numRuns: 40 },
    );
  });
});
