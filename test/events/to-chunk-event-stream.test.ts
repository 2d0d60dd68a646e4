// toChunkEventStream numbers steps; iterateStream reads async iterables and ReadableStreams.
import { createAnthropic } from '@ai-sdk/anthropic';
import { streamText, type TextStreamPart, type ToolSet } from 'ai';
import { describe, expect, it } from 'vitest';
import { iterateStream, toChunkEventStream } from '../../src/events/index.js';
import type { ChunkEvent } from '../../src/schema/index.js';

type Part = TextStreamPart<ToolSet>;

const usage = {
  inputTokens: 1,
  inputTokenDetails: { noCacheTokens: 1, cacheReadTokens: undefined, cacheWriteTokens: undefined },
  outputTokens: 1,
  outputTokenDetails: { textTokens: 1, reasoningTokens: undefined },
  totalTokens: 2,
};
const finishStep = (modelId: string): Part => ({
  type: 'finish-step',
  response: { id: 'r', timestamp: new Date(0), modelId },
  usage,
  performance: {} as never,
  finishReason: 'stop',
  rawFinishReason: 'stop',
  providerMetadata: undefined,
});
const parts: Part[] = [
  { type: 'start' },
  { type: 'start-step', request: {}, warnings: [] },
  { type: 'text-delta', id: '1', text: 'a' },
  finishStep('m'),
  { type: 'steering-message', id: 's', message: { role: 'user', content: 'b' }, stepNumber: 1 },
  { type: 'start-step', request: {}, warnings: [] },
  finishStep('m'),
];

function pullStream<T>(items: readonly T[]): ReadableStream<T> {
  let i = 0;
  return new ReadableStream<T>({
    pull(controller) {
      if (i < items.length) controller.enqueue(items[i++] as T);
      else controller.close();
    },
  });
}

async function* asyncIterable<T>(items: readonly T[]): AsyncGenerator<T> {
  for (const item of items) yield item;
}

async function collect<T>(source: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of source) out.push(item);
  return out;
}

const expected: ChunkEvent[] = [
  { type: 'step-start', step: 0 },
  { type: 'text-delta', id: '1', text: 'a' },
  {
    type: 'step-finish',
    step: 0,
    finishReason: 'stop',
    usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 },
    modelId: 'm',
  },
  { type: 'steering-message', id: 's', text: 'b', step: 1 },
  { type: 'step-start', step: 1 },
  {
    type: 'step-finish',
    step: 1,
    finishReason: 'stop',
    usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 },
    modelId: 'm',
  },
];

describe('toChunkEventStream', () => {
  it('numbers steps from 0, on step-start and step-finish, from a ReadableStream', async () => {
    expect(await collect(toChunkEventStream(pullStream(parts)))).toStrictEqual(expected);
  });

  it('works the same on an async iterable', async () => {
    expect(await collect(toChunkEventStream(asyncIterable(parts)))).toStrictEqual(expected);
  });

  it('gives the HTTP status of a failed API call from a real provider', async () => {
    const fetch = async () =>
      new Response(
        JSON.stringify({
          type: 'error',
          error: { type: 'overloaded_error', message: 'Overloaded' },
        }),
        {
          status: 529,
          headers: { 'content-type': 'application/json' },
        },
      );
    const result = streamText({
      model: createAnthropic({ apiKey: 'k', fetch })('claude-test'),
      prompt: 'hi',
      maxRetries: 0,
      onError: () => {},
    });
    const events = await collect(toChunkEventStream(result.stream));
    expect(events.find((e) => e.type === 'error')).toStrictEqual({
      type: 'error',
      message: 'Overloaded',
      statusCode: 529,
      kind: 'overloaded',
      retryable: true,
    });
  });
});

describe('iterateStream', () => {
  it('releases a ReadableStream when the loop stops early', async () => {
    const stream = pullStream([1, 2, 3]);
    for await (const value of iterateStream(stream)) if (value === 1) break;
    expect(stream.locked).toBe(false);
  });
});
