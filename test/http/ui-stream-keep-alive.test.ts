// The UI message streams keep a quiet turn's connection alive: by default with the handlers'
// `heartbeatMs`, so that a proxy does not cut a turn during a long tool call, as it keeps the event
// streams; `keepAliveMs: 0` turns them off (the AI SDK refuses 0, so chunklog does not pass it on).
import { afterEach, describe, expect, it } from 'vitest';
import { createAgentSession, createChunkHandlers } from '../../src/entries/session.js';
import type { ChunkHandlersOptions } from '../../src/http/types.js';
import { createChunkStore } from '../../src/store/index.js';
import { createScriptedModel } from '../../src/testing/index.js';
import { gatedTool } from '../support/gated-tool.js';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function open(options: Pick<ChunkHandlersOptions, 'heartbeatMs' | 'uiMessageStream'>) {
  const store = createChunkStore({ sqlite: ':memory:' });
  await store.migrate();
  closers.push(() => store.close());
  const { wait, running, release } = gatedTool();
  const model = createScriptedModel([
    { parts: [{ type: 'tool-call', toolName: 'wait', input: {} }] },
    { parts: [{ type: 'text', text: 'Done waiting.' }] },
  ]);
  const session = createAgentSession({ store, threadId: 'th', model, tools: { wait } });
  closers.push(() => session.close());
  const handlers = createChunkHandlers({ store, session, authorize: () => true, ...options });
  const post = () =>
    handlers.fetch(
      new Request('https://app.example.com/threads/th/messages', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ text: 'wait, then answer' }),
      }),
    );
  return { handlers, running, release, post };
}

/** Reads `body` until its text so far satisfies `until`; returns that text. */
async function readUntil(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  until: (text: string) => boolean,
): Promise<string> {
  const decoder = new TextDecoder();
  let text = '';
  while (!until(text)) {
    const { done, value } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
  }
  return text;
}

describe('keep-alive comments on the UI message streams', () => {
  it("come by default every `heartbeatMs` while a tool runs, on the send's stream and on GET …/stream", async () => {
    const { handlers, running, release, post } = await open({
      heartbeatMs: 10,
      uiMessageStream: true,
    });
    const sent = await post();
    expect(sent.status).toBe(200);
    await running;
    const resumed = await handlers.fetch(new Request('https://app.example.com/threads/th/stream'));
    expect(resumed.status).toBe(200);
    for (const response of [sent, resumed]) {
      const reader = (response.body as ReadableStream<Uint8Array>).getReader();
      expect(await readUntil(reader, (text) => text.includes(': keep-alive'))).toContain(
        ': keep-alive',
      );
      void reader.cancel();
    }
    release();
  });

  it('are off with keepAliveMs 0, and the send still streams its turn', async () => {
    const { running, release, post } = await open({ uiMessageStream: { keepAliveMs: 0 } });
    const sent = await post();
    expect(sent.status).toBe(200);
    await running;
    release();
    const text = await sent.text();
    expect(text).toContain('"delta":"waiting."');
    expect(text).toContain('"type":"finish"');
    expect(text).not.toContain(': keep-alive');
  });

  it('refuses a keepAliveMs no timer takes', () => {
    expect(() =>
      createChunkHandlers({
        store: {
          getChunks: async () => ({ chunks: [], total: 0, oldestSeq: null, hasMore: false }),
        },
        authorize: () => true,
        uiMessageStream: { keepAliveMs: 2 ** 31 },
      }),
    ).toThrow(/keepAliveMs/);
  });
});
