import { Hono } from 'hono';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  type AgentSession,
  createAgentSession,
  createChunkHandlers,
  sessionEventStream,
} from '../../src/entries/session.js';
import { ChunklogError } from '../../src/errors/index.js';
import type { ChunkEvent } from '../../src/schema/chunk-event.js';
import { createScriptedModel, parseScript } from '../../src/testing/index.js';
import { readSse, serve } from './http-support.js';
import { gate, openSqliteStore, recordEvents, sequentialIds } from './support.js';

const token = (threadId: string) => `secret-${threadId}`;
const auth = (threadId: string) => ({ authorization: `Bearer ${token(threadId)}` });

/** Allows a request bearing the thread's token; 401 without a token, 403 with a wrong one. */
function authorize(request: Request, threadId: string) {
  const header = request.headers.get('authorization');
  if (header === null) return 'unauthenticated' as const;
  return header === `Bearer ${token(threadId)}`;
}

describe('createChunkHandlers over a real HTTP server', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  async function setup(script: ReturnType<typeof createScriptedModel>) {
    const { store, dispose } = await openSqliteStore();
    const session = createAgentSession({
      store,
      threadId: 'h1',
      model: script,
      idGenerator: sequentialIds(),
    });
    const handlers = createChunkHandlers({ store, session, authorize, heartbeatMs: 0 });
    const server = await serve(handlers.fetch);
    cleanups.push(async () => {
      await session.close();
      await server.close();
      await dispose();
    });
    return { store, session, url: server.url };
  }

  it('serves pages of the log by keyset', async () => {
    const { store, session, url } = await setup(
      createScriptedModel(parseScript('text one\n---\ntext two\n---\ntext three')),
    );
    session.send('a');
    session.send('b');
    session.send('c');
    await session.idle();
    const page = async (query: string) => {
      const response = await fetch(`${url}/threads/h1/chunks${query}`, { headers: auth('h1') });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      return response.json();
    };
    const newest = await page('?limit=4');
    expect(newest).toEqual(JSON.parse(JSON.stringify(await store.getChunks('h1', { limit: 4 }))));
    expect(newest).toMatchObject({ total: 6, oldestSeq: 3, hasMore: true });
    expect(newest.chunks.map((r: { seq: number }) => r.seq)).toEqual([3, 4, 5, 6]);
    const older = await page(`?limit=4&before=${newest.oldestSeq}`);
    expect(older).toMatchObject({ total: 6, oldestSeq: 1, hasMore: false });
    expect(older.chunks.map((r: { seq: number }) => r.seq)).toEqual([1, 2]);
    expect((await page('')).chunks).toHaveLength(6);
    // A thread with no rows yet is an empty page.
    const empty = await fetch(`${url}/threads/nobody/chunks`, { headers: auth('nobody') });
    expect(await empty.json()).toEqual({ chunks: [], total: 0, oldestSeq: null, hasMore: false });
  });

  it('refuses unauthorized access: 401 without credentials, 403 with the wrong ones', async () => {
    const { url } = await setup(createScriptedModel([{}]));
    const requests: Array<[string, RequestInit]> = [
      [`${url}/threads/h1/chunks`, {}],
      [`${url}/threads/h1/events`, {}],
      [
        `${url}/threads/h1/messages`,
        { method: 'POST', body: '{"text":"x"}', headers: { 'content-type': 'application/json' } },
      ],
      [`${url}/threads/h1/cancel`, { method: 'POST' }],
      [
        `${url}/threads/h1/notices`,
        { method: 'POST', body: '{"text":"x"}', headers: { 'content-type': 'application/json' } },
      ],
    ];
    for (const [target, init] of requests) {
      const anonymous = await fetch(target, init);
      expect(anonymous.status).toBe(401);
      expect(await anonymous.json()).toEqual({
        error: { code: 'unauthorized', message: 'Authentication is required.' },
      });
      const wrong = await fetch(target, {
        ...init,
        headers: { ...(init.headers as Record<string, string>), ...auth('h2') },
      });
      expect(wrong.status).toBe(403);
      expect((await wrong.json()).error.code).toBe('forbidden');
    }
  });

  it('refuses malformed parameters with a 400 naming the parameter', async () => {
    const { url } = await setup(createScriptedModel([{}]));
    const get = async (path: string, headers: Record<string, string> = {}) => {
      const response = await fetch(`${url}${path}`, { headers: { ...auth('h1'), ...headers } });
      return { status: response.status, body: await response.json() };
    };
    for (const [query, parameter] of [
      ['limit=0', 'limit'],
      ['limit=99999999999999999', 'limit'],
      ['limit=abc', 'limit'],
      ['limit=1.5', 'limit'],
      ['limit=1&limit=2', 'limit'],
      ['before=-3', 'before'],
      ['before=x', 'before'],
    ] as const) {
      const { status, body } = await get(`/threads/h1/chunks?${query}`);
      expect([query, status, body.error.code, body.error.parameter]).toEqual([
        query,
        400,
        'invalid-parameter',
        parameter,
      ]);
    }
    // `before=0` is the store's empty page below every row, as `getChunks({ before: 0 })`.
    const none = await get('/threads/h1/chunks?before=0');
    expect([none.status, none.body.chunks, none.body.hasMore]).toEqual([200, [], false]);
    // Above `maxLimit` (default 1,000) is no error: the page is capped to it.
    const capped = await get('/threads/h1/chunks?limit=1001');
    expect([capped.status, capped.body.chunks]).toEqual([200, []]);
    const badId = await fetch(`${url}/threads/%E0%A4%A/chunks`, { headers: auth('h1') });
    expect([badId.status, (await badId.json()).error.parameter]).toEqual([400, 'threadId']);
    const badLastId = await get('/threads/h1/events', { 'last-event-id': 'garbage' });
    expect([badLastId.status, badLastId.body.error.parameter]).toEqual([400, 'Last-Event-ID']);
    const twice = await get('/threads/h1/events?lastEventId=t1:0&lastEventId=nope');
    expect([twice.status, twice.body.error.parameter]).toEqual([400, 'Last-Event-ID']);
    // A turn id no turn can have (a control character, too long) is no event id either.
    for (const query of ['lastEventId=t%01:1', `lastEventId=${'t'.repeat(256)}:1`]) {
      const badTurn = await get(`/threads/h1/events?${query}`);
      expect([badTurn.status, badTurn.body.error.parameter]).toEqual([400, 'Last-Event-ID']);
    }

    const post = async (body: string, type = 'application/json') => {
      const response = await fetch(`${url}/threads/h1/messages`, {
        method: 'POST',
        body,
        headers: { ...auth('h1'), 'content-type': type },
      });
      return { status: response.status, body: await response.json() };
    };
    expect(await post('{nope')).toMatchObject({
      status: 400,
      body: { error: { parameter: 'body' } },
    });
    expect(await post('[1]')).toMatchObject({
      status: 400,
      body: { error: { parameter: 'body' } },
    });
    expect(await post('{}')).toMatchObject({ status: 400, body: { error: { parameter: 'text' } } });
    expect(await post('{"text":"  "}')).toMatchObject({
      status: 400,
      body: { error: { parameter: 'text' } },
    });
    expect(await post('{"text":"x","mode":"shout"}')).toMatchObject({
      status: 400,
      body: { error: { parameter: 'mode' } },
    });
    expect(await post('{"text":"x","turnId":5}')).toMatchObject({
      status: 400,
      body: { error: { parameter: 'turnId' } },
    });
    expect(await post(JSON.stringify({ text: 'x', turnId: 'a\nb' }))).toMatchObject({
      status: 400,
      body: { error: { parameter: 'turnId' } },
    });
    // A misspelt field is refused, not ignored (a retry's `turnID` would send a second turn).
    const misspelt = await post('{"text":"x","turnID":"order-1"}');
    expect(misspelt).toMatchObject({ status: 400, body: { error: { parameter: 'turnID' } } });
    expect(misspelt.body.error.message).toContain('did you mean `turnId`?');
    expect(await post('{"text":"x"}', 'text/plain')).toMatchObject({
      status: 415,
      body: { error: { code: 'unsupported-media-type' } },
    });
    const tooLarge = await post(JSON.stringify({ text: 'x'.repeat(70_000) }));
    expect(tooLarge).toMatchObject({ status: 413, body: { error: { code: 'payload-too-large' } } });
    // It says how to send less: a chat client's whole history is what usually grows.
    expect(tooLarge.body.error.message).toContain('prepareSendMessagesRequest');
    const wrongMethod = await fetch(`${url}/threads/h1/chunks`, {
      method: 'DELETE',
      headers: auth('h1'),
    });
    expect([wrongMethod.status, wrongMethod.headers.get('allow')]).toEqual([405, 'GET']);
    const unknown = await fetch(`${url}/threads/h1/nothing`, { headers: auth('h1') });
    expect(unknown.status).toBe(404);
    const noSession = await fetch(`${url}/threads/h2/events`, { headers: auth('h2') });
    expect([noSession.status, (await noSession.json()).error.code]).toEqual([404, 'no-session']);
  });

  it('streams the live turn over SSE; a client that drops and reconnects with Last-Event-ID misses nothing and gets nothing twice', async () => {
    const firstHalf = gate();
    const secondHalf = gate();
    const model = createScriptedModel([
      {
        parts: [
          { type: 'text', text: 'a b c d' },
          { type: 'wait', until: firstHalf.promise },
          { type: 'text', text: 'e f g h' },
          { type: 'wait', until: secondHalf.promise },
          { type: 'text', text: 'i j' },
        ],
      },
    ]);
    const { session, url } = await setup(model);
    const recorded = recordEvents(session);

    const posted = await fetch(`${url}/threads/h1/messages`, {
      method: 'POST',
      body: JSON.stringify({ text: 'go' }),
      headers: { ...auth('h1'), 'content-type': 'application/json' },
    });
    expect(posted.status).toBe(202);
    expect(await posted.json()).toEqual({ turnId: 't1', queued: false });

    // The first connection reads up to the end of the first block, then drops.
    const first = await readSse(`${url}/threads/h1/events`, auth('h1'), (events) =>
      events.some((e) => (e.data as ChunkEvent).type === 'text-end'),
    );
    expect(first.status).toBe(200);
    expect(first.contentType).toMatch(/^text\/event-stream/);
    // While it is away, the turn goes on.
    firstHalf.open();
    await vi.waitFor(() =>
      expect(recorded.ofTurn('t1').filter((e) => e.type === 'text-end')).toHaveLength(2),
    );
    const lastSeen = first.events.at(-1)?.id as string;
    setTimeout(() => secondHalf.open(), 20);
    const second = await readSse(
      `${url}/threads/h1/events`,
      { ...auth('h1'), 'last-event-id': lastSeen },
      (events) => events.some((e) => (e.data as ChunkEvent).type === 'turn-end'),
    );
    const all = [...first.events, ...second.events];
    expect(all.every((e) => e.event === 'message')).toBe(true);
    expect(all.map((e) => e.data)).toEqual(recorded.ofTurn('t1'));
    expect(all.map((e) => e.id)).toEqual(recorded.ofTurn('t1').map((_, i) => `t1:${i}`));
    expect(first.events.length).toBeGreaterThan(3);
    expect(second.events.length).toBeGreaterThan(3);

    // After the turn is stored, a fresh client gets nothing to replay; a client that resumes
    // from an id this server never issued is told to reload (a gap event) first.
    await session.idle();
    const stale = await readSse(
      `${url}/threads/h1/events?lastEventId=${encodeURIComponent('other:3')}`,
      auth('h1'),
      (events) => events.length >= 1,
    );
    expect(stale.events).toEqual([
      { id: undefined, event: 'gap', data: { lastEventId: 'other:3' } },
    ]);
  });

  it('ends the event stream when the session closes, after the cancelled turn’s last event; a closed session’s events route answers 503', async () => {
    const { store, dispose } = await openSqliteStore();
    const reached = gate();
    const session = createAgentSession({
      store,
      threadId: 'h1',
      model: createScriptedModel([
        {
          parts: [
            { type: 'text', text: 'working' },
            {
              type: 'wait',
              until: () => {
                reached.open();
                return new Promise(() => {}); // until the session closes
              },
            },
          ],
        },
      ]),
      idGenerator: sequentialIds(),
    });
    // Heartbeats keep an idle stream busy: it must end all the same.
    const handlers = createChunkHandlers({ store, session, authorize, heartbeatMs: 20 });
    const server = await serve(handlers.fetch);
    cleanups.push(async () => {
      await server.close();
      await dispose();
    });
    /** The whole body of a stream, or 'still open' when it has not ended within 5 s. */
    const untilEnd = (body: ReadableStream<Uint8Array>) =>
      Promise.race([
        new Response(body).text(),
        new Promise<'still open'>((resolve) => setTimeout(() => resolve('still open'), 5000)),
      ]);
    const dataOf = (text: string) =>
      [...text.matchAll(/^data: (.*)$/gm)].map((m) => JSON.parse(m[1] as string) as ChunkEvent);

    session.send('go');
    await reached.promise;
    // Connected (the response's headers came: the stream is subscribed), then the session closes.
    const response = await fetch(`${server.url}/threads/h1/events`, { headers: auth('h1') });
    expect(response.status).toBe(200);
    const overHttp = untilEnd(response.body as ReadableStream<Uint8Array>);
    const direct = untilEnd(sessionEventStream(session, { heartbeatMs: 20 }));
    await new Promise((resolve) => setTimeout(resolve, 50)); // a few heartbeats
    expect(session.signal.aborted).toBe(false);
    await session.close();
    expect(session.signal.aborted).toBe(true);
    for (const text of [await overHttp, await direct]) {
      expect(text).not.toBe('still open');
      const events = dataOf(text);
      expect(events.at(0)).toEqual({ type: 'turn-start', turnId: 't1', userText: 'go' });
      expect(events.slice(-2)).toEqual([
        { type: 'system', kind: 'cancelled', text: 'Session closed' },
        { type: 'turn-end' },
      ]);
    }
    // Nothing more will come: a new client is told so (an EventSource stops retrying), and a
    // stream made after the close ends at once.
    const late = await fetch(`${server.url}/threads/h1/events`, { headers: auth('h1') });
    expect([late.status, (await late.json()).error.code]).toEqual([503, 'closed']);
    expect(await untilEnd(sessionEventStream(session))).toMatch(/^: chunklog events\n/);
  });

  it('cancels the running turn through POST …/cancel, and answers 409 when nothing (or another turn) runs', async () => {
    const reached = gate();
    const model = createScriptedModel([
      {
        parts: [
          { type: 'text', text: 'working' },
          {
            type: 'wait',
            until: () => {
              reached.open();
              return new Promise(() => {}); // until cancelled
            },
          },
        ],
      },
      {
        parts: [
          { type: 'text', text: 'again' },
          { type: 'wait', until: () => new Promise(() => {}) },
        ],
      },
    ]);
    const { session, url, store } = await setup(model);
    const recorded = recordEvents(session);
    const cancel = (init: RequestInit = {}) =>
      fetch(`${url}/threads/h1/cancel`, {
        method: 'POST',
        ...init,
        headers: { ...auth('h1'), ...(init.headers as Record<string, string> | undefined) },
      }).then(async (response) => ({ status: response.status, body: await response.json() }));
    const withJson = (body: unknown): RequestInit => ({
      body: JSON.stringify(body),
      headers: { 'content-type': 'application/json' },
    });

    // Nothing runs: nothing to cancel.
    expect(await cancel()).toEqual({
      status: 409,
      body: { error: { code: 'not-running', message: 'No turn is running.' } },
    });
    const first = session.send('go');
    await reached.promise;
    // A stop meant for another turn (one that has just ended, say) does not stop this one.
    expect(await cancel(withJson({ turnId: 'earlier' }))).toEqual({
      status: 409,
      body: { error: { code: 'not-running', message: 'Turn earlier is not running.' } },
    });
    for (const [init, status, parameter] of [
      [withJson({ reason: 5 }), 400, 'reason'],
      [withJson({ reason: '  ' }), 400, 'reason'],
      [withJson({ reason: 'x'.repeat(501) }), 400, 'reason'],
      [withJson({ turnId: '' }), 400, 'turnId'],
      [withJson({ turnID: 't1' }), 400, 'turnID'], // misspelt: refused, not a cancel of any turn
      [withJson([1]), 400, 'body'],
      [{ body: 'stop', headers: { 'content-type': 'text/plain' } }, 415, undefined],
      [{ body: new TextEncoder().encode('stop') }, 415, undefined], // a body without a type
    ] as const) {
      const answer = await cancel(init);
      expect([answer.status, answer.body.error.parameter]).toEqual([status, parameter]);
    }
    expect(session.runningTurnId).toBe('t1');
    expect(await cancel(withJson({ turnId: 't1', reason: 'Stopped by the user.' }))).toEqual({
      status: 202,
      body: { turnId: 't1' },
    });
    expect((await first.result).outcome).toBe('cancelled');
    expect(recorded.ofTurn('t1').slice(-2)).toEqual([
      { type: 'system', kind: 'cancelled', text: 'Stopped by the user.' },
      { type: 'turn-end' },
    ]);
    // Without a body (and without a content type): the running turn, with the default reason.
    const second = session.send('again');
    await vi.waitFor(() => expect(model.calls).toHaveLength(2));
    expect(await cancel()).toEqual({ status: 202, body: { turnId: 't2' } });
    expect((await second.rows).at(-1)?.data).toEqual({ kind: 'cancelled', text: 'Cancelled' });
    expect(await cancel()).toMatchObject({ status: 409 });
    expect((await store.getRows('h1')).filter((row) => row.type === 'system')).toHaveLength(2);
    const get = await fetch(`${url}/threads/h1/cancel`, { headers: auth('h1') });
    expect([get.status, get.headers.get('allow')]).toEqual([405, 'POST']);
  });

  it('records system notices through POST …/notices: into the running turn, or a system turn of their own', async () => {
    const reached = gate();
    const release = gate();
    const model = createScriptedModel([
      {
        parts: [
          { type: 'text', text: 'working' },
          {
            type: 'wait',
            until: () => {
              reached.open();
              return release.promise;
            },
          },
        ],
      },
    ]);
    const { session, url, store } = await setup(model);
    const notice = (body: unknown, type = 'application/json') =>
      fetch(`${url}/threads/h1/notices`, {
        method: 'POST',
        body: typeof body === 'string' ? body : JSON.stringify(body),
        headers: { ...auth('h1'), 'content-type': type },
      }).then(async (response) => ({ status: response.status, body: await response.json() }));

    expect(await notice({ text: 'Deployed v2' })).toEqual({
      status: 202,
      body: { routed: 'system-turn', turnId: 't1' },
    });
    const turn = session.send('go');
    await reached.promise;
    expect(await notice({ text: 'Settings changed', kind: 'config-reload' })).toEqual({
      status: 202,
      body: { routed: 'turn', turnId: 't2' },
    });
    release.open();
    await turn.rows;
    for (const [body, status, parameter] of [
      [{}, 400, 'text'],
      [{ text: ' ' }, 400, 'text'],
      [{ text: 5 }, 400, 'text'],
      [{ text: 'x', kind: 'cancelled' }, 400, 'kind'],
      [{ text: 'x', kind: 'model-changed' }, 400, 'kind'],
      [{ text: 'x', kind: 'shout' }, 400, 'kind'],
      [{ text: 'x', knd: 'notice' }, 400, 'knd'],
      ['"x"', 400, 'body'],
    ] as const) {
      const answer = await notice(body);
      expect([answer.status, answer.body.error.parameter]).toEqual([status, parameter]);
    }
    expect((await notice('{"text":"x"}', 'text/plain')).status).toBe(415);
    const rows = await store.getRows('h1');
    expect(rows.filter((row) => row.type === 'system').map((r) => [r.role, r.data])).toEqual([
      ['system', { kind: 'notice', text: 'Deployed v2' }],
      ['assistant', { kind: 'config-reload', text: 'Settings changed' }],
    ]);
    await session.close();
    expect(await notice({ text: 'too late' })).toMatchObject({
      status: 503,
      body: { error: { code: 'closed' } },
    });
  });

  it('steers the running turn through POST { mode: "steer" }', async () => {
    const release = gate();
    const model = createScriptedModel([
      {
        parts: [
          { type: 'text', text: 'working' },
          { type: 'wait', until: release.promise },
        ],
      },
      { parts: [{ type: 'text', text: 'steered' }] },
    ]);
    const { session, url } = await setup(model);
    const post = (body: object) =>
      fetch(`${url}/threads/h1/messages`, {
        method: 'POST',
        body: JSON.stringify(body),
        headers: { ...auth('h1'), 'content-type': 'application/json' },
      });
    expect(await (await post({ text: 'go', turnId: 'mine' })).json()).toEqual({
      turnId: 'mine',
      queued: false,
    });
    await vi.waitFor(() => expect(model.calls).toHaveLength(1));
    const steered = await post({ text: 'also this', mode: 'steer' });
    expect([steered.status, await steered.json()]).toEqual([202, { steeringId: 't1' }]);
    release.open();
    await session.idle();
    expect(model.calls).toHaveLength(2);
  });

  it('mounts in Hono', async () => {
    const { store, dispose } = await openSqliteStore();
    cleanups.push(dispose);
    await store.appendTurn('h9', [
      { turnId: 'x', step: 0, role: 'user', type: 'text', data: { text: 'hi' } },
    ]);
    const handlers = createChunkHandlers({ store, authorize, basePath: '/api' });
    const app = new Hono();
    app.all('/api/*', (c) => handlers.fetch(c.req.raw));
    const response = await app.request('/api/threads/h9/chunks?limit=10', { headers: auth('h9') });
    expect(response.status).toBe(200);
    expect((await response.json()).chunks.map((r: { data: unknown }) => r.data)).toEqual([
      { text: 'hi' },
    ]);
    expect((await app.request('/api/threads/h9/chunks')).status).toBe(401);
    expect((await app.request('/threads/h9/chunks', { headers: auth('h9') })).status).toBe(404);
  });

  it('requires authorize and validates its options', () => {
    const store = {
      getChunks: async () => ({ chunks: [], total: 0, oldestSeq: null, hasMore: false }),
    };
    const cases: Array<[string, Record<string, unknown>]> = [
      ['authorize', { store }],
      ['store', { authorize, store: {} }],
      ['session', { authorize, store, session: 1 }],
      ['sessions', { authorize, store, sessions: {} }],
      ['basePath', { authorize, store, basePath: 'api' }],
      ['maxLimit', { authorize, store, maxLimit: 0 }],
      ['defaultLimit', { authorize, store, defaultLimit: 20, maxLimit: 10 }],
      ['heartbeatMs', { authorize, store, heartbeatMs: -1 }],
      ['maxBodyBytes', { authorize, store, maxBodyBytes: 1.5 }],
    ];
    for (const [option, options] of cases) {
      expect(() => createChunkHandlers(options as never), option).toThrow(
        expect.objectContaining({ code: 'invalid-option', option }),
      );
    }
    expect(() => createChunkHandlers({ store } as never)).toThrow(ChunklogError);
  });

  it('denies when authorize throws or answers anything but true, and passes its own Response through', async () => {
    const store = {
      getChunks: async () => ({ chunks: [], total: 0, oldestSeq: null, hasMore: false }),
    };
    const decide = vi.fn();
    const handlers = createChunkHandlers({ store, authorize: decide });
    const status = async () =>
      (await handlers.fetch(new Request('http://x/threads/t/chunks'))).status;
    decide.mockReturnValueOnce(undefined);
    expect(await status()).toBe(403);
    decide.mockReturnValueOnce('yes');
    expect(await status()).toBe(403);
    decide.mockImplementationOnce(() => {
      throw new Error('auth backend down');
    });
    expect(await status()).toBe(403);
    decide.mockResolvedValueOnce(new Response('go away', { status: 418 }));
    expect(await status()).toBe(418);
    decide.mockResolvedValueOnce(true);
    expect(await status()).toBe(200);
    expect(decide).toHaveBeenLastCalledWith(expect.any(Request), 't');
  });

  it('finds the session of any thread through `sessions`', async () => {
    const { store, dispose } = await openSqliteStore();
    cleanups.push(dispose);
    const made = new Map<string, AgentSession>();
    const sessions = (threadId: string) => {
      if (!threadId.startsWith('live-')) return undefined;
      let session = made.get(threadId);
      if (session === undefined) {
        session = createAgentSession({
          store,
          threadId,
          model: createScriptedModel(parseScript('text hey')),
        });
        made.set(threadId, session);
      }
      return session;
    };
    const handlers = createChunkHandlers({ store, authorize: () => true, sessions });
    const post = (threadId: string) =>
      handlers.fetch(
        new Request(`http://x/threads/${threadId}/messages`, {
          method: 'POST',
          body: '{"text":"hi"}',
          headers: { 'content-type': 'application/json' },
        }),
      );
    expect((await post('live-1')).status).toBe(202);
    expect((await post('dead-1')).status).toBe(404);
    await made.get('live-1')?.idle();
    expect((await store.getRows('live-1')).map((r) => r.data)).toEqual([
      { text: 'hi' },
      { text: 'hey', id: '0-0' },
    ]);
  });
});
