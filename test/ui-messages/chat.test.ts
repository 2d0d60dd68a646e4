import { DefaultChatTransport, stepCountIs, streamText, tool, type UIMessage } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { toChunkEventStream } from '../../src/events/index.js';
import { foldTurn } from '../../src/reducer/index.js';
import type { ChunkEvent } from '../../src/schema/index.js';
import {
  toUIMessage,
  toUIMessageStream,
  toUIMessageStreamResponse,
  toUIMessages,
} from '../../src/ui-messages/index.js';
import { tools as threadTools } from './support/ai-sdk-thread.js';
import { asStored, HeadlessChat, streamTransport } from './support/chat.js';
import { reasoning, scriptedModel, text, toolCall } from './support/model-script.js';

const tools = {
  ...threadTools,
  /** A generator tool: two preliminary outputs, then the final one. */
  countdown: tool({
    description: 'Counts down',
    inputSchema: z.object({ from: z.number() }),
    async *execute({ from }: { from: number }) {
      for (let n = from; n > 0; n--) yield { left: n };
      yield { left: 0, done: true };
    },
  }),
};

/** The events of one turn of `streamText` over a scripted model, as a session records them. */
async function turnEvents(): Promise<ChunkEvent[]> {
  const model = scriptedModel([
    {
      parts: [
        ...reasoning('r1', 'Check the weather, count down, and break something.', 'sig-1'),
        ...text('t1', 'On it.'),
        {
          type: 'source',
          sourceType: 'url',
          id: 's1',
          url: 'https://weather.example.com',
          title: 'Weather',
        },
        toolCall('c1', 'weather', { city: 'Oslo' }),
        toolCall('c2', 'countdown', { from: 2 }),
        toolCall('c3', 'explode', {}),
      ],
      finish: 'tool-calls',
    },
    { parts: [...reasoning('r2', 'Done.', 'sig-2'), ...text('t2', 'Oslo is cold; boom.')] },
  ]);
  const result = streamText({ model, prompt: 'Go', tools, stopWhen: stepCountIs(4) });
  const events: ChunkEvent[] = [{ type: 'turn-start', turnId: 't1' }];
  for await (const event of toChunkEventStream(result.stream)) events.push(event);
  return events;
}

async function* replay(events: readonly ChunkEvent[]): AsyncGenerator<ChunkEvent> {
  for (const event of events) yield event;
}

/** The assistant message a headless `Chat` ends with after sending `text`. */
async function chatAnswer(chat: HeadlessChat, text: string): Promise<UIMessage | undefined> {
  await chat.sendMessage({ text });
  expect(chat.error).toBeUndefined();
  return chat.lastMessage;
}

describe("the AI SDK's headless Chat fed by toUIMessageStream", () => {
  it('ends with the UIMessage toUIMessages gives for the folded turn', async () => {
    const events = await turnEvents();
    const chat = new HeadlessChat({
      transport: streamTransport(() => toUIMessageStream(replay(events))),
    });
    const answer = await chatAnswer(chat, 'Go');
    const stored = toUIMessage({
      id: 't1:assistant',
      turnId: 't1',
      role: 'assistant',
      chunks: foldTurn(events).chunks,
    });
    expect(asStored(answer)).toStrictEqual(asStored(stored));
    // What the turn holds, so that the comparison is not vacuous.
    expect(stored.parts.map((p) => ('state' in p ? `${p.type}:${p.state}` : p.type))).toEqual([
      'step-start',
      'reasoning:done',
      'text:done',
      'source-url',
      'tool-weather:output-available',
      'tool-countdown:output-available',
      'tool-explode:output-error',
      'step-start',
      'reasoning:done',
      'text:done',
    ]);
  });

  it('reads the same message over HTTP, through the default transport and SSE', async () => {
    const events = await turnEvents();
    let response: Response | undefined;
    const chat = new HeadlessChat({
      transport: new DefaultChatTransport({
        api: 'https://app.example.com/api/chat',
        fetch: async () => {
          response = toUIMessageStreamResponse(replay(events));
          return response;
        },
      }),
    });
    const answer = await chatAnswer(chat, 'Go');
    expect(response?.headers.get('content-type')).toBe('text/event-stream');
    expect(response?.headers.get('x-vercel-ai-ui-message-stream')).toBe('v1');
    const stored = toUIMessages([
      { id: 't1:assistant', turnId: 't1', role: 'assistant', chunks: foldTurn(events).chunks },
    ])[0];
    expect(asStored(answer)).toStrictEqual(asStored(stored));
  });

  it('puts the chat in its error status when the turn ends with an error, keeping the message', async () => {
    const events: ChunkEvent[] = [
      { type: 'turn-start', turnId: 't9' },
      { type: 'step-start', step: 0 },
      { type: 'text-delta', text: 'Half an ans' },
      { type: 'error', message: 'Overloaded', statusCode: 529 },
      { type: 'turn-end', finishReason: 'error' },
    ];
    const chat = new HeadlessChat({
      transport: streamTransport(() => toUIMessageStream(replay(events))),
    });
    await chat.sendMessage({ text: 'Go' });
    expect(chat.status).toBe('error');
    expect(chat.error?.message).toBe('Overloaded');
    const stored = toUIMessage({
      id: 't9:assistant',
      turnId: 't9',
      role: 'assistant',
      chunks: foldTurn(events).chunks,
    });
    expect(asStored(chat.lastMessage)).toStrictEqual(asStored(stored));
  });
});
