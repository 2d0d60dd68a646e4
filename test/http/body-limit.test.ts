// A body over `maxBodyBytes` is answered 413 without reading the rest of it: the connection then
// closes after the answer (`Connection: close`), so that a client reusing it does not have its next
// request read from the middle of the refused body (a chunked upload has no length to skip by).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createAgentSession,
  createChunkHandlers,
  toNodeListener,
} from '../../src/entries/session.js';
import { createChunkStore } from '../../src/store/index.js';
import { createScriptedModel, parseScript } from '../../src/testing/index.js';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function serve(): Promise<string> {
  const store = createChunkStore({ sqlite: ':memory:' });
  await store.migrate();
  closers.push(() => store.close());
  const session = createAgentSession({
    store,
    threadId: 'b1',
    model: createScriptedModel(parseScript('text hi'), { repeat: true }),
  });
  closers.push(() => session.close());
  const handlers = createChunkHandlers({ store, session, authorize: () => true, heartbeatMs: 0 });
  const server: Server = createServer(toNodeListener(handlers.fetch));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A JSON body sent chunked (no `Content-Length`), in 16 kB pieces. */
function chunked(text: string): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  return new ReadableStream({
    start(controller) {
      for (let i = 0; i < bytes.length; i += 16_384) controller.enqueue(bytes.slice(i, i + 16_384));
      controller.close();
    },
  });
}

describe('a body over maxBodyBytes', () => {
  it.each(['chunked', 'with a Content-Length'])(
    '(%s) is answered 413 with Connection: close, and the requests after it on the same client succeed',
    async (how) => {
      const url = await serve();
      const big = JSON.stringify({ text: 'y'.repeat(500_000) });
      const refused = await fetch(`${url}/threads/b1/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: how === 'chunked' ? chunked(big) : big,
        duplex: 'half',
      } as RequestInit);
      expect([refused.status, refused.headers.get('connection')]).toEqual([413, 'close']);
      expect((await refused.json()).error.code).toBe('payload-too-large');
      for (let i = 0; i < 3; i++) {
        const next = await fetch(`${url}/threads/b1/chunks?limit=1`);
        expect(next.status).toBe(200);
        await next.text();
      }
      // A body within the limit is read whole, and the connection stays open for the next.
      const sent = await fetch(`${url}/threads/b1/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ text: 'hello' }),
      });
      expect([sent.status, sent.headers.get('connection')]).toEqual([202, 'keep-alive']);
    },
  );
});
