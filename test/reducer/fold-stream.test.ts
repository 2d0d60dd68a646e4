// foldStream over a real `streamText` run: the AI SDK's mock language model streams interleaved
// thinking (with Anthropic signatures), text, two parallel tool calls (one a generator tool
// with preliminary results), then a second step with text. Real `tool()`s run in between.
import type { LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { stepCountIs, streamText, tool } from 'ai';
import { convertArrayToReadableStream, MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { foldStream } from '../../src/reducer/index.js';
import type { Chunk } from '../../src/schema/index.js';

const usage = (input: number, output: number) => ({
  inputTokens: { total: input, noCache: input, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: output, text: output, reasoning: undefined },
});

const step1: LanguageModelV4StreamPart[] = [
  { type: 'stream-start', warnings: [] },
  { type: 'response-metadata', id: 'msg-1', modelId: 'claude-mock-1', timestamp: new Date(0) },
  { type: 'reasoning-start', id: 'r1' },
  { type: 'reasoning-delta', id: 'r1', delta: 'The user wants ' },
  { type: 'reasoning-delta', id: 'r1', delta: 'the weather.' },
  {
    type: 'reasoning-delta',
    id: 'r1',
    delta: '',
    providerMetadata: { anthropic: { signature: 'sig-1' } },
  },
  { type: 'reasoning-end', id: 'r1' },
  { type: 'text-start', id: 't1' },
  { type: 'text-delta', id: 't1', delta: 'Let me check ' },
  { type: 'text-delta', id: 't1', delta: 'two things.' },
  { type: 'text-end', id: 't1' },
  { type: 'reasoning-start', id: 'r2' },
  { type: 'reasoning-delta', id: 'r2', delta: 'Both at once.' },
  {
    type: 'reasoning-delta',
    id: 'r2',
    delta: '',
    providerMetadata: { anthropic: { signature: 'sig-2' } },
  },
  { type: 'reasoning-end', id: 'r2' },
  { type: 'tool-input-start', id: 'call-1', toolName: 'weather' },
  { type: 'tool-input-delta', id: 'call-1', delta: '{"city":' },
  { type: 'tool-input-delta', id: 'call-1', delta: '"Paris"}' },
  { type: 'tool-input-end', id: 'call-1' },
  { type: 'tool-call', toolCallId: 'call-1', toolName: 'weather', input: '{"city":"Paris"}' },
  { type: 'tool-call', toolCallId: 'call-2', toolName: 'news', input: '{"topic":"Paris"}' },
  {
    type: 'finish',
    finishReason: { unified: 'tool-calls', raw: 'tool_use' },
    usage: usage(100, 40),
  },
];

const step2: LanguageModelV4StreamPart[] = [
  { type: 'stream-start', warnings: [] },
  { type: 'response-metadata', id: 'msg-2', modelId: 'claude-mock-1', timestamp: new Date(0) },
  { type: 'text-start', id: 't2' },
  { type: 'text-delta', id: 't2', delta: 'It is 21°C in Paris, ' },
  { type: 'text-delta', id: 't2', delta: 'and the news is quiet.' },
  { type: 'text-end', id: 't2' },
  { type: 'finish', finishReason: { unified: 'stop', raw: 'end_turn' }, usage: usage(180, 12) },
];

function run() {
  const model = new MockLanguageModelV4({
    doStream: [
      { stream: convertArrayToReadableStream(step1) },
      { stream: convertArrayToReadableStream(step2) },
    ],
  });
  return streamText({
    model,
    prompt: 'Weather and news in Paris?',
    stopWhen: stepCountIs(2),
    tools: {
      weather: tool({
        inputSchema: z.object({ city: z.string() }),
        execute: async ({ city }) => ({ city, celsius: 21 }),
      }),
      news: tool({
        inputSchema: z.object({ topic: z.string() }),
        async *execute({ topic }) {
          yield { status: 'searching', topic };
          yield { status: 'found', headlines: ['All quiet'] };
        },
      }),
    },
  });
}

const expected: Chunk[] = [
  {
    type: 'thinking',
    step: 0,
    id: 'r1',
    text: 'The user wants the weather.',
    providerMetadata: { anthropic: { signature: 'sig-1' } },
    modelId: 'claude-mock-1',
  },
  { type: 'text', step: 0, id: 't1', text: 'Let me check two things.' },
  {
    type: 'thinking',
    step: 0,
    id: 'r2',
    text: 'Both at once.',
    providerMetadata: { anthropic: { signature: 'sig-2' } },
    modelId: 'claude-mock-1',
  },
  {
    type: 'tool-batch',
    step: 0,
    calls: [
      {
        id: 'call-1',
        name: 'weather',
        input: { city: 'Paris' },
        result: { city: 'Paris', celsius: 21 },
      },
      {
        id: 'call-2',
        name: 'news',
        input: { topic: 'Paris' },
        preliminary: { status: 'found', headlines: ['All quiet'] },
        result: { status: 'found', headlines: ['All quiet'] },
      },
    ],
  },
  { type: 'text', step: 1, id: 't2', text: 'It is 21°C in Paris, and the news is quiet.' },
];

describe('foldStream over a real streamText run', () => {
  it('folds `stream` into exactly the expected chunks', async () => {
    const state = await foldStream(run().stream);
    expect(state.chunks).toStrictEqual(expected);
    expect(state).toMatchObject({
      step: 1,
      ended: true,
      openIndex: null,
      finishReason: 'stop',
      usage: { inputTokens: 280, outputTokens: 52, totalTokens: 332 },
      steps: [
        { step: 0, finishReason: 'tool-calls', modelId: 'claude-mock-1' },
        { step: 1, finishReason: 'stop', modelId: 'claude-mock-1' },
      ],
    });
  });

  it('folds the deprecated `fullStream` the same way', async () => {
    expect((await foldStream(run().fullStream)).chunks).toStrictEqual(expected);
  });

  it('keeps what an aborted run streamed: the open blocks stay, the abort is a system chunk', async () => {
    const controller = new AbortController();
    const parts: LanguageModelV4StreamPart[] = [
      { type: 'stream-start', warnings: [] },
      { type: 'reasoning-start', id: 'r1' },
      { type: 'reasoning-delta', id: 'r1', delta: 'Thinking hard' },
      { type: 'text-start', id: 't1' },
      { type: 'text-delta', id: 't1', delta: 'The answer is' },
    ];
    let i = 0;
    const model = new MockLanguageModelV4({
      doStream: async () => ({
        stream: new ReadableStream<LanguageModelV4StreamPart>({
          pull(c) {
            if (i < parts.length) c.enqueue(parts[i++] as LanguageModelV4StreamPart);
            else return new Promise<void>(() => {}); // the model stalls until the abort
          },
        }),
      }),
    });
    const result = streamText({
      model,
      prompt: 'x',
      abortSignal: controller.signal,
      onError: () => {},
    });
    // The user presses stop once the text has been seen.
    async function* seen(stream: typeof result.stream) {
      for await (const part of stream) {
        yield part;
        if (part.type === 'text-delta') controller.abort(new Error('user pressed stop'));
      }
    }
    const state = await foldStream(seen(result.stream));
    expect(state.chunks).toStrictEqual([
      { type: 'thinking', step: 0, id: 'r1', text: 'Thinking hard' },
      { type: 'text', step: 0, id: 't1', text: 'The answer is' },
      { type: 'system', step: 0, kind: 'cancelled', text: 'Error: user pressed stop' },
    ]);
    expect(state.openIndex).toBe(0);
    expect(state.ended).toBe(false);
  });
});

describe('foldStream when the stream itself fails', () => {
  it('keeps everything folded so far and records the failure as an error chunk', async () => {
    let i = 0;
    const parts = [
      { type: 'text-start', id: 't' },
      { type: 'text-delta', id: 't', text: 'partial' },
    ] as const;
    const stream = new ReadableStream({
      pull(controller) {
        if (i < parts.length) controller.enqueue(parts[i++]);
        else controller.error(Object.assign(new Error('socket hang up'), { statusCode: 502 }));
      },
    });
    const state = await foldStream(stream);
    expect(state.chunks).toStrictEqual([
      { type: 'text', step: 0, id: 't', text: 'partial' },
      { type: 'error', step: 0, message: 'socket hang up', statusCode: 502, kind: 'server' },
    ]);
    expect(state.openIndex).toBe(0);

    async function* failing() {
      yield { type: 'text-delta', id: 't', text: 'x' } as const;
      throw new Error('gone');
    }
    expect((await foldStream(failing())).chunks.map((c) => c.type)).toEqual(['text', 'error']);
  });

  it('rejects a stream someone else is reading (a caller error, not a stream failure)', async () => {
    const stream = new ReadableStream();
    stream.getReader();
    await expect(foldStream(stream)).rejects.toThrow(TypeError);
  });
});
