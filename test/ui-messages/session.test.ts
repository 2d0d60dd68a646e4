import { DefaultChatTransport } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { createAgentSession, createChunkHandlers } from '../../src/entries/session.js';
import type { ChunkRow } from '../../src/schema/index.js';
import { createChunkStore } from '../../src/store/index.js';
import { createScriptedModel } from '../../src/testing/index.js';
import { groupRowsToMessages } from '../../src/transforms/index.js';
import { toUIMessageStream, toUIMessages } from '../../src/ui-messages/index.js';
import { tools } from './support/ai-sdk-thread.js';
import { asStored, HeadlessChat, streamTransport } from './support/chat.js';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function openSession(script: Parameters<typeof createScriptedModel>[0]) {
  const store = createChunkStore({ sqlite: ':memory:' });
  await store.migrate();
  closers.push(() => store.close());
  const model = createScriptedModel(script);
  const session = createAgentSession({ store, threadId: 'th', model, tools });
  closers.push(() => session.close());
  return { store, session, model };
}

/** Two steps: reasoning, text and two parallel tool calls, then an answer. */
const weatherScript = [
  {
    parts: [
      { type: 'reasoning' as const, text: 'Two cities.', signature: 'sig' },
      { type: 'text' as const, text: 'Checking both.' },
      { type: 'tool-call' as const, toolName: 'weather', input: { city: 'Oslo' } },
      { type: 'tool-call' as const, toolName: 'weather', input: { city: 'Rome' } },
    ],
  },
  { parts: [{ type: 'text' as const, text: 'Rome is warmer.' }] },
];

describe('a chunklog session streamed to the headless Chat', () => {
  it('ends with the UIMessages of the stored turn', async () => {
    const { session } = await openSession(weatherScript);
    let rows: Promise<readonly ChunkRow[]> | undefined;
    const chat = new HeadlessChat({
      transport: streamTransport(() => {
        const turn = session.send('Weather in Oslo and Rome?');
        rows = turn.rows;
        return toUIMessageStream(turn);
      }),
    });
    await chat.sendMessage({ text: 'Weather in Oslo and Rome?' });
    expect(chat.error).toBeUndefined();
    const [user, assistant] = toUIMessages(
      groupRowsToMessages(await (rows ?? Promise.resolve([]))),
    );
    expect(asStored(chat.lastMessage)).toStrictEqual(asStored(assistant));
    expect(chat.messages[0]?.parts).toStrictEqual(user?.parts);
    expect(assistant?.parts.filter((p) => p.type === 'tool-weather')).toHaveLength(2);
  });
});

describe('createChunkHandlers({ uiMessageStream: true })', () => {
  async function chatOverHttp(script: Parameters<typeof createScriptedModel>[0]) {
    const { store, session, model } = await openSession(script);
    const handlers = createChunkHandlers({
      store,
      session,
      authorize: () => true,
      uiMessageStream: true,
    });
    const transport = new DefaultChatTransport({
      api: 'https://app.example.com/threads/th/messages',
      fetch: async (input, init) => handlers.fetch(new Request(input, init)),
    });
    return { store, session, model, handlers, chat: new HeadlessChat({ id: 'th', transport }) };
  }

  it("serves useChat's default transport: the client ends with the stored thread", async () => {
    const { chat, handlers, model } = await chatOverHttp([
      ...weatherScript,
      { parts: [{ type: 'text', text: 'You asked about the weather.' }] },
    ]);
    await chat.sendMessage({ text: 'Weather in Oslo and Rome?' });
    await chat.sendMessage({ text: 'What did I ask?' });
    expect(chat.status).toBe('ready');
    const page = await handlers.fetch(
      new Request('https://app.example.com/threads/th/chunks?limit=100'),
    );
    const { chunks } = (await page.json()) as { chunks: ChunkRow[] };
    const stored = toUIMessages(groupRowsToMessages(chunks));
    expect(stored.map((m) => m.role)).toStrictEqual(['user', 'assistant', 'user', 'assistant']);
    // The assistant messages are the same; the user messages have the client's ids.
    expect(asStored(chat.messages.map(({ id: _id, ...m }) => m))).toStrictEqual(
      asStored(stored.map(({ id: _id, ...m }) => m)),
    );
    expect(chat.messages[1]?.id).toBe(stored[1]?.id);
    // The second turn's model input holds the first turn, rebuilt from the store.
    expect(JSON.stringify(model.prompts.at(-1))).toContain('Rome is warmer.');
  });

  it('streams the stored turn to a request that repeats a stored turn id (no second model call)', async () => {
    const { chat, handlers, model, store } = await chatOverHttp(weatherScript);
    await chat.sendMessage({ text: 'Weather in Oslo and Rome?' }, { body: { turnId: 't1' } });
    const calls = model.prompts.length;
    // A retry of the same request from a client that lost the answer (a new page, say).
    const retried = new HeadlessChat({
      id: 'th',
      transport: new DefaultChatTransport({
        api: 'https://app.example.com/threads/th/messages',
        fetch: async (input, init) => handlers.fetch(new Request(input, init)),
      }),
    });
    await retried.sendMessage({ text: 'Weather in Oslo and Rome?' }, { body: { turnId: 't1' } });
    expect(retried.error).toBeUndefined();
    expect(model.prompts.length).toBe(calls);
    const [, assistant] = toUIMessages(
      groupRowsToMessages((await store.getTurn('th', 't1')) ?? []),
    );
    expect(assistant?.parts.filter((p) => p.type === 'tool-weather')).toHaveLength(2);
    expect(asStored(retried.lastMessage)).toStrictEqual(asStored(assistant));
    expect(asStored(retried.lastMessage)).toStrictEqual(asStored(chat.lastMessage));
  });

  it('takes only the new message, and refuses what a chunklog thread cannot do', async () => {
    const { handlers, model } = await chatOverHttp([{ parts: [{ type: 'text', text: 'Hi!' }] }]);
    const post = (body: unknown) =>
      handlers.fetch(
        new Request('https://app.example.com/threads/th/messages', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        }),
      );
    const message = { id: 'm1', role: 'user', parts: [{ type: 'text', text: 'Hello' }] };
    const ok = await post({ id: 'th', message });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('x-vercel-ai-ui-message-stream')).toBe('v1');
    expect(await ok.text()).toContain('"delta":"Hi!"');
    // A trigger other than a submit or a regenerate (those: test/http/alternatives.test.ts).
    const resume = await post({ id: 'th', messages: [message], trigger: 'resume-stream' });
    expect(resume.status).toBe(400);
    expect(await resume.json()).toMatchObject({ error: { parameter: 'trigger' } });
    // The trigger is read from a `{ text }` body too: a regenerate never runs as a new turn.
    const textRegenerate = await post({ text: 'Hello', trigger: 'regenerate-message' });
    expect(textRegenerate.status).toBe(400);
    expect(await textRegenerate.json()).toMatchObject({ error: { parameter: 'trigger' } });
    const file = {
      ...message,
      parts: [{ type: 'file', mediaType: 'image/png', url: 'https://x.example/a.png' }],
    };
    expect((await post({ messages: [file] })).status).toBe(400);
    // `sendMessage()` with no message (after `addToolOutput` or `addToolApprovalResponse` in the
    // browser) sends a list that ends with the assistant message: tools run in the session.
    const answered = {
      id: 't1:assistant',
      role: 'assistant',
      parts: [
        {
          type: 'tool-read',
          toolCallId: 'c1',
          state: 'approval-responded',
          input: {},
          approval: { id: 'p1', approved: true },
        },
      ],
    };
    const continued = await post({
      id: 'th',
      messages: [message, answered],
      trigger: 'submit-message',
    });
    expect(continued.status).toBe(400);
    expect(await continued.json()).toMatchObject({
      error: {
        parameter: 'messages',
        message: 'The last message must be a user message (`role: "user"`).',
      },
    });
    // A user message without `parts` is said to be one.
    const partless = await post({ message: { id: 1, role: 'user' } });
    expect(partless.status).toBe(400);
    expect(await partless.json()).toMatchObject({
      error: {
        parameter: 'message',
        message: 'The user message must have `parts`, an array (a UIMessage).',
      },
    });
    expect(model.prompts).toHaveLength(1);
    const steer = await post({ text: 'also this', mode: 'steer' });
    expect(steer.status).toBe(202);
  });
});
