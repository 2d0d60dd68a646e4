import { afterEach, describe, expect, it } from 'vitest';
import { createAgentSession, createChunkHandlers } from '../../src/entries/session.js';
import { createInProcessRelay } from '../../src/relay/index.js';
import { createChunkStore } from '../../src/store/index.js';
import { createScriptedModel } from '../../src/testing/index.js';
import { gatedTool } from '../support/gated-tool.js';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function open() {
  const store = createChunkStore({ sqlite: ':memory:' });
  await store.migrate();
  closers.push(() => store.close());
  const relay = createInProcessRelay();
  const { wait, running, release } = gatedTool({ abortable: true });
  const model = createScriptedModel([
    { parts: [{ type: 'tool-call', toolName: 'wait', input: {} }] },
    { parts: [{ type: 'text', text: 'Done waiting.' }] },
  ]);
  const session = createAgentSession({ store, threadId: 'th', model, tools: { wait }, relay });
  closers.push(() => session.close());
  const a = createChunkHandlers({
    store,
    session,
    authorize: () => true,
    relay,
    uiMessageStream: true,
  });
  const b = createChunkHandlers({ store, authorize: () => true, relay, uiMessageStream: true });
  return { store, session, a, b, release, running };
}

const json = (body: unknown) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

describe('handlers on a relay', () => {
  it('an instance without the session streams the turn, resumes useChat and cancels it; nothing runs after', async () => {
    const { b, session, running } = await open();
    expect((await b.fetch(new Request('http://x/threads/th/stream'))).status).toBe(204);
    const handle = session.send('hold');
    await running;
    const events = await b.fetch(new Request('http://x/threads/th/events'));
    expect(events.status).toBe(200);
    // Read it as a client does, from now on.
    const reader = (events.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    const sse = (async () => {
      let text = '';
      while (!text.includes('"type":"turn-end"')) {
        const { value } = await reader.read();
        text += decoder.decode(value, { stream: true });
      }
      await reader.cancel();
      return text;
    })();
    const resumed = await b.fetch(new Request('http://x/threads/th/stream'));
    expect(resumed.status).toBe(200);
    const notice = await b.fetch(
      new Request('http://x/threads/th/notices', json({ text: 'Heads up' })),
    );
    expect(notice.status).toBe(202);
    expect(await notice.json()).toEqual({ routed: 'turn', turnId: handle.turnId });
    const cancel = await b.fetch(
      new Request('http://x/threads/th/cancel', json({ reason: 'Stop' })),
    );
    expect(cancel.status).toBe(202);
    expect(await cancel.json()).toEqual({ turnId: handle.turnId });
    const result = await handle.result;
    expect(result.outcome).toBe('cancelled');
    const again = await b.fetch(new Request('http://x/threads/th/cancel', json({})));
    expect(again.status).toBe(409);
    // The SSE stream of B carried the whole turn, up to its turn-end.
    const text = await sse;
    expect(text).toContain(`id: ${handle.turnId}:0\n`);
    expect(text).toContain('"kind":"notice","text":"Heads up"');
    expect(text.match(/id: [^\n]+/g)).toEqual(
      Array.from(text.match(/id: [^\n]+/g) ?? [], (_, i) => `id: ${handle.turnId}:${i}`),
    );
    expect(text).toContain('"kind":"cancelled","text":"Stop"');
    // useChat's resume stream ended with the turn.
    expect(await resumed.text()).toContain('"type":"finish"');
  });

  it('a client that drops the POST of useChat does not stop the turn: it is stored whole', async () => {
    const { a, store, session, release, running } = await open();
    const abort = new AbortController();
    const response = await a.fetch(
      new Request('http://x/threads/th/messages', {
        ...json({
          messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'hold' }] }],
        }),
        signal: abort.signal,
      }),
    );
    await running;
    abort.abort();
    await response.body?.cancel();
    release();
    await session.idle();
    const page = await store.getChunks('th', { limit: 50 });
    expect(page.chunks.map((c) => c.type)).toContain('tool_result');
    expect(JSON.stringify(page.chunks)).toContain('Done waiting.');
  });
});
