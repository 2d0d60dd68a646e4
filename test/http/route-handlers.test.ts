// The handlers one by one (`handlers.messages(request, threadId)`, for a router of the app's own)
// answer with JSON and never throw, as `handlers.fetch` does: a thread id the router took from the
// path as is gets the same 400 naming `threadId`, and a `sessions` lookup that throws a 500.
import { describe, expect, it, vi } from 'vitest';
import { type AgentSession, createChunkHandlers } from '../../src/entries/session.js';
import { ChunklogError } from '../../src/errors/index.js';
import type { ControlAnswer, ControlMessage } from '../../src/live/relay.js';
import { createInProcessRelay } from '../../src/relay/index.js';

const store = {
  getChunks: async () => ({ chunks: [], total: 0, oldestSeq: null, hasMore: false }),
  getAlternatives: async () => {
    throw new Error('not reached');
  },
  switchAlternative: async () => {
    throw new Error('not reached');
  },
};

const json = (body: unknown): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

/** Every route's handler with a request it takes (`fetch` aside). */
const ROUTES = [
  ['chunks', {}],
  ['events', {}],
  ['messages', json({ text: 'x' })],
  ['cancel', json({})],
  ['notices', json({ text: 'x' })],
  ['alternatives', {}],
  ['stream', {}],
] as const;

describe('the handlers one by one', () => {
  it('answer a thread id that breaks the id rule with a 400 naming threadId, before authorize or a session lookup', async () => {
    const authorize = vi.fn(() => true);
    const sessions = vi.fn((threadId: string) => {
      throw new ChunklogError('invalid-option', `no session for ${threadId}`, {
        option: 'threadId',
      });
    });
    const handlers = createChunkHandlers({
      store,
      authorize,
      sessions,
      heartbeatMs: 0,
      uiMessageStream: true,
    });
    for (const threadId of [
      'a'.repeat(300),
      'a\nb',
      '',
      '\uD800',
      '.',
      '..',
      5 as unknown as string,
    ]) {
      for (const [kind, init] of ROUTES) {
        const response = await handlers[kind](new Request('http://x/', init), threadId);
        expect([kind, response.status, await response.json()]).toEqual([
          kind,
          400,
          {
            error: {
              code: 'invalid-parameter',
              parameter: 'threadId',
              message: expect.stringMatching(/^The thread id must /),
            },
          },
        ]);
      }
    }
    expect(authorize).not.toHaveBeenCalled();
    expect(sessions).not.toHaveBeenCalled();
  });

  it('answer 500 internal JSON, not a rejection, when the session lookup throws', async () => {
    const handlers = createChunkHandlers({
      store,
      authorize: () => true,
      sessions: async () => {
        throw new Error('session backend down');
      },
      heartbeatMs: 0,
      uiMessageStream: true,
    });
    for (const [kind, init] of ROUTES) {
      if (kind === 'chunks' || kind === 'alternatives') continue; // no session needed
      const response = await handlers[kind](new Request('http://x/', init), 't1');
      expect([kind, response.status, response.headers.get('content-type')]).toEqual([
        kind,
        500,
        'application/json; charset=utf-8',
      ]);
      expect(await response.json()).toEqual({
        error: { code: 'internal', message: 'The request failed.' },
      });
    }
  });

  it('look no session up for a cancel when given a relay (the cancel goes through it alone)', async () => {
    const relay = createInProcessRelay();
    const lookups: string[] = [];
    const handlers = createChunkHandlers({
      store,
      relay,
      authorize: () => true,
      sessions: (threadId) => {
        lookups.push(threadId);
        return undefined;
      },
    });
    for (const threadId of ['random-1', 'random-2']) {
      const response = await handlers.cancel(new Request('http://x/', json({})), threadId);
      expect([response.status, (await response.json()).error.code]).toEqual([409, 'not-running']);
    }
    expect(lookups).toEqual([]);
    await relay.close();
  });

  it('ask once for a cancel without a turn id when no turn waits for the lease (a dead holder costs one control timeout), and cancel a waiting turn by name', async () => {
    const relay = createInProcessRelay();
    const sent: ControlMessage[] = [];
    const answers: ControlAnswer[] = [];
    relay.control = async (_threadId, message) => {
      sent.push(message);
      return answers.shift() ?? { type: 'not-running' };
    };
    const handlers = createChunkHandlers({ store, relay, authorize: () => true });
    const cancel = () => handlers.cancel(new Request('http://x/', json({})), 'th');
    // The process that ran the turn is gone: the relay answers `not-running` at its timeout.
    const gone = await cancel();
    expect([gone.status, (await gone.json()).error.code]).toEqual([409, 'not-running']);
    expect(sent).toEqual([{ type: 'cancel', onlyStarted: true }]);
    // No turn started, one waits for the lease: it is cancelled by name.
    sent.length = 0;
    answers.push({ type: 'not-running', waiting: 'w1' }, { type: 'cancelled', turnId: 'w1' });
    const waiting = await cancel();
    expect([waiting.status, await waiting.json()]).toEqual([202, { turnId: 'w1' }]);
    expect(sent).toEqual([
      { type: 'cancel', onlyStarted: true },
      { type: 'cancel', turnId: 'w1' },
    ]);
    await relay.close();
  });

  it('with both session and sessions, answer the session’s thread from it and ask sessions for the others', async () => {
    const relay = createInProcessRelay();
    const single = {
      threadId: 'a',
      relay,
      subscribe: () => () => {},
    } as unknown as AgentSession;
    const asked: string[] = [];
    const handlers = createChunkHandlers({
      store,
      authorize: () => true,
      session: single,
      sessions: (threadId) => {
        asked.push(threadId);
        return undefined;
      },
    });
    const cancel = (threadId: string) =>
      handlers.cancel(new Request('http://x/', json({})), threadId);
    // Its own thread: through the session's relay, no lookup.
    expect((await cancel('a')).status).toBe(409);
    // Another: `sessions` is asked, and has none.
    const other = await cancel('b');
    expect([other.status, (await other.json()).error.code]).toEqual([404, 'no-session']);
    expect(asked).toEqual(['b']);
    await relay.close();
  });

  it('route through fetch the same way: a decoded bad id is a 400 naming threadId', async () => {
    const handlers = createChunkHandlers({ store, authorize: () => true });
    for (const path of ['/threads/a%0Ab/chunks', `/threads/${'a'.repeat(300)}/chunks`]) {
      const response = await handlers.fetch(new Request(`http://x${path}`));
      expect([response.status, (await response.json()).error.parameter]).toEqual([400, 'threadId']);
    }
    const good = await handlers.fetch(new Request('http://x/threads/a%20b/chunks'));
    expect(good.status).toBe(200);
  });
});
