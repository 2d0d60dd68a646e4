import { streamText } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type ChatMessage,
  type Chunk,
  type ChunkRow,
  explodeTurn,
  groupRowsToMessages,
  toModelMessages,
} from '../../src/index.js';
import { type TurnSpec, threadArb } from '../transforms/arbitraries.js';
import { checkInvariants } from './support/invariants.js';

// System and error chunks get text no other generated string contains (fc.string() is printable
// ASCII), so their absence from the output can be checked on the serialized messages.
const FORBIDDEN = '\u0001';

function mark(chunks: readonly Chunk[], turn: string): Chunk[] {
  return chunks.map((c, i) => {
    if (c.type === 'system') return { ...c, text: `${FORBIDDEN}sys ${turn}.${i}` };
    if (c.type === 'error') return { ...c, message: `${FORBIDDEN}err ${turn}.${i}` };
    return c;
  });
}

function history(turns: readonly TurnSpec[]): ChatMessage[] {
  const rows: ChunkRow[] = [];
  const add = (turnId: string, chunks: readonly Chunk[], role: 'user' | 'assistant' | 'system') => {
    for (const d of explodeTurn(turnId, mark(chunks, turnId), { role }))
      rows.push({ ...d, threadId: 't', seq: rows.length + 1 } as ChunkRow);
  };
  for (const turn of turns) {
    if (turn.kind === 'system') add(turn.turnId, turn.chunks, 'system');
    else {
      add(turn.turnId, turn.user, 'user');
      add(turn.turnId, turn.assistant, 'assistant');
    }
  }
  return groupRowsToMessages(rows);
}

/** Cut some assistant turns short, as a cancel or a crash leaves them. */
const cutArb = (turns: TurnSpec[]) =>
  fc.array(fc.nat(12), { minLength: turns.length, maxLength: turns.length }).map((cuts) =>
    turns.map((turn, i) =>
      turn.kind === 'exchange'
        ? {
            ...turn,
            assistant: turn.assistant.slice(
              0,
              Math.max(0, turn.assistant.length - ((cuts[i] ?? 0) % 3)),
            ),
          }
        : turn,
    ),
  );

function mockModel(): MockLanguageModelV4 {
  return new MockLanguageModelV4({
    doStream: async () => ({
      stream: new ReadableStream({
        start(controller) {
          controller.enqueue({ type: 'stream-start', warnings: [] });
          controller.enqueue({
            type: 'finish',
            finishReason: { unified: 'stop', raw: 'stop' },
            usage: {
              inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
              outputTokens: { total: 1, text: 1, reasoning: 0 },
            },
          });
          controller.close();
        },
      }),
    }),
  });
}

describe('toModelMessages (property)', () => {
  it('never sends a tool call without a result, a system or error chunk, or a system message', () => {
    fc.assert(
      fc.property(
        threadArb(6).chain(cutArb),
        fc.constantFrom('omit', 'strip'),
        fc.option(fc.constantFrom('model-a', 'model-b'), { nil: undefined }),
        (turns, foreignReasoning, targetModelId) => {
          checkInvariants(toModelMessages(history(turns), { foreignReasoning, targetModelId }));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('gives the AI SDK a prompt it accepts (no missing tool results) for any history', async () => {
    const model = mockModel();
    // The check itself catches a call without a result:
    let caught: unknown;
    await streamText({
      model,
      messages: [
        {
          role: 'assistant',
          content: [{ type: 'tool-call', toolCallId: 'x', toolName: 't', input: {} }],
        },
        { role: 'user', content: 'next' },
      ],
      onError: ({ error }) => {
        caught = error;
      },
    }).consumeStream();
    expect(String(caught)).toMatch(/tool result/i);
    await fc.assert(
      fc.asyncProperty(threadArb(5).chain(cutArb), async (turns) => {
        const messages = [
          ...toModelMessages(history(turns)),
          { role: 'user' as const, content: 'next' },
        ];
        let error: unknown;
        const result = streamText({
          model,
          messages,
          onError: ({ error: e }) => {
            error = e;
          },
        });
        await result.consumeStream();
        expect(error).toBeUndefined();
        expect(model.doStreamCalls.at(-1)?.prompt.length).toBeGreaterThan(0);
      }),
      { numRuns: 60 },
    );
  });
});
