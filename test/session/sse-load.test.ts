// What many and slow SSE clients cost the server: 200 clients of one session print no warning
// (a listener each on the session's signal passed Node's limit of ten), a client that stops
// reading is dropped at its queue bound with an explicit `event: dropped` (its queue freed, not
// kept), and a thread takes no more open streams than the handlers allow.
import { afterEach, describe, expect, it } from 'vitest';
import { createAgentSession, createChunkHandlers } from '../../src/entries/session.js';
import { createChunkStore } from '../../src/store/index.js';
import { createScriptedModel, parseScript } from '../../src/testing/index.js';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function setup(limits: { maxQueuedBytes?: number; maxConnectionsPerThread?: number }) {
  const store = createChunkStore({ sqlite: ':memory:' });
  await store.migrate();
  closers.push(() => store.close());
  const session = createAgentSession({
    store,
    threadId: 'th',
    model: createScriptedModel(parseScript('text hello'), { repeat: true }),
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

  it('drops a client that stops reading at its byte bound, freeing its queue', async () => {
    const maxQueuedBytes = 8 * 1024;
    const { session, open } = await setup({ maxQueuedBytes });
    const stalled = await open();
    const reading = await open();
    const readingBody = readAll(reading);
    const text = 'x'.repeat(1000);
    for (let i = 0; i < 30; i++) await session.notify({ kind: 'notice', text: `${i} ${text}` });
    // Only now does the stalled client read: what waited for it was dropped at the bound, and
    // the stream says so before it ends.
    const late = await readAll(stalled);
    expect(late).toMatch(/event: dropped\ndata: \{"reason":"slow-client"\}\n\n$/);
    expect(new TextEncoder().encode(late).byteLength).toBeLessThan(maxQueuedBytes + 1024);
    expect(late).not.toContain('"text":"29 ');
    // A client that keeps reading is not affected.
    await session.close();
    const full = await readingBody;
    expect(full).toContain('"text":"29 ');
    expect(full).not.toContain('event: dropped');
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
});
