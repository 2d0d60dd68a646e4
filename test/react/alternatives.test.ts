// Alternatives through chunklog/react (issue 32), against a small fake of the HTTP contract
// (`GET`/`POST …/alternatives`, `POST …/messages` `{ text, edit }` / `{ regenerate }`, pages of
// the active path): the thread client's requests, and useChunkThread's edit, regenerate and
// switchAlternative, which reload its window on the new path. The hook's actions are taken from
// a server render (this Node process has no DOM) and called as a component's handlers would.
import { createElement, type ReactElement } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { createAgentSession, createChunkHandlers } from '../../src/entries/session.js';
import { ChunklogError } from '../../src/errors/index.js';
import { type ChunkThread, createThreadClient, useChunkThread } from '../../src/react/index.js';
import { createScriptedModel } from '../../src/testing/index.js';
import { openSqliteStore, sequentialIds } from '../session/support.js';
import { FakeConversation } from '../window/support/conversation.js';
import { turnOf } from '../window/support/events.js';
import { storedDrafts } from '../window/support/page-source.js';

/** The contract's routes over a fake conversation; every request is recorded. */
function fakeHandler(chat: FakeConversation) {
  const seen: string[] = [];
  let made = 0;
  const fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    const body =
      request.method === 'POST' ? ((await request.json()) as Record<string, string>) : {};
    seen.push(`${request.method} ${url.pathname}${url.search} ${JSON.stringify(body)}`);
    const route = url.pathname.replace(`/api/threads/${chat.id}/`, '');
    if (route === 'chunks') {
      const before = url.searchParams.get('before');
      return Response.json(
        chat.page({
          limit: Number(url.searchParams.get('limit')),
          ...(before === null ? {} : { before: Number(before) }),
        }),
      );
    }
    if (route === 'alternatives' && request.method === 'GET')
      return Response.json(chat.alternatives());
    if (route === 'alternatives') {
      if (!chat.paths.has(body.threadId as string)) {
        return Response.json({ error: { message: 'No such version.' } }, { status: 404 });
      }
      return Response.json(chat.switchTo(body.threadId as string));
    }
    if (route === 'messages') {
      const replaced = body.edit ?? body.regenerate;
      const asked = chat.path.rows.find((r) => r.turnId === replaced && r.role === 'user');
      if (replaced === undefined || asked === undefined) {
        return Response.json({ error: { message: 'No such turn.' } }, { status: 400 });
      }
      const turnId = `v${++made}`;
      chat.fork(replaced, `${chat.id}~${made}`);
      const text = body.edit !== undefined ? body.text : (asked.data as { text: string }).text;
      chat.append(storedDrafts(turnId, turnOf(turnId, 1, `${text} answer ${made}`), text));
      return Response.json({ turnId, queued: false }, { status: 202 });
    }
    return new Response('not found', { status: 404 });
  };
  return { fetch, seen };
}

function conversation(): FakeConversation {
  const chat = new FakeConversation('chat-1');
  chat.append(storedDrafts('t0', turnOf('t0', 1, 'first answer'), 'first'));
  chat.append(storedDrafts('t1', turnOf('t1', 1, 'second answer'), 'second'));
  return chat;
}

/** Renders the hook once and hands its value out (a server render runs no effect). */
function Capture({
  options,
  take,
}: {
  options: Parameters<typeof useChunkThread>[0];
  take: (thread: ChunkThread) => void;
}): ReactElement {
  const thread = useChunkThread(options);
  take(thread);
  return createElement('p', null, thread.snapshot.groups.length);
}

/** The hook's value, from a server render. */
function renderThread(options: Parameters<typeof useChunkThread>[0]): ChunkThread {
  let thread: ChunkThread | undefined;
  renderToString(
    createElement(Capture, {
      options,
      take: (value) => {
        thread = value;
      },
    }),
  );
  return thread as ChunkThread;
}

const texts = (thread: ChunkThread) =>
  thread.window.groups.map(
    (m) => `${m.role}: ${m.chunks.map((c) => ('text' in c ? c.text : '')).join('')}`,
  );

function errorOf(run: () => unknown): ChunklogError {
  try {
    run();
  } catch (error) {
    if (ChunklogError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('did not throw');
}

describe('createThreadClient: alternatives', () => {
  it('posts edit, regenerate and switch bodies, and reads the alternatives', async () => {
    const chat = conversation();
    const { fetch, seen } = fakeHandler(chat);
    const client = createThreadClient({
      threadId: 'chat-1',
      basePath: '/api',
      fetch: (i, n) => fetch(new URL(String(i), 'http://x.test'), n),
    });
    expect(await client.regenerate('t1')).toEqual({ turnId: 'v1', queued: false });
    expect(await client.edit('t0', 'first, edited')).toEqual({ turnId: 'v2', queued: false });
    const listed = (await client.alternatives()) as { branches: unknown[] };
    expect(listed.branches).toHaveLength(1);
    const switched = (await client.switchAlternative('chat-1~1')) as { activePath: string };
    expect(switched.activePath).toBe('chat-1~1');
    expect(seen).toEqual([
      'POST /api/threads/chat-1/messages {"regenerate":"t1"}',
      'POST /api/threads/chat-1/messages {"text":"first, edited","edit":"t0"}',
      'GET /api/threads/chat-1/alternatives {}',
      'POST /api/threads/chat-1/alternatives {"threadId":"chat-1~1"}',
    ]);
    await expect(client.switchAlternative('nope')).rejects.toMatchObject({
      code: 'request-failed',
      message: 'POST alternatives answered 404: No such version.',
    });
  });
});

describe('useChunkThread: edit, regenerate, switchAlternative', () => {
  function setUp(limit = 50) {
    const chat = conversation();
    const handler = fakeHandler(chat);
    const thread = renderThread({
      threadId: 'chat-1',
      basePath: 'http://x.test/api',
      fetch: handler.fetch,
      live: false,
      limit,
    });
    return { chat, thread, ...handler };
  }

  it('regenerates an answer, switches back to the first one, and edits a message', async () => {
    const { thread } = setUp();
    await thread.window.loadOlder();
    await thread.alternatives.refresh();
    expect(thread.alternatives.versionsOf('t1')).toBeUndefined();

    const sent = await thread.regenerate('t1');
    expect(sent).toEqual({ turnId: 'v1', queued: false });
    expect(texts(thread)).toEqual([
      'user: first',
      'assistant: first answer-0',
      'user: second',
      'assistant: second answer 1-0',
    ]);
    const v = thread.alternatives.versionsOf('v1');
    expect(v).toMatchObject({ index: 1, count: 2 });

    // ‹ : the first answer again, and nothing of the regenerated one in memory.
    expect(await thread.switchAlternative(v?.versions[0]?.threadId as string)).toBe(true);
    expect(texts(thread)).toEqual([
      'user: first',
      'assistant: first answer-0',
      'user: second',
      'assistant: second answer-0',
    ]);
    expect(thread.window.log.some((e) => e.turnId === 'v1')).toBe(false);
    expect(thread.alternatives.versionsOf('t1')).toMatchObject({ index: 0, count: 2 });

    // An edit of the first message: a new version of turn t0, and the later turns are gone from
    // the active path (they follow the version they were asked on).
    expect(await thread.edit('t0', 'first, edited')).toEqual({ turnId: 'v2', queued: false });
    expect(texts(thread)).toEqual(['user: first, edited', 'assistant: first, edited answer 2-0']);
    expect(thread.alternatives.versionsOf('v2')).toMatchObject({ index: 1, count: 2 });
    expect(thread.error).toBeUndefined();
  });

  it('keeps the window within its limit after a switch, paging the new path by its seqs', async () => {
    const { chat, thread, seen } = setUp(4);
    for (let t = 2; t < 8; t++) {
      chat.append(storedDrafts(`t${t}`, turnOf(`t${t}`, 2), `q${t}`)); // 3 rows each
    }
    await thread.window.loadOlder();
    expect(thread.window.log.length).toBeLessThanOrEqual(4);
    await thread.regenerate('t3'); // the new path: t0, t1, t2 (seqs 1-7), then v1 (8-9)
    await thread.alternatives.refresh();
    expect(thread.window.log.length).toBeLessThanOrEqual(4);
    expect(thread.window.log.map((e) => `${e.turnId}#${e.seq}`)).toEqual([
      't2#6',
      't2#7',
      'v1#8',
      'v1#9',
    ]);
    await thread.loadOlder(); // scrolled to the bottom: the older page is evicted again at once
    expect(seen.filter((s) => s.includes('chunks?')).at(-1)).toBe(
      'GET /api/threads/chat-1/chunks?limit=50&before=6 {}',
    );
  });

  it('throws typed errors for bad arguments, and puts failed requests in `error`', async () => {
    const { thread, seen } = setUp();
    await thread.window.loadOlder();
    await thread.alternatives.refresh();
    expect(errorOf(() => thread.edit('', 'x'))).toMatchObject({
      code: 'invalid-option',
      option: 'turnId',
    });
    expect(errorOf(() => thread.edit('t0', '  '))).toMatchObject({
      code: 'invalid-option',
      option: 'text',
    });
    expect(errorOf(() => thread.regenerate(undefined as unknown as string))).toMatchObject({
      code: 'invalid-option',
      option: 'turnId',
    });
    expect(errorOf(() => thread.switchAlternative(''))).toMatchObject({
      code: 'invalid-option',
      option: 'threadId',
    });
    const posts = seen.filter((s) => s.startsWith('POST'));
    expect(posts).toEqual([]);
    // The server refuses a turn it does not know: resolved undefined, the window kept.
    const before = thread.window.log;
    expect(await thread.regenerate('t9')).toBeUndefined();
    expect(thread.window.log).toBe(before);
  });
});

describe('useChunkThread over the real handlers', () => {
  it('regenerates, switches back and edits against createChunkHandlers', async () => {
    const opened = await openSqliteStore();
    let answers = 0;
    const said = (content: unknown) =>
      Array.isArray(content)
        ? content.map((p: { text?: string }) => p.text ?? '').join('')
        : String(content);
    const session = createAgentSession({
      store: opened.store,
      threadId: 'conv',
      model: createScriptedModel((call) => ({
        parts: [
          { type: 'text', text: `answer ${++answers} to ${said(call.prompt.at(-1)?.content)}` },
        ],
      })),
      idGenerator: sequentialIds('turn-'),
    });
    const handlers = createChunkHandlers({
      store: opened.store,
      session,
      basePath: '/api',
      authorize: () => true,
    });
    try {
      const thread = renderThread({
        threadId: 'conv',
        basePath: 'http://x.test/api',
        fetch: (input, init) => handlers.fetch(new Request(input, init)),
        live: false,
      });
      for (const text of ['first', 'second']) {
        await thread.client.send(text);
        await session.idle();
      }
      await thread.window.loadOlder();
      const [first, second] = thread.window.groups.filter((m) => m.role === 'user');
      expect(texts(thread)).toEqual([
        'user: first',
        'assistant: answer 1 to first',
        'user: second',
        'assistant: answer 2 to second',
      ]);

      // Regenerate the second answer (no live events here: reload once the session is done).
      const regenerated = await thread.regenerate(second?.turnId as string);
      expect(regenerated?.turnId).toBeTruthy();
      await session.idle();
      await thread.window.reload();
      await thread.alternatives.refresh();
      expect(texts(thread).at(-1)).toBe('assistant: answer 3 to second');
      const v = thread.alternatives.versionsOf(regenerated?.turnId as string);
      expect(v).toMatchObject({ index: 1, count: 2 });

      // ‹ : the first answer again.
      expect(await thread.switchAlternative(v?.versions[0]?.threadId as string)).toBe(true);
      expect(texts(thread)).toEqual([
        'user: first',
        'assistant: answer 1 to first',
        'user: second',
        'assistant: answer 2 to second',
      ]);
      expect(thread.alternatives.versionsOf(second?.turnId as string)).toMatchObject({
        index: 0,
        count: 2,
      });

      // Edit the first message: a new version of the first turn; the second turn stays with
      // the version it was asked on.
      const edited = await thread.edit(first?.turnId as string, 'first, edited');
      await session.idle();
      await thread.window.reload();
      await thread.alternatives.refresh();
      expect(texts(thread)).toEqual([
        'user: first, edited',
        'assistant: answer 4 to first, edited',
      ]);
      expect(thread.alternatives.versionsOf(edited?.turnId as string)).toMatchObject({
        index: 1,
        count: 2,
      });
      expect(thread.error).toBeUndefined();
    } finally {
      await session.close();
      await opened.dispose();
    }
  });
});
