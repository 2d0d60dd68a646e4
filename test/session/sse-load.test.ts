// What many and slow SSE clients cost the server: 200 clients of one session print no warning
// (a listener each on the session's signal passed Node's limit of ten), a client that stops
// reading holds nothing of its own (it reads the relay at its own pace: nothing is read for it
// while it stalls), and a thread, or all threads together, take no more open streams than the
// handlers allow.
import { afterEach, describe, expect, it } from 'vitest';
import { createAgentSession, createChunkHandlers } from '../../src/entries/session.js';
import type { Relay, RelayRead } from '../../src/live/relay.js';
import { createInProcessRelay } from '../../src/relay/index.js';
import { createChunkStore } from '../../src/store/index.js';
import { createScriptedModel, parseScript } from '../../src/testing/index.js';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function setup(
  limits: { maxQueuedBytes?: number; maxConnectionsPerThread?: number },
  relay?: Relay,
) {
  const store = createChunkStore({ sqlite: ':memory:' });
  await store.migrate();
  closers.push(() => store.close());
  const session = createAgentSession({
    store,
    threadId: 'th',
    model: createScriptedModel(parseScript('text hello'), { repeat: true }),
    ...(relay === undefined ? {} : { relay }),
  });
  closers.push(() => session.close());
  const handlers = createChunkHandlers({
    store,
    session,
    authorize: () => true,
    heartbeatMs: 0,
    ...limits,
  });
  const open = (abort = new AbortController()) =>
    handlers.fetch(new Request('http://x/threads/th/events', { signal: abort.signal }));
  return { session, open };
}

/** Reads a body to its end, as text. */
async function readAll(response: Response): Promise<string> {
  return await response.text();
}

describe('SSE under load', () => {
  it('200 clients of one session print no MaxListenersExceededWarning and all get the turn', async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    try {
      const { session, open } = await setup({ maxConnectionsPerThread: 200 });
      const responses = await Promise.all(Array.from({ length: 200 }, () => open()));
      expect(responses.every((r) => r.status === 200)).toBe(true);
      await session.send('hi').rows;
      const bodies = responses.map(readAll);
      await session.close();
      const texts = await Promise.all(bodies);
      expect(texts.every((t) => t.includes('"type":"turn-end"'))).toBe(true);
      // Warnings are emitted on the next tick.
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.map((w) => `${w.name}: ${w.message}`)).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  });

  it('a client that stops reading holds nothing: nothing is read for it until it reads, then it gets the newest turn', async () => {
    const inner = createInProcessRelay();
    /** Reads each reader took from the relay, in order of `follow` calls. */
    const reads: number[] = [];
    const counting: Relay & { replay: typeof inner.replay } = {
      publish: (...args) => inner.publish(...args),
      lastIndex: (...args) => inner.lastIndex(...args),
      runningTurn: (...args) => inner.runningTurn(...args),
      control: (...args) => inner.control(...args),
      serveControl: (...args) => inner.serveControl(...args),
      forget: (...args) => inner.forget(...args),
      close: () => inner.close(),
      replay: (...args) => inner.replay(...args),
      follow(threadId: string, options?: Parameters<Relay['follow']>[1]): AsyncIterable<RelayRead> {
        const reader = reads.push(0) - 1;
        const source = inner.follow(threadId, options);
        return {
          async *[Symbol.asyncIterator]() {
            for await (const read of source) {
              reads[reader] = (reads[reader] ?? 0) + 1;
              yield read;
            }
          },
        };
      },
    };
    const { session, open } = await setup({}, counting);
    const stalled = await open();
    const reading = await open();
    const readingBody = readAll(reading);
    const text = 'x'.repeat(1000);
    for (let i = 0; i < 30; i++) await session.notify({ kind: 'notice', text: `${i} ${text}` });
    // The reading client has read every notice; nothing at all was read for the stalled one.
    await expect.poll(() => reads.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(90);
    expect(reads.filter((n) => n === 0)).toHaveLength(reads.length - 1);
    // Reading late, it starts from the newest turn kept (a window then reconciles with the store).
    await session.close();
    const late = await readAll(stalled);
    expect(late).toContain('"text":"29 ');
    expect(late).not.toContain('"text":"0 ');
    const full = await readingBody;
    expect(full).toContain('"text":"0 ');
    expect(full).toContain('"text":"29 ');
  });

  it('refuses a thread more open streams than maxConnectionsPerThread, until one closes', async () => {
    const { open } = await setup({ maxConnectionsPerThread: 2 });
    const first = new AbortController();
    const a = await open(first);
    const b = await open();
    const c = await open();
    expect([a.status, b.status, c.status]).toEqual([200, 200, 429]);
    expect(await c.json()).toMatchObject({ error: { code: 'too-many-connections' } });
    expect(c.headers.get('retry-after')).toBe('5');
    first.abort();
    await a.body?.cancel().catch(() => {});
    const d = await open();
    expect(d.status).toBe(200);
    await d.body?.cancel();
    await b.body?.cancel();
  });

  it('refuses all threads together more open streams than maxConnections, until one closes', async () => {
    const store = createChunkStore({ sqlite: ':memory:' });
    await store.migrate();
    closers.push(() => store.close());
    const relay = createInProcessRelay();
    const sessions = new Map<string, ReturnType<typeof createAgentSession>>();
    const handlers = createChunkHandlers({
      store,
      relay,
      sessions: (threadId) => {
        let session = sessions.get(threadId);
        if (session === undefined) {
          const created = createAgentSession({
            store,
            relay,
            threadId,
            model: createScriptedModel(parseScript('text hello'), { repeat: true }),
          });
          closers.push(() => created.close());
          sessions.set(threadId, created);
          session = created;
        }
        return session;
      },
      authorize: () => true,
      heartbeatMs: 0,
      maxConnectionsPerThread: 5,
      maxConnections: 2,
    });
    const open = (thread: string, abort = new AbortController()) =>
      handlers.fetch(new Request(`http://x/threads/${thread}/events`, { signal: abort.signal }));
    const first = new AbortController();
    const a = await open('a', first);
    const b = await open('b');
    const c = await open('c');
    expect([a.status, b.status, c.status]).toEqual([200, 200, 429]);
    expect(await c.json()).toMatchObject({ error: { code: 'too-many-connections' } });
    first.abort();
    await a.body?.cancel().catch(() => {});
    const d = await open('c');
    expect(d.status).toBe(200);
    await d.body?.cancel();
    await b.body?.cancel();
  });
});
