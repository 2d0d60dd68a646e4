// GET /threads/:id/stream: useChat's resume after a reload picks up the running turn from its
// start and ends with the stored assistant message; 204 when no turn runs; 404 without the
// uiMessageStream option.
import { DefaultChatTransport } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { createAgentSession, createChunkHandlers } from '../../src/entries/session.js';
import type { ChunkRow } from '../../src/schema/index.js';
import { createChunkStore } from '../../src/store/index.js';
import { createScriptedModel } from '../../src/testing/index.js';
import { groupRowsToMessages } from '../../src/transforms/index.js';
import { toUIMessages } from '../../src/ui-messages/index.js';
import { gatedTool } from '../support/gated-tool.js';
import { asStored, HeadlessChat } from './support/chat.js';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function open(uiMessageStream: boolean, threadId = 'th') {
  const store = createChunkStore({ sqlite: ':memory:' });
  await store.migrate();
  closers.push(() => store.close());
  // The tool waits for the test: the turn is surely running while the client reloads.
  const { wait, running, release } = gatedTool();
  const model = createScriptedModel([
    {
      parts: [
        { type: 'reasoning', text: 'Wait first.', signature: 'sig' },
        { type: 'tool-call', toolName: 'wait', input: {} },
      ],
    },
    { parts: [{ type: 'text', text: 'Done waiting.' }] },
  ]);
  const session = createAgentSession({ store, threadId, model, tools: { wait } });
  closers.push(() => session.close());
  const handlers = createChunkHandlers({ store, session, authorize: () => true, uiMessageStream });
  const transport = new DefaultChatTransport({
    api: 'https://app.example.com/threads/th/messages',
    fetch: async (input, init) => handlers.fetch(new Request(input, init)),
    prepareReconnectToStreamRequest: () => ({ api: 'https://app.example.com/threads/th/stream' }),
  });
  return { store, session, handlers, transport, release, running };
}

describe('GET /threads/:id/stream (useChat resume)', () => {
  it('resumes the running turn from its start after a reload, ending with the stored message', async () => {
    const { session, transport, release, running, store } = await open(true);
    const first = new HeadlessChat({ id: 'th', transport });
    const sent = first.sendMessage({ text: 'Wait for it' });
    await running;
    // The page reloads: a new chat with the stored history (nothing yet) resumes the stream.
    const reloaded = new HeadlessChat({ id: 'th', transport });
    const resumed = reloaded.resumeStream();
    await expect.poll(() => reloaded.messages.length).toBe(1);
    release();
    await Promise.all([sent, resumed]);
    await session.idle();
    const page = await store.getChunks('th', { limit: 50 });
    const [, assistant] = toUIMessages(groupRowsToMessages(page.chunks as ChunkRow[]));
    expect(reloaded.error).toBeUndefined();
    expect(asStored(reloaded.messages.at(-1))).toStrictEqual(asStored(assistant));
    expect(asStored(first.messages.at(-1))).toStrictEqual(asStored(assistant));
    expect(JSON.stringify(reloaded.messages)).toContain('Wait first.'); // from the start
  });

  it('answers 204 when no turn runs, and 404 without uiMessageStream', async () => {
    const on = await open(true);
    const idle = await on.handlers.fetch(new Request('https://app.example.com/threads/th/stream'));
    expect(idle.status).toBe(204);
    // The transport's default reconnect URL, {api}/{chatId}/stream, for the same thread only.
    const byDefault = await on.handlers.fetch(
      new Request('https://app.example.com/threads/th/messages/th/stream'),
    );
    expect(byDefault.status).toBe(204);
    const otherChat = await on.handlers.fetch(
      new Request('https://app.example.com/threads/th/messages/other/stream'),
    );
    expect(otherChat.status).toBe(404);
    // The transport appends `encodeURIComponent(chatId)` to an `api` that may hold the id as typed.
    const typed = await open(true, 'user:1');
    const encoded = await typed.handlers.fetch(
      new Request('https://app.example.com/threads/user:1/messages/user%3A1/stream'),
    );
    expect(encoded.status).toBe(204);
    const chat = new HeadlessChat({ id: 'th', transport: on.transport });
    await chat.resumeStream();
    expect(chat.messages).toEqual([]);
    const off = await open(false);
    const missing = await off.handlers.fetch(
      new Request('https://app.example.com/threads/th/stream'),
    );
    expect(missing.status).toBe(404);
    const post = await off.handlers.fetch(
      new Request('https://app.example.com/threads/th/stream', { method: 'POST' }),
    );
    expect(post.status).toBe(405);
  });
});
