// The token budget's parts: the tool-result cap, the usage correction, validation, and the
// toModelMessages option.
import { describe, expect, it } from 'vitest';
import { ChunklogError } from '../../src/errors/index.js';
import {
  capToolResults,
  estimateTokens,
  planModelInput,
  toModelMessages,
  toolResultCutNote,
} from '../../src/model-messages/index.js';
import type { ChatMessage } from '../../src/schema/chat-message.js';
import type { JSONValue } from '../../src/schema/json.js';

function turn(n: number, answer: string, result?: JSONValue): ChatMessage[] {
  const turnId = `t${n}`;
  return [
    {
      id: `${turnId}:user`,
      turnId,
      role: 'user',
      chunks: [{ type: 'text', step: 0, text: `Q${n}` }],
    },
    {
      id: `${turnId}:assistant`,
      turnId,
      role: 'assistant',
      chunks: [
        ...(result === undefined
          ? []
          : [
              {
                type: 'tool-batch' as const,
                step: 0,
                calls: [{ id: `c${n}`, name: 'read', input: { n }, result }],
              },
            ]),
        { type: 'text', step: result === undefined ? 0 : 1, text: answer },
      ],
    },
  ];
}

function errorOf(work: () => unknown): ChunklogError {
  try {
    work();
  } catch (error) {
    if (ChunklogError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a ChunklogError');
}

describe('capToolResults', () => {
  it('cuts long text and JSON results, marks the cut, and leaves short ones and the log alone', () => {
    const long = 'x'.repeat(500);
    const messages = [
      ...turn(1, 'a', long),
      ...turn(2, 'b', { items: ['y'.repeat(300)] }),
      ...turn(3, 'c', 'short'),
    ];
    const input = capToolResults(toModelMessages(messages), 100);
    const outputs = input
      .filter((m) => m.role === 'tool')
      .flatMap((m) => (m.role === 'tool' ? m.content : []))
      .map((p) => (p.type === 'tool-result' ? p.output : undefined));
    expect(outputs[0]).toEqual({
      type: 'text',
      value: 'x'.repeat(100) + toolResultCutNote(100, 500),
    });
    const json = JSON.stringify({ items: ['y'.repeat(300)] });
    expect(outputs[1]).toEqual({
      type: 'text',
      value: json.slice(0, 100) + toolResultCutNote(100, json.length),
    });
    expect(outputs[2]).toEqual({ type: 'text', value: 'short' });
    // The chat messages (what is stored) keep the whole result.
    const batch = messages[1]?.chunks[0];
    expect(batch?.type === 'tool-batch' && batch.calls[0]?.result).toBe(long);
  });

  it('is idempotent: a result cut already is left byte for byte; a smaller cap cuts the raw text again', () => {
    const messages = [...turn(1, 'a', 'x'.repeat(500)), ...turn(2, 'b', { n: 'y'.repeat(300) })];
    const once = capToolResults(toModelMessages(messages), 100);
    expect(capToolResults(once, 100)).toStrictEqual(once);
    expect(capToolResults(once, 400)).toStrictEqual(once);
    const smaller = JSON.stringify(capToolResults(once, 50));
    expect(smaller).toContain('tool result cut to 50 of');
  });

  it('applies through the budget option of toModelMessages', () => {
    const messages = turn(1, 'a', 'z'.repeat(1000));
    const input = toModelMessages(messages, {
      contextBudget: { maxTokens: 100_000, maxToolResultChars: 50 },
    });
    expect(JSON.stringify(input)).toContain('tool result cut to 50 of 1000 characters');
  });
});

describe('planModelInput', () => {
  const thread = Array.from({ length: 20 }, (_, i) => turn(i + 1, 'w'.repeat(300))).flat();
  const build = (kept: readonly ChatMessage[]) => toModelMessages(kept);

  it('cuts to cutTo of the budget, keeps whole turns, and records the cut', () => {
    const full = estimateTokens(build(thread));
    const plan = planModelInput(thread, { build, budget: { maxTokens: Math.floor(full / 2) } });
    expect(plan.cut).toBeDefined();
    expect(plan.tokens).toBeLessThanOrEqual(Math.floor(full / 2) * 0.5);
    expect(plan.messages[0]).toEqual({
      role: 'user',
      content: [
        {
          type: 'text',
          text: `Q${plan.cut?.leftOutTurns !== undefined ? plan.cut.leftOutTurns + 1 : 0}`,
        },
      ],
    });
    expect(plan.cut?.firstKeptTurnId).toBe(`t${(plan.cut?.leftOutTurns ?? 0) + 1}`);
  });

  it('trusts the stored size of the input through a known turn over the estimate', () => {
    const full = estimateTokens(build(thread));
    const budget = { maxTokens: full - 10 };
    // The estimate says over; the provider said the history through t19 was small.
    const known = planModelInput(thread, { build, budget, known: { turnId: 't19', tokens: 100 } });
    expect(known.cut).toBeUndefined();
    expect(known.tokens).toBe(100 + estimateTokens(build(thread.slice(-2))));
    // And the other way: the provider said it was larger than the budget.
    const larger = planModelInput(thread, {
      build,
      budget: { maxTokens: full + 100 },
      known: { turnId: 't19', tokens: full + 500 },
    });
    expect(larger.cut).toBeDefined();
  });

  it('keeps the newest turns asked for even over the budget, and says so', () => {
    const plan = planModelInput(thread, { build, budget: { maxTokens: 10, keepTurns: 3 } });
    expect(plan.overBudget).toBe(true);
    expect(plan.messages.filter((m) => m.role === 'user')).toHaveLength(3);
    expect(plan.cut?.firstKeptTurnId).toBe('t18');
  });

  it('refuses a bad budget, naming the field', () => {
    const cases: Array<[unknown, string]> = [
      [{ maxTokens: 0 }, 'contextBudget.maxTokens'],
      [{ maxTokens: 10, keepTurns: 0 }, 'contextBudget.keepTurns'],
      [{ maxTokens: 10, cutTo: 1.5 }, 'contextBudget.cutTo'],
      [{ maxTokens: 10, countTokens: 'x' }, 'contextBudget.countTokens'],
      [{ maxTokens: 10, maxToolResultChars: -1 }, 'contextBudget.maxToolResultChars'],
      // A misspelt field is named, not read as missing (or left unused).
      [{ max_tokens: 10 }, 'contextBudget.max_tokens'],
      [{ maxTokens: 10, keep_turns: 3 }, 'contextBudget.keep_turns'],
      [[10], 'contextBudget'],
    ];
    for (const [budget, option] of cases) {
      const error = errorOf(() => toModelMessages(thread, { contextBudget: budget as never }));
      expect(error.code).toBe('invalid-option');
      expect(error.option).toBe(option);
    }
    const misspelt = errorOf(() =>
      toModelMessages(thread, { contextBudget: { maxTokens: 10, keep_turns: 3 } as never }),
    );
    expect(misspelt.message).toContain('did you mean `contextBudget.keepTurns`?');
  });
});
