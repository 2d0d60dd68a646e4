// The handlers follow a conversation's active path (issue 32): `GET|POST …/alternatives` list
// and switch its versions; `POST …/messages` edits and regenerates (chunklog's bodies, and the
// AI SDK's own `AbstractChat` + `DefaultChatTransport` doing `regenerate()` and
// `sendMessage({ text, messageId })`); pages read the active path as one thread.
import { DefaultChatTransport, type UIMessage } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { createAgentSession, createChunkHandlers } from '../../src/entries/session.js';
import type { ChunkRow } from '../../src/schema/index.js';
import { createChunkStore } from '../../src/store/index.js';
import { createScriptedModel } from '../../src/testing/index.js';
import { groupRowsToMessages } from '../../src/transforms/index.js';
import { toUIMessages } from '../../src/ui-messages/index.js';
import { sequentialIds } from '../session/support.js';
import { HeadlessChat } from '../ui-messages/support/chat.js';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

const BASE = 'https://app.example.com';
const AUTH = { authorization: 'Bearer ok' };

async function open(options: { uiMessageStream?: boolean } = {}) {
  const store = createChunkStore({ sqlite: ':memory:' });
  await store.migrate();
  closers.push(() => store.close());
  const model = createScriptedModel((call, index) => {
    const last = call.prompt.filter((m) => m.role === 'user').at(-1);
    const text = last?.content.map((p) => (p.type === 'text' ? p.text : '')).join('') ?? '';
    return { parts: [{ type: 'text', text: `A${index}: ${text}` }] };
  });
  const session = createAgentSession({
    store,
    threadId: 'th',
    model,
    idGenerator: sequentialIds('t'),
  });
  closers.push(() => session.close());
  const handlers = createChunkHandlers({
    store,
    session,
    authorize: (request) => request.headers.get('authorization') === AUTH.authorization,
    uiMessageStream: options.uiMessageStream ?? true,
  });
  const call = (method: string, path: string, body?: unknown, headers = AUTH) =>
    handlers.fetch(
      new Request(`${BASE}${path}`, {
        method,
        headers: {
          ...headers,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      }),
    );
  const chat = (messages: UIMessage[] = []) =>
    new HeadlessChat({
      id: 'th',
      messages,
      transport: new DefaultChatTransport({
        api: `${BASE}/threads/th/messages`,
        headers: AUTH,
        fetch: async (input, init) => handlers.fetch(new Request(input, init)),
      }),
    });
  return { store, session, model, handlers, call, chat };
}

/** A message as `role: text`. */
function line(message: UIMessage): string {
  return `${message.role}: ${message.parts.map((p) => (p.type === 'text' ? p.text : '')).join('')}`;
}

/** A page of the thread, as the client gets it. */
async function page(call: Awaited<ReturnType<typeof open>>['call']): Promise<ChunkRow[]> {
  const response = await call('GET', '/threads/th/chunks?limit=100');
  expect(response.status).toBe(200);
  return ((await response.json()) as { chunks: ChunkRow[] }).chunks;
}

describe('GET and POST /threads/:id/alternatives', () => {
  it('lists and switches the versions, behind authorize; pages read the active path as one thread', async () => {
    const { session, store, call } = await open();
    await session.send('one').rows;
    await session.send('two').rows;
    const plain = await call('GET', '/threads/th/alternatives');
    expect(plain.status).toBe(200);
    expect(await plain.json()).toEqual({
      conversationId: 'th',
      activePath: 'th',
      branches: [],
      versions: [{ threadId: 'th', createdAt: expect.any(String), turnId: 't1', total: 4 }],
    });
    await session.regenerate('t2').rows;
    const path = await store.activePath('th');
    const listed = await call('GET', '/threads/th/alternatives');
    expect(await listed.json()).toEqual({
      conversationId: 'th',
      activePath: path,
      branches: [
        {
          atSeq: 2,
          active: 1,
          alternatives: [
            { threadId: 'th', turnId: 't2', createdAt: expect.any(String) },
            { threadId: path, turnId: 't3', createdAt: expect.any(String) },
          ],
        },
      ],
      versions: [
        expect.objectContaining({ threadId: 'th' }),
        expect.objectContaining({ threadId: path, forkOf: { threadId: 'th', atSeq: 2 } }),
      ],
    });
    // The page is the active path's, every row the conversation's.
    let rows = await page(call);
    expect(rows.map((r) => `${r.threadId} ${r.turnId} ${r.role}`)).toEqual([
      'th t1 user',
      'th t1 assistant',
      'th t3 user',
      'th t3 assistant',
    ]);
    const back = await call('POST', '/threads/th/alternatives', { threadId: 'th' });
    expect(back.status).toBe(200);
    expect(await back.json()).toMatchObject({ activePath: 'th', branches: [{ active: 0 }] });
    expect(await store.activePath('th')).toBe('th');
    rows = await page(call);
    expect(rows.map((r) => r.turnId)).toEqual(['t1', 't1', 't2', 't2']);
    // Denied without the credentials, for reads and switches alike.
    expect(
      (await call('GET', '/threads/th/alternatives', undefined, {} as typeof AUTH)).status,
    ).toBe(403);
    const denied = await call(
      'POST',
      '/threads/th/alternatives',
      { threadId: path },
      {} as typeof AUTH,
    );
    expect(denied.status).toBe(403);
    expect(await store.activePath('th')).toBe('th');
  });

  it('answers bad requests with 400 naming the field, 404 and 405', async () => {
    const { session, store, call } = await open();
    await session.send('one').rows;
    await session.edit('t1', 'uno').rows;
    const bad = async (body: unknown, parameter: string) => {
      const response = await call('POST', '/threads/th/alternatives', body);
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({
        error: { code: 'invalid-parameter', parameter },
      });
    };
    await bad({}, 'threadId');
    await bad({ threadId: 7 }, 'threadId');
    await bad({ threadId: '' }, 'threadId');
    await bad({ threadId: 'nope' }, 'threadId');
    await bad({ threadId: 'th', also: 1 }, 'also');
    await bad([], 'body');
    // A thread of another conversation is not a path of this one.
    await store.appendTurn('other', [
      { turnId: 'o1', step: 0, role: 'user', type: 'text', data: { text: 'x' } },
    ]);
    await bad({ threadId: 'other' }, 'threadId');
    // An alternative's id in place of the conversation's.
    const { activePath } = (await (await call('GET', '/threads/th/alternatives')).json()) as {
      activePath: string;
    };
    const asConversation = await call('GET', `/threads/${activePath}/alternatives`);
    expect(asConversation.status).toBe(400);
    expect(await asConversation.json()).toMatchObject({ error: { parameter: 'id' } });
    expect((await call('GET', '/threads/none/alternatives')).status).toBe(404);
    const put = await call('PUT', '/threads/th/alternatives', { threadId: 'th' });
    expect([put.status, put.headers.get('allow')]).toEqual([405, 'GET, POST']);
  });
});

describe('POST /threads/:id/messages: edit and regenerate', () => {
  it("takes chunklog's { text, edit } and { regenerate } bodies and answers as a send", async () => {
    const { session, store, call, model } = await open({ uiMessageStream: false });
    await session.send('one').rows;
    await session.send('two').rows;
    const edited = await call('POST', '/threads/th/messages', { text: 'deux', edit: 't2' });
    expect(edited.status).toBe(202);
    expect(await edited.json()).toEqual({ turnId: 't3', queued: false });
    await session.idle();
    expect(model.prompts.at(-1)?.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    const regenerated = await call('POST', '/threads/th/messages', { regenerate: 't3' });
    expect(await regenerated.json()).toEqual({ turnId: 't4', queued: false });
    await session.idle();
    const { branches } = await store.getAlternatives('th');
    expect(branches.map((b) => [b.atSeq, b.alternatives.map((a) => a.turnId)])).toEqual([
      [2, ['t2', 't3', 't4']],
    ]);
    expect((await page(call)).map((r) => (r.data as { text: string }).text)).toEqual([
      'one',
      'A0: one',
      'deux',
      'A3: deux',
    ]);
    const bad = async (body: unknown, parameter: string) => {
      const response = await call('POST', '/threads/th/messages', body);
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ error: { parameter } });
    };
    await bad({ regenerate: '' }, 'regenerate');
    await bad({ regenerate: 't1', text: 'x' }, 'regenerate');
    await bad({ text: '', edit: 't1' }, 'text');
    await bad({ edit: 't1' }, 'text');
    await bad({ text: 'x', edit: 5 }, 'edit');
    await bad({ text: 'x', edit: 't1', turnId: 'mine' }, 'turnId');
    await bad({ text: 'x', edit: 't1', mode: 'steer' }, 'mode');
  });

  it('refuses a turn that is not a user turn of the active path (400 naming the field), and calls no model', async () => {
    const { session, call, model } = await open();
    await session.send('one').rows;
    for (const [body, parameter] of [
      [{ regenerate: 'nope' }, 'regenerate'],
      [{ text: 'x', edit: 'nope' }, 'edit'],
    ] as const) {
      const response = await call('POST', '/threads/th/messages', body);
      expect(response.status).toBe(400);
      // It says which turn it looked for, and where.
      expect(await response.json()).toMatchObject({
        error: {
          parameter,
          message:
            'No turn "nope" with a user message is stored on the active path of thread "th".',
        },
      });
    }
    expect(model.prompts).toHaveLength(1);
  });

  it('refuses regenerate() of a message found by its place when its text is not the stored one there, and calls no model', async () => {
    const { session, chat, model } = await open();
    await session.send('one').rows;
    await session.send('two').rows;
    const own = (id: string, text: string): UIMessage => ({
      id,
      role: 'user',
      parts: [{ type: 'text', text }],
    });
    // A list of the client's own ids is counted from the start of the thread: its one message
    // stands for `one`, so a list that says `two` there does not match the thread.
    const stale = chat([own('m1', 'two')]);
    await stale.regenerate();
    expect(stale.error?.message).toMatch(/not the stored one there/);
    expect(model.prompts).toHaveLength(2);
    // Where the text matches, the turn found is answered again.
    const matching = chat([own('m1', 'one')]);
    await matching.regenerate();
    expect(matching.error).toBeUndefined();
    expect(matching.messages.map(line)).toEqual(['user: one', 'assistant: A2: one']);
  });

  it('with { message } (the last message only), edits only the turn its chunklog id names, never one counted by place', async () => {
    const { store, session, call, model } = await open();
    for (const text of ['one', 'two', 'three']) await session.send(text).rows;
    await session.regenerate('t3').rows; // t4: a new version of the third turn
    const path = await store.activePath('th');
    const before = (await store.getRows(path)).length;
    const user = (id: string, text: string) => ({
      id,
      role: 'user',
      parts: [{ type: 'text', text }],
    });
    const edit = (id: string) =>
      call('POST', '/threads/th/messages', {
        id: 'th',
        message: user(id, 'three (edited)'),
        messageId: id,
        trigger: 'submit-message',
      });
    // The client's message still has the old version's id: it names no turn of the active path.
    const stale = await edit('t3:user');
    expect(stale.status).toBe(400);
    expect(await stale.json()).toMatchObject({ error: { parameter: 'messageId' } });
    // An id of the client's own names nothing it can be found by.
    const own = await edit('client-msg-1');
    expect(own.status).toBe(400);
    expect((await own.json()).error.message).toMatch(/chunklog's id of the message/);
    expect(model.prompts).toHaveLength(4);
    expect(await store.activePath('th')).toBe(path);
    expect(await store.getRows(path)).toHaveLength(before);
    // Named by the id a reload gives, the edit goes through, on that turn.
    const named = await edit('t4:user');
    expect(named.status).toBe(200);
    await named.text();
    await session.idle();
    const rows = await store.getRows(await store.activePath('th'));
    expect(rows.filter((r) => r.role === 'user').map((r) => r.data)).toEqual([
      { text: 'one' },
      { text: 'two' },
      { text: 'three (edited)' },
    ]);
    // A regenerate of a message with an id of the client's own: the newest turn, when its text
    // is that turn's.
    const regenerate = (text: string) =>
      call('POST', '/threads/th/messages', {
        id: 'th',
        message: user('client-msg-2', text),
        trigger: 'regenerate-message',
      });
    const other = await regenerate('two');
    expect(other.status).toBe(400);
    expect((await other.json()).error.message).toMatch(/not the stored one there/);
    const again = await regenerate('three (edited)');
    expect(again.status).toBe(200);
    await again.text();
    await session.idle();
    expect(model.prompts.at(-1)?.at(-1)).toMatchObject({
      role: 'user',
      content: [{ type: 'text', text: 'three (edited)' }],
    });
    expect(model.prompts).toHaveLength(6);
  });

  it('takes regenerate() after a send lost in transit as that message, sent anew', async () => {
    const { store, handlers, model } = await open();
    let lose = false;
    const chat = new HeadlessChat({
      id: 'th',
      transport: new DefaultChatTransport({
        api: `${BASE}/threads/th/messages`,
        headers: AUTH,
        fetch: async (input, init) => {
          if (lose) throw new TypeError('fetch failed');
          return handlers.fetch(new Request(input, init));
        },
      }),
    });
    await chat.sendMessage({ text: 'one' });
    lose = true;
    await chat.sendMessage({ text: 'two' });
    expect(chat.error).toBeDefined();
    lose = false;
    // The usual "Retry": the list ends with the user message the server never got.
    await chat.regenerate();
    expect(chat.error).toBeUndefined();
    expect(chat.messages.map(line)).toEqual([
      'user: one',
      'assistant: A0: one',
      'user: two',
      'assistant: A1: two',
    ]);
    expect(model.prompts).toHaveLength(2);
    // A new turn, not a version of the first one.
    expect((await store.getAlternatives('th')).branches).toEqual([]);
    expect((await store.getRows('th')).map((r) => r.turnId)).toEqual(['t1', 't1', 't2', 't2']);
  });

  it("serves the AI SDK's chat: sendMessage, regenerate() and sendMessage({ text, messageId }) keep every version", async () => {
    const { store, call, chat: newChat, model } = await open();
    const chat = newChat();
    await chat.sendMessage({ text: 'one' });
    await chat.sendMessage({ text: 'two' });
    expect(chat.messages.map(line)).toEqual([
      'user: one',
      'assistant: A0: one',
      'user: two',
      'assistant: A1: two',
    ]);
    await chat.regenerate();
    expect(chat.error).toBeUndefined();
    expect(chat.messages.map(line)).toEqual([
      'user: one',
      'assistant: A0: one',
      'user: two',
      'assistant: A2: two',
    ]);
    expect(chat.messages[3]?.id).toBe('t3:assistant');
    let listed = await store.getAlternatives('th');
    expect(listed.branches.map((b) => [b.atSeq, b.alternatives.map((a) => a.turnId)])).toEqual([
      [2, ['t2', 't3']],
    ]);
    // Edit the first message: its id is the client's own (it was sent from this chat).
    const first = chat.messages[0]?.id as string;
    expect(first).not.toMatch(/:user$/);
    await chat.sendMessage({ text: 'uno', messageId: first });
    expect(chat.error).toBeUndefined();
    expect(chat.messages.map(line)).toEqual(['user: uno', 'assistant: A3: uno']);
    expect(model.prompts.at(-1)).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'uno' }] },
    ]);
    listed = await store.getAlternatives('th');
    expect(listed.branches.map((b) => [b.atSeq, b.alternatives.map((a) => a.turnId)])).toEqual([
      [0, ['t1', 't4']],
    ]);
    // Every version is kept: back on the conversation's own path, the first two turns are there.
    await call('POST', '/threads/th/alternatives', { threadId: 'th' });
    expect(toUIMessages(groupRowsToMessages(await page(call))).map(line)).toEqual([
      'user: one',
      'assistant: A0: one',
      'user: two',
      'assistant: A1: two',
    ]);
    // A chat loaded from the store has chunklog's ids: regenerate one answer, edit one message.
    const loaded = newChat(toUIMessages(groupRowsToMessages(await page(call))));
    await loaded.regenerate({ messageId: 't1:assistant' });
    expect(loaded.messages.map(line)).toEqual(['user: one', 'assistant: A4: one']);
    await loaded.sendMessage({ text: 'eins', messageId: 't1:user' });
    expect(loaded.error).toBeUndefined();
    expect(loaded.messages.map(line)).toEqual(['user: eins', 'assistant: A5: eins']);
    listed = await store.getAlternatives('th');
    expect(listed.branches.map((b) => [b.atSeq, b.alternatives.map((a) => a.turnId)])).toEqual([
      [0, ['t1', 't4', 't5', 't6']],
    ]);
  });
});
