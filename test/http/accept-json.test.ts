// `POST …/messages` on handlers with `uiMessageStream` streams the turn to `useChat`, whose
// transport asks for no type; a client whose `Accept` prefers JSON (`createThreadClient`) gets the
// 202 JSON answer instead, for a send, an edit and a regenerate alike.
import { afterEach, describe, expect, it } from 'vitest';
import { createAgentSession, createChunkHandlers } from '../../src/entries/session.js';
import { prefersJson } from '../../src/http/media-type.js';
import { createChunkStore } from '../../src/store/index.js';
import { createScriptedModel, parseScript } from '../../src/testing/index.js';
import { sequentialIds } from '../session/support.js';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function open() {
  const store = createChunkStore({ sqlite: ':memory:' });
  await store.migrate();
  closers.push(() => store.close());
  const session = createAgentSession({
    store,
    threadId: 'h1',
    model: createScriptedModel(parseScript('text hi'), { repeat: true }),
    idGenerator: sequentialIds('t'),
  });
  closers.push(() => session.close());
  const handlers = createChunkHandlers({
    store,
    session,
    authorize: () => true,
    heartbeatMs: 0,
    uiMessageStream: true,
  });
  const post = (body: unknown, accept?: string) =>
    handlers.fetch(
      new Request('http://x/threads/h1/messages', {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(accept !== undefined ? { accept } : {}),
        },
        body: JSON.stringify(body),
      }),
    );
  return { store, session, post };
}

describe('POST …/messages with uiMessageStream', () => {
  it('answers 202 JSON to a client that asks for JSON: send, regenerate and edit', async () => {
    const { store, session, post } = await open();
    const sent = await post({ text: 'hello', mode: 'send' }, 'application/json');
    expect([sent.status, sent.headers.get('content-type')]).toEqual([
      202,
      'application/json; charset=utf-8',
    ]);
    const { turnId } = (await sent.json()) as { turnId: string };
    expect(await session.idle().then(() => store.hasTurn('h1', turnId))).toBe(true);
    const regenerated = await post({ regenerate: turnId }, 'application/json');
    expect([regenerated.status, await regenerated.json()]).toEqual([
      202,
      { turnId: expect.any(String), queued: false },
    ]);
    await session.idle();
    const latest = (await store.getChunks(await store.activePath('h1'), { limit: 10 })).chunks[0];
    const edited = await post({ text: 'edited', edit: latest?.turnId }, 'application/json');
    expect([edited.status, await edited.json()]).toEqual([
      202,
      { turnId: expect.any(String), queued: false },
    ]);
    await session.idle();
  });

  it('streams the turn as before to a request that does not prefer JSON', async () => {
    const { session, post } = await open();
    for (const accept of [
      undefined,
      '*/*',
      'text/event-stream',
      'application/json, text/event-stream',
      'application/json;q=0.5, */*',
    ]) {
      const response = await post({ text: 'hello' }, accept);
      expect([accept, response.status, response.headers.get('content-type')]).toEqual([
        accept,
        200,
        'text/event-stream',
      ]);
      await response.text();
      await session.idle();
    }
  });
});

describe('prefersJson', () => {
  it('compares the qualities of application/json and text/event-stream by their most specific range', () => {
    const cases: Array<[string | null, boolean]> = [
      [null, false],
      ['', false],
      ['*/*', false],
      ['application/json', true],
      ['Application/JSON; charset=utf-8', true],
      ['application/*', true],
      ['application/json, text/event-stream', false],
      ['text/event-stream;q=0.1, application/json', true],
      ['application/json;q=0.2, text/*;q=0.5', false],
      ['application/json, */*;q=0.8', true],
      ['application/json;q=0, */*', false],
      ['text/event-stream;q=0, */*', true],
      ['application/json;q=2', false],
      ['nonsense, application/json', true],
    ];
    for (const [header, expected] of cases) {
      expect([header, prefersJson(header)]).toEqual([header, expected]);
    }
  });
});
