// Real provider streams (Anthropic thinking, web search with citations, a mid-output fallback, a
// refusal, a tool without arguments; OpenAI encrypted reasoning and web search), replayed through
// the real providers: the live UI stream and the stored UI messages agree, and the messages are
// what validateUIMessages accepts and imports back unchanged.
import { type UIMessage, validateUIMessages } from 'ai';
import { describe, expect, it } from 'vitest';
import { toChunkEventStream } from '../../src/events/index.js';
import { foldTurn } from '../../src/reducer/index.js';
import type { ChunkEvent } from '../../src/schema/index.js';
import {
  toUIMessage,
  toUIMessageStream,
  toUIMessages,
  uiMessagesToChatMessages,
} from '../../src/ui-messages/index.js';
import {
  recordedFixtureNames,
  recordedFixturesAvailable,
  streamRecorded,
} from '../support/recorded-fixtures.js';
import { asStored, HeadlessChat, streamTransport } from './support/chat.js';

async function recordedTurn(name: string): Promise<ChunkEvent[]> {
  const events: ChunkEvent[] = [{ type: 'turn-start', turnId: 'rec' }];
  for await (const event of toChunkEventStream(streamRecorded(name).result.stream)) {
    events.push(event);
  }
  return events;
}

async function* replay(events: readonly ChunkEvent[]): AsyncGenerator<ChunkEvent> {
  for (const event of events) yield event;
}

describe.runIf(recordedFixturesAvailable)('recorded provider turns', () => {
  it.each(recordedFixtureNames())(
    '%s: the headless Chat ends with the stored UI message, which validates',
    async (name) => {
      const events = await recordedTurn(name);
      const stored: UIMessage = toUIMessage({
        id: 'rec:assistant',
        turnId: 'rec',
        role: 'assistant',
        chunks: foldTurn(events).chunks,
      });
      const chat = new HeadlessChat({
        transport: streamTransport(() => toUIMessageStream(replay(events), { sendError: false })),
      });
      await chat.sendMessage({ text: 'Replay the recording.' });
      expect(asStored(chat.lastMessage)).toStrictEqual(asStored(stored));
      await expect(validateUIMessages({ messages: [stored] })).resolves.toHaveLength(1);
    },
  );

  it.each(recordedFixtureNames())('%s: imports back to the same UI message', async (name) => {
    const stored = toUIMessages([
      {
        id: 'rec:assistant',
        turnId: 'rec',
        role: 'assistant',
        chunks: foldTurn(await recordedTurn(name)).chunks,
      },
    ]);
    const saved: unknown = JSON.parse(JSON.stringify(stored));
    expect(toUIMessages(await uiMessagesToChatMessages(saved))).toStrictEqual(saved);
  });
});
