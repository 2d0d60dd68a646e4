// The context budget inside a turn: every step's input, in-loop steps included, gets the tool
// result cap and the token budget (a step right after a large tool result used to get the whole
// result), and the input still goes through the real provider request builders.
import { type ModelMessage, streamText, tool } from 'ai';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgentSession } from '../../src/entries/session.js';
import { toolResultCutNote } from '../../src/model-messages/cap-tool-results.js';
import { estimateTokens } from '../../src/model-messages/token-estimate.js';
import {
  type InTurnCut,
  MIN_IN_TURN_RESULT_CHARS,
  stepInputPreparer,
} from '../../src/session/step-input.js';
import { createChunkStore } from '../../src/store/index.js';
import { createScriptedModel } from '../../src/testing/index.js';
import { requestBody } from './support/provider-request.js';

/** The text of every tool result in model input, in order. */
function resultTexts(messages: readonly ModelMessage[]): string[] {
  const out: string[] = [];
  for (const message of messages) {
    if (message.role !== 'tool') continue;
    for (const part of message.content) {
      if (part.type !== 'tool-result') continue;
      const output = part.output;
      out.push(
        output.type === 'text' || output.type === 'error-text'
          ? output.value
          : JSON.stringify(output),
      );
    }
  }
  return out;
}

/** The longest a result may be when cut to `cap`: the kept text and the note. */
const longestCut = (cap: number, total: number) => cap + toolResultCutNote(cap, total).length;

describe('every step of a turn under a context budget', () => {
  it('keeps each tool result within maxToolResultChars, fits maxTokens unless results are at the floor, records each in-turn cut, and the providers accept the input', async () => {
    await fc.assert(
      fc.asyncProperty(
        // Sizes of the tool results, one tool step each, then an answer.
        fc.array(fc.integer({ min: 10, max: 60_000 }), { minLength: 1, maxLength: 4 }),
        fc.integer({ min: 500, max: 30_000 }),
        fc.option(fc.integer({ min: 50, max: 20_000 }), { nil: undefined }),
        fc.boolean(),
        async (sizes, maxTokens, maxToolResultChars, caching) => {
          const budget = { maxTokens, maxToolResultChars };
          const history: ModelMessage[] = [
            { role: 'user', content: [{ type: 'text', text: 'Read the files, then summarise.' }] },
          ];
          const model = createScriptedModel([
            ...sizes.map((size, i) => ({
              parts: [{ type: 'tool-call' as const, toolName: 'read', input: { i, size } }],
            })),
            { parts: [{ type: 'text' as const, text: 'Done.' }] },
          ]);
          const read = tool({
            inputSchema: z.object({ i: z.number(), size: z.number() }),
            execute: async ({ i, size }) => String(i % 10).repeat(size),
          });
          const cuts: InTurnCut[] = [];
          const prepare = stepInputPreparer<{ read: typeof read }>({ caching, budget }, (cut) =>
            cuts.push(cut),
          );
          const inputs: ModelMessage[][] = [];
          await streamText({
            model,
            messages: history,
            tools: { read },
            stopWhen: () => false,
            prepareStep: async (options) => {
              const prepared = await prepare?.(options);
              inputs.push(prepared?.messages ?? options.messages);
              return prepared ?? {};
            },
          }).consumeStream();
          expect(inputs).toHaveLength(sizes.length + 1);
          let cap = maxToolResultChars;
          for (const [step, input] of inputs.entries()) {
            const cut = cuts.find((c) => c.step === step);
            if (cut !== undefined) cap = cut.maxChars;
            const texts = resultTexts(input);
            expect(texts).toHaveLength(step);
            texts.forEach((text, i) => {
              const total = sizes[i] as number;
              if (cap === undefined || total <= cap) expect(text.length).toBe(total);
              else expect(text.length).toBeLessThanOrEqual(longestCut(cap, total));
            });
            // Over the budget only when no in-turn result can be cut any further.
            if (estimateTokens(input) > maxTokens) {
              expect(cap).toBe(MIN_IN_TURN_RESULT_CHARS);
            }
          }
          // Cuts only ever shrink, and each is reported once.
          const caps = cuts.map((c) => c.maxChars);
          expect(caps).toStrictEqual([...caps].sort((a, b) => b - a));
          expect(new Set(caps).size).toBe(caps.length);
          // The last step's input goes through the real request builders.
          const last = inputs.at(-1) as ModelMessage[];
          for (const provider of ['anthropic', 'openai'] as const) {
            const body = JSON.stringify(await requestBody(provider, last, { read }));
            if (cap !== undefined && (sizes[0] as number) > cap) {
              expect(body).toContain('tool result cut to');
            }
          }
        },
      ),
      { numRuns: 25 },
    );
  });
});

describe('a session whose tool returns more than the budget', () => {
  it('sends the next step a cut result and stores the cut in the turn, the full result kept', async () => {
    const store = createChunkStore({ sqlite: ':memory:' });
    await store.migrate();
    const model = createScriptedModel([
      { parts: [{ type: 'tool-call', toolName: 'dump', input: {} }] },
      { parts: [{ type: 'text', text: 'That was long.' }] },
    ]);
    const dump = tool({ inputSchema: z.object({}), execute: async () => 'y'.repeat(100_026) });
    const session = createAgentSession({
      store,
      threadId: 'big',
      model,
      tools: { dump },
      contextBudget: { maxTokens: 5_000, maxToolResultChars: 1_000 },
    });
    await session.send('Dump it.').rows;
    const second = JSON.stringify(model.prompts[1]);
    expect(second).not.toContain('y'.repeat(1_001));
    expect(second).toContain('tool result cut to 1000 of 100026 characters');
    const rows = await store.getRows('big');
    expect(JSON.stringify(rows)).toContain('y'.repeat(100_026));
    // Within 5,000 tokens the cap alone fits: no in-turn token cut is recorded.
    expect(rows.filter((r) => r.type === 'system')).toHaveLength(0);

    const tight = createAgentSession({
      store,
      threadId: 'tight',
      model: createScriptedModel([
        { parts: [{ type: 'tool-call', toolName: 'dump', input: {} }] },
        { parts: [{ type: 'text', text: 'Cut.' }] },
      ]),
      tools: { dump },
      contextBudget: { maxTokens: 400 },
    });
    await tight.send('Dump it.').rows;
    const system = (await store.getRows('tight')).filter((r) => r.type === 'system');
    expect(system).toHaveLength(1);
    expect(JSON.stringify(system[0]?.data)).toMatch(
      /Context cut in step 1: this turn's tool results sent cut to \d+ characters/,
    );
    await session.close();
    await tight.close();
    await store.close();
  });
});
