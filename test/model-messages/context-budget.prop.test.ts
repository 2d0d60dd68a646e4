// Properties of planModelInput over generated threads: the input fits the budget by the counter
// (unless only the turns that must be kept remain), keeps every tool call with its result and the
// newest turns asked for, is accepted by the real @ai-sdk/anthropic and @ai-sdk/openai request
// builders, and between recorded cuts its Anthropic-cached prefix is byte-identical turn to turn.
import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { jsonSchema, type LanguageModel, type ModelMessage, streamText, tool } from 'ai';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  applyAnthropicCaching,
  capToolResults,
  estimateTokens,
  planModelInput,
  toModelMessages,
} from '../../src/model-messages/index.js';
import type { ChatMessage } from '../../src/schema/chat-message.js';
import type { Chunk } from '../../src/schema/chunk.js';

interface TurnSpec {
  readonly question: string;
  readonly answer: string;
  readonly tools: ReadonlyArray<{ readonly input: string; readonly result: string }>;
}

const turnArb: fc.Arbitrary<TurnSpec> = fc.record({
  question: fc.string({ minLength: 1, maxLength: 200 }),
  answer: fc.string({ minLength: 1, maxLength: 400 }),
  tools: fc.array(
    fc.record({ input: fc.string({ maxLength: 50 }), result: fc.string({ maxLength: 600 }) }),
    { maxLength: 2 },
  ),
});

function turnMessages(n: number, spec: TurnSpec): ChatMessage[] {
  const turnId = `t${n}`;
  const assistant: Chunk[] = [];
  if (spec.tools.length > 0) {
    assistant.push({
      type: 'tool-batch',
      step: 0,
      calls: spec.tools.map((t, i) => ({
        id: `call-${n}-${i}`,
        name: 'lookup',
        input: { q: t.input },
        result: t.result,
      })),
    });
  }
  assistant.push({ type: 'text', step: spec.tools.length > 0 ? 1 : 0, text: spec.answer });
  return [
    {
      id: `${turnId}:user`,
      turnId,
      role: 'user',
      chunks: [{ type: 'text', step: 0, text: `Q${n} ${spec.question}` }],
    },
    { id: `${turnId}:assistant`, turnId, role: 'assistant', chunks: assistant },
  ];
}

function checkToolPairs(messages: readonly ModelMessage[]): void {
  const called = new Set<string>();
  const answered = new Set<string>();
  for (const message of messages) {
    if (typeof message.content === 'string') continue;
    for (const part of message.content) {
      if (part.type === 'tool-call') called.add(part.toolCallId);
      if (part.type === 'tool-result') {
        expect(called.has(part.toolCallId)).toBe(true);
        answered.add(part.toolCallId);
      }
    }
  }
  expect([...called].sort()).toEqual([...answered].sort());
}

async function requestBodyOf(
  model: (fetchFn: typeof globalThis.fetch) => LanguageModel,
  messages: ModelMessage[],
) {
  const bodies: unknown[] = [];
  const capture = (async (_url: unknown, init?: { body?: unknown }) => {
    bodies.push(JSON.parse(String(init?.body)));
    return new Response(JSON.stringify({ error: { message: 'stop here' } }), { status: 400 });
  }) as typeof fetch;
  await streamText({
    model: model(capture),
    messages,
    maxRetries: 0,
    tools: {
      lookup: tool({
        description: 'Looks something up.',
        inputSchema: jsonSchema({ type: 'object', properties: { q: { type: 'string' } } }),
      }),
    },
    onError: () => {},
  }).consumeStream();
  return bodies[0];
}

const anthropicModel = (fetchFn: typeof globalThis.fetch) =>
  createAnthropic({ apiKey: 'test', fetch: fetchFn })('claude-sonnet-4-5');
const openaiModel = (fetchFn: typeof globalThis.fetch) =>
  createOpenAI({ apiKey: 'test', fetch: fetchFn })('gpt-5');

describe('planModelInput', () => {
  it('fits the budget by the counter, keeps tool pairs whole and the newest turns, and providers accept it', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(turnArb, { minLength: 1, maxLength: 25 }),
        fc.integer({ min: 50, max: 4000 }),
        fc.integer({ min: 1, max: 3 }),
        fc.option(fc.integer({ min: 10, max: 300 }), { nil: undefined }),
        async (specs, maxTokens, keepTurns, maxToolResultChars) => {
          const messages = specs.flatMap((spec, i) => turnMessages(i + 1, spec));
          const budget = { maxTokens, keepTurns, maxToolResultChars };
          const plan = planModelInput(messages, { build: (kept) => toModelMessages(kept), budget });
          expect(plan.tokens).toBe(estimateTokens(plan.messages));
          const keptTurns = plan.messages.filter((m) => m.role === 'user').length;
          if (plan.overBudget) expect(keptTurns).toBe(Math.min(keepTurns, specs.length));
          else expect(plan.tokens).toBeLessThanOrEqual(maxTokens);
          checkToolPairs(plan.messages);
          // The newest turns asked for are all there, whole and in order.
          const n = specs.length;
          const firstKept = n - keptTurns + 1;
          expect(keptTurns).toBeGreaterThanOrEqual(Math.min(keepTurns, n));
          const expected = toModelMessages(
            messages.filter((m) => Number(m.turnId.slice(1)) >= firstKept),
          );
          const capped =
            maxToolResultChars === undefined
              ? expected
              : capToolResults(expected, maxToolResultChars);
          expect(plan.messages).toEqual(capped);
          expect(plan.cut?.firstKeptTurnId).toBe(firstKept > 1 ? `t${firstKept}` : undefined);
          // The real request builders take it.
          const anthropic = (await requestBodyOf(
            anthropicModel,
            applyAnthropicCaching(plan.messages),
          )) as {
            messages: unknown[];
          };
          expect(anthropic.messages.length).toBeGreaterThan(0);
          const openai = (await requestBodyOf(openaiModel, plan.messages)) as { input: unknown[] };
          expect(openai.input.length).toBeGreaterThan(0);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('keeps the cached prefix byte-identical across consecutive turns except at a recorded cut', () => {
    fc.assert(
      fc.property(
        fc.array(turnArb, { minLength: 2, maxLength: 40 }),
        fc.integer({ min: 300, max: 3000 }),
        (specs, maxTokens) => {
          let log: ChatMessage[] = [];
          let previous: string | undefined;
          for (const [i, spec] of specs.entries()) {
            const [user, assistant] = turnMessages(i + 1, spec) as [ChatMessage, ChatMessage];
            const plan = planModelInput([...log, user], {
              build: (kept) => toModelMessages(kept),
              budget: { maxTokens, keepTurns: 1 },
            });
            const sent = JSON.stringify(applyAnthropicCaching(plan.messages));
            const body = JSON.stringify(plan.messages.slice(0, -1));
            if (previous !== undefined && plan.cut === undefined) {
              // Everything sent before (without the breakpoints) starts this turn's input.
              expect(body.startsWith(previous.slice(0, -1))).toBe(true);
            }
            expect(sent).not.toContain('Context cut');
            previous = JSON.stringify(plan.messages);
            // The turn is stored with its sentinel, as the session stores it.
            const sentinel: Chunk[] =
              plan.cut === undefined
                ? []
                : [
                    {
                      type: 'system',
                      step: 0,
                      kind: 'context-truncated',
                      text: 'cut',
                      truncation: plan.cut,
                    },
                  ];
            log = [...log, user, { ...assistant, chunks: [...sentinel, ...assistant.chunks] }];
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe('estimateTokens', () => {
  it('counts a tool call’s input and a tool result’s value as the length of their JSON text, whatever the value', () => {
    const estimate = (content: unknown[]) =>
      estimateTokens([{ role: 'assistant', content } as unknown as ModelMessage]);
    const value = fc.oneof(
      fc.jsonValue(),
      fc.dictionary(fc.string({ unit: 'binary' }), fc.string({ unit: 'binary' })),
      fc.array(fc.oneof(fc.double(), fc.string({ unit: 'binary' }), fc.constant(undefined))),
    );
    fc.assert(
      fc.property(value, (input) => {
        const text = JSON.stringify(input)?.length ?? 0;
        const length = typeof input === 'string' ? input.length : text;
        const call = { type: 'tool-call', toolCallId: 'c', toolName: 'tool', input };
        expect(estimate([call])).toBe(Math.ceil((length + 4 + 20) / 3) + 4);
        const result = {
          type: 'tool-result',
          toolCallId: 'c',
          toolName: 'tool',
          output: { type: 'json', value: input },
        };
        expect(estimate([result])).toBe(Math.ceil((length + 20) / 3) + 4);
      }),
      { numRuns: 2000 },
    );
  });
});
