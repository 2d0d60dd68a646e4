// GET …/stream clients of one running turn on one process share one reader of the relay and one
// encoding of the turn: fifty clients make one `follow`, each reads the same bytes from the turn's
// start (a late one too), a client that leaves does not end the others' stream, and the last one
// to leave stops the shared reader.
import { afterEach, describe, expect, it } from 'vitest';
import { createAgentSession, createChunkHandlers } from '../../src/entries/session.js';
import type { Relay } from '../../src/live/relay.js';
import { createInProcessRelay } from '../../src/relay/index.js';
import { createChunkStore } from '../../src/store/index.js';
import { createScriptedModel } from '../../src/testing/index.js';
import { gatedTool } from '../support/gated-tool.js';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** A relay that counts its readers, and how many of them are still following. */
function countingRelay() {
  const inner = createInProcessRelay();
  const counts = { follows: 0, following: 0 };
  const follow: Relay['follow'] = (threadId, options) => {
    counts.follows++;
    counts.following++;
    const reads = inner.follow(threadId, options);
    return {
      async *[Symbol.asyncIterator]() {
        try {
          yield* reads;
        } finally {
          counts.following--;
        }
      },
    };
  };
  const relay = new Proxy(inner, {
    get: (target, name) => {
      if (name === 'follow') return follow;
      const value = Reflect.get(target, name, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { relay, counts };
}

async function open() {
  const store = createChunkStore({ sqlite: ':memory:' });
  await store.migrate();
  closers.push(() => store.close());
  const { relay, counts } = countingRelay();
  const { wait, running, release } = gatedTool();
  const model = createScriptedModel([
    {
      parts: [
        { type: 'text', text: Array.from({ length: 200 }, (_, i) => `word${i} `) },
        { type: 'tool-call', toolName: 'wait', input: {} },
      ],
    },
    { parts: [{ type: 'text', text: Array.from({ length: 200 }, (_, i) => `more${i} `) }] },
  ]);
  const session = createAgentSession({ store, threadId: 'th', model, tools: { wait }, relay });
  closers.push(() => session.close());
  const handlers = createChunkHandlers({
    store,
    session,
    authorize: () => true,
    relay,
    uiMessageStream: true,
    maxConnectionsPerThread: 100,
  });
  return { session, handlers, counts, release, running };
}

const resume = (handlers: { fetch(request: Request): Promise<Response> }, signal?: AbortSignal) =>
  handlers.fetch(new Request('http://x/threads/th/stream', signal ? { signal } : {}));

describe('GET …/stream shared by the clients of a turn', () => {
  it('fifty clients follow the relay once and each reads the whole turn, byte for byte', async () => {
    const { session, handlers, counts, release, running } = await open();
    const turn = session.send('Go');
    await running;
    const responses = await Promise.all(Array.from({ length: 50 }, () => resume(handlers)));
    expect(responses.map((r) => r.status)).toEqual(responses.map(() => 200));
    expect(responses[0]?.headers.get('x-vercel-ai-ui-message-stream')).toBe('v1');
    expect(responses[0]?.headers.get('content-type')).toBe('text/event-stream');
    const texts = responses.map((r) => r.text());
    release();
    await turn.result;
    // One late client after the turn ended: no turn runs, nothing to resume.
    expect((await resume(handlers)).status).toBe(204);
    const all = await Promise.all(texts);
    // Every client read the same stream: from the turn's start to its end.
    expect(new Set(all).size).toBe(1);
    const text = all[0] as string;
    expect(text.indexOf('"type":"start"')).toBeGreaterThanOrEqual(0);
    expect(text).toContain('word0 ');
    expect(text).toContain('more199 ');
    expect(text.endsWith('data: [DONE]\n\n')).toBe(true);
    // The first client looked for the turn on the relay; the others read what it encoded.
    expect(counts.follows).toBe(1);
    await expect.poll(() => counts.following).toBe(0);
  });

  it('a client that joins late reads from the start, and one that leaves leaves the rest reading', async () => {
    const { session, handlers, counts, release, running } = await open();
    const turn = session.send('Go');
    await running;
    const early = await resume(handlers);
    const leaving = new AbortController();
    const quitter = await resume(handlers, leaving.signal);
    const reader = quitter.body?.getReader();
    expect((await reader?.read())?.done).toBe(false);
    leaving.abort();
    await reader?.cancel();
    const late = await resume(handlers);
    release();
    await turn.result;
    const [a, b] = await Promise.all([early.text(), late.text()]);
    expect(a).toBe(b);
    expect(a).toContain('word0 ');
    expect(a.endsWith('data: [DONE]\n\n')).toBe(true);
    expect(counts.follows).toBe(1);
  });

  it('the last client to leave stops the shared reader of the relay, and the slot is given back', async () => {
    const { session, handlers, counts, release, running } = await open();
    const turn = session.send('Go');
    await running;
    const clients = await Promise.all(
      Array.from({ length: 3 }, async () => {
        const abort = new AbortController();
        const response = await resume(handlers, abort.signal);
        return { abort, response };
      }),
    );
    expect(counts.following).toBe(1);
    for (const { abort, response } of clients) {
      abort.abort();
      await response.body?.cancel();
    }
    await expect.poll(() => counts.following).toBe(0);
    // A new client starts a new reader, from the turn's start again.
    const again = await resume(handlers);
    expect(counts.follows).toBe(2);
    release();
    await turn.result;
    const text = await again.text();
    expect(text).toContain('word0 ');
    expect(text.endsWith('data: [DONE]\n\n')).toBe(true);
  });
});
