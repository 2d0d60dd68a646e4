// createThreadClient against chunklog's real handlers (in process): every route, and the typed
// request-failed error of an error answer.
import { tool } from 'ai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  type AgentSession,
  createAgentSession,
  createChunkHandlers,
} from '../../src/entries/session.js';
import { ChunklogError } from '../../src/errors/index.js';
import { createThreadClient, type ThreadClient } from '../../src/react/index.js';
import { createScriptedModel } from '../../src/testing/index.js';
import { ChunkWindow } from '../../src/window/index.js';
import { gate, openSqliteStore, sequentialIds } from '../session/support.js';

let dispose: () => Promise<void>;
let store: Awaited<ReturnType<typeof openSqliteStore>>['store'];
let toolStarted: ReturnType<typeof gate>;
let session: AgentSession;
let client: ThreadClient;
const seen: string[] = [];

beforeEach(async () => {
  const opened = await openSqliteStore();
  dispose = opened.dispose;
  store = opened.store;
  toolStarted = gate();
  // `hold` runs until the turn is cancelled: a turn that is surely running while the test acts.
  const hold = tool({
    inputSchema: z.object({}),
    execute: (_input, { abortSignal }) => {
      toolStarted.open();
      return new Promise<string>((resolve) =>
        abortSignal?.addEventListener('abort', () => resolve('stopped')),
      );
    },
  });
  session = createAgentSession({
    store: opened.store,
    threadId: 'th/1',
    model: createScriptedModel((call) => {
      const last = call.prompt.at(-1);
      if (last?.role !== 'tool' && JSON.stringify(last).includes('wait for me')) {
        return { parts: [{ type: 'tool-call', toolName: 'hold', input: {} }] };
      }
      return { parts: [{ type: 'text', text: 'Hello there.' }] };
    }),
    tools: { hold },
    idGenerator: sequentialIds(),
  });
  const handlers = createChunkHandlers({
    store: opened.store,
    session,
    basePath: '/api',
    authorize: (request) => request.headers.get('x-user') === 'ada',
  });
  seen.length = 0;
  client = createThreadClient({
    threadId: 'th/1',
    basePath: 'http://chat.test/api/',
    headers: { 'x-user': 'ada' },
    fetch: async (input, init) => {
      const request = new Request(input, init);
      seen.push(`${request.method} ${new URL(request.url).pathname}${new URL(request.url).search}`);
      return handlers.fetch(request);
    },
  });
});

afterEach(async () => {
  await session.close();
  await dispose();
});

describe('createThreadClient', () => {
  it('sends a turn with its own id, then pages the stored rows', async () => {
    const sent = await client.send('Hi', { turnId: 'mine-1' });
    expect(sent).toEqual({ turnId: 'mine-1', queued: false });
    await session.idle();
    const page = await client.loadPage({ limit: 10 });
    expect(page.chunks.map((row) => [row.turnId, row.role, row.type])).toEqual([
      ['mine-1', 'user', 'text'],
      ['mine-1', 'assistant', 'text'],
    ]);
    const older = await client.loadPage({ limit: 1, before: 2 });
    expect(older.chunks.map((row) => row.seq)).toEqual([1]);
    expect(seen).toEqual([
      'POST /api/threads/th%2F1/messages',
      'GET /api/threads/th%2F1/chunks?limit=10',
      'GET /api/threads/th%2F1/chunks?limit=1&before=2',
    ]);
    expect(client.eventsUrl).toBe('http://chat.test/api/threads/th%2F1/events');
  });

  it("fills a window whose limit is above the server's maxLimit: the newest page, then older ones", async () => {
    for (const text of ['one', 'two', 'three']) {
      await client.send(text);
      await session.idle();
    }
    const small = createChunkHandlers({
      store,
      session,
      basePath: '/api',
      maxLimit: 4,
      authorize: (request) => request.headers.get('x-user') === 'ada',
    });
    const capped = createThreadClient({
      threadId: 'th/1',
      basePath: 'http://chat.test/api/',
      headers: { 'x-user': 'ada' },
      fetch: async (input, init) => small.fetch(new Request(input, init)),
    });
    const window = new ChunkWindow({ limit: 300, pageSize: 300, loadPage: capped.loadPage });
    await window.reconcile();
    expect(window.log.map((entry) => entry.seq)).toEqual([3, 4, 5, 6]);
    expect([window.total, window.hasOlder]).toEqual([6, true]);
    window.setScrolledUp(true);
    await window.loadOlder();
    expect(window.log.map((entry) => entry.seq)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(window.hasOlder).toBe(false);
  });

  it('cancels only a running turn (false when none runs), steers and posts notices', async () => {
    expect(await client.cancel({ reason: 'stop' })).toBe(false);
    const { turnId } = await client.send('wait for me');
    await toolStarted.promise;
    expect(await client.steer('and more')).toEqual({ steeringId: expect.any(String) });
    expect(await client.cancel({ reason: 'Stopped.', turnId: 'another' })).toBe(false);
    expect(await client.cancel({ reason: 'Stopped.', turnId })).toBe(true);
    await session.idle();
    const notice = await client.notify('Deployed v2');
    expect(notice.routed).toBe('system-turn');
    const rows = (await client.loadPage({ limit: 50 })).chunks;
    expect(rows.some((row) => row.type === 'system' && row.data.text === 'Deployed v2')).toBe(true);
    expect(rows.some((row) => row.type === 'system' && row.data.kind === 'cancelled')).toBe(true);
  });

  it('rejects an error answer with request-failed naming the route, status, message and parameter', async () => {
    const error = await client.send('   ').catch((e: unknown) => e);
    expect(ChunklogError.hasCode(error, 'request-failed')).toBe(true);
    const failure = error as ChunklogError;
    expect(failure.message).toBe('POST messages answered 400: `text` must be a non-empty string.');
    expect(failure.value).toEqual({ status: 400 });
    expect(failure.option).toBe('text');

    const stranger = createThreadClient({
      threadId: 'th/1',
      basePath: 'http://chat.test/api',
      fetch: async () => new Response('nope', { status: 403, statusText: 'Forbidden' }),
    });
    const denied = await stranger.loadPage({ limit: 5 }).catch((e: unknown) => e);
    expect((denied as ChunklogError).message).toBe('GET chunks answered 403: Forbidden');
  });

  it('rejects a request that got no answer (the server is down) with request-failed naming the route', async () => {
    const down = new TypeError('Failed to fetch');
    const offline = createThreadClient({
      threadId: 'th/1',
      basePath: 'http://chat.test/api',
      fetch: async () => {
        throw down;
      },
    });
    const error = await offline.send('hello').catch((e: unknown) => e);
    expect(ChunklogError.hasCode(error, 'request-failed')).toBe(true);
    expect((error as ChunklogError).message).toBe('POST messages got no answer: Failed to fetch');
    expect((error as ChunklogError).value).toEqual({ status: null });
    expect((error as ChunklogError).cause).toBe(down);
    const page = await offline.loadPage({ limit: 5 }).catch((e: unknown) => e);
    expect((page as ChunklogError).message).toBe('GET chunks got no answer: Failed to fetch');
  });

  it('works against handlers created with uiMessageStream: a send, a regenerate and an edit answer 202 JSON without waiting for the turn', async () => {
    const streaming = createChunkHandlers({
      store,
      session,
      basePath: '/api',
      heartbeatMs: 0,
      uiMessageStream: true,
      authorize: () => true,
    });
    const accepts: Array<string | null> = [];
    const chat = createThreadClient({
      threadId: 'th/1',
      basePath: 'http://chat.test/api',
      fetch: async (input, init) => {
        const request = new Request(input, init);
        accepts.push(request.headers.get('accept'));
        return streaming.fetch(request);
      },
    });
    const sent = await chat.send('wait for me');
    expect(sent).toEqual({ turnId: expect.any(String), queued: false });
    await toolStarted.promise; // the turn still runs: the answer did not wait for its end
    expect(await chat.cancel({ turnId: sent.turnId })).toBe(true);
    await session.idle();
    const hello = await chat.send('Hello');
    await session.idle();
    const regenerated = await chat.regenerate(hello.turnId);
    expect(regenerated).toEqual({ turnId: expect.any(String), queued: false });
    await session.idle();
    const edited = await chat.edit(regenerated.turnId, 'Hi');
    expect(edited).toEqual({ turnId: expect.any(String), queued: false });
    await session.idle();
    expect(new Set(accepts)).toEqual(new Set(['application/json']));
  });

  it('rejects a success answer that is not JSON with request-failed, without reading its body', async () => {
    let cancelled = false;
    const streamer = createThreadClient({
      threadId: 't',
      fetch: async () =>
        new Response(
          new ReadableStream({
            start: (controller) => controller.enqueue(new TextEncoder().encode('data: {}\n\n')),
            cancel: () => {
              cancelled = true;
            },
          }),
          { status: 200, headers: { 'content-type': 'text/event-stream' } },
        ),
    });
    const error = await streamer.send('Hi').catch((e: unknown) => e);
    expect(ChunklogError.hasCode(error, 'request-failed')).toBe(true);
    expect((error as ChunklogError).message).toBe(
      'POST messages answered 200 with text/event-stream, not JSON',
    );
    expect((error as ChunklogError).value).toEqual({
      status: 200,
      contentType: 'text/event-stream',
    });
    expect(cancelled).toBe(true);
  });

  it('refuses malformed options with invalid-option naming them', () => {
    const codeOf = (f: () => unknown) => {
      try {
        f();
      } catch (error) {
        return [(error as ChunklogError).code, (error as ChunklogError).option];
      }
      return undefined;
    };
    expect(codeOf(() => createThreadClient({ threadId: '' }))).toEqual([
      'invalid-option',
      'threadId',
    ]);
    expect(codeOf(() => createThreadClient({ threadId: 't', basePath: 3 as never }))).toEqual([
      'invalid-option',
      'basePath',
    ]);
    expect(codeOf(() => createThreadClient({ threadId: 't', fetch: 'x' as never }))).toEqual([
      'invalid-option',
      'fetch',
    ]);
    expect(codeOf(() => createThreadClient({ threadId: 't', retries: 2 } as never))).toEqual([
      'invalid-option',
      'retries',
    ]);
  });
});
