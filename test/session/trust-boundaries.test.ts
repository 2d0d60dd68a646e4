// The session's entry points refuse malformed options and requests with a ChunklogError (or a
// 400 naming the parameter) before anything starts: no turn runs, nothing is written.
import { afterEach, describe, expect, it } from 'vitest';
import {
  createAgentSession,
  createChunkHandlers,
  formatSse,
  parseEventId,
  sessionEventStream,
  toNodeListener,
} from '../../src/entries/session.js';
import { createChunkStore } from '../../src/store/index.js';
import { createScriptedModel } from '../../src/testing/index.js';
import { thrown } from '../support/chunklog-error.js';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function openSession() {
  const store = createChunkStore({ sqlite: ':memory:' });
  await store.migrate();
  closers.push(() => store.close());
  const model = createScriptedModel([{ parts: [{ type: 'text', text: 'ok' }] }]);
  const session = createAgentSession({ store, threadId: 'th', model });
  closers.push(() => session.close());
  return { store, session, model };
}

describe('session trust boundaries', () => {
  it('formatSse refuses an id or event name that would inject SSE fields', () => {
    expect(formatSse({ a: 1 }, { id: 't1:0' })).toBe('id: t1:0\ndata: {"a":1}\n\n');
    for (const [options, option] of [
      [{ id: 't1:0\ndata: {"forged":true}' }, 'id'],
      [{ event: 'gap\r\nid: x' }, 'event'],
      [{ id: 5 }, 'id'],
      [{ ids: 'x' }, 'ids'],
    ] as const) {
      expect(thrown(() => formatSse({}, options as never)).option).toBe(option);
    }
    expect(thrown(() => formatSse(undefined)).option).toBe('data');
    expect(thrown(() => formatSse({ n: 1n })).option).toBe('data');
  });

  it('parseEventId answers undefined for a non-string, or a turn id no turn can have', () => {
    expect(parseEventId(5 as never)).toBeUndefined();
    expect(parseEventId(null as never)).toBeUndefined();
    expect(parseEventId('t\u0000:1')).toBeUndefined();
    expect(parseEventId(`${'t'.repeat(256)}:1`)).toBeUndefined();
    expect(parseEventId(`${'t'.repeat(255)}:1`)).toEqual({ turnId: 't'.repeat(255), index: 1 });
  });

  it('sessionEventStream and toNodeListener check their arguments at once', async () => {
    const { session } = await openSession();
    for (const [run, option] of [
      [() => sessionEventStream({} as never), 'session'],
      [() => sessionEventStream(session, { heartbeatMs: Number.NaN }), 'heartbeatMs'],
      [() => sessionEventStream(session, { maxQueued: 0 }), 'maxQueued'],
      [() => sessionEventStream(session, { signal: {} as never }), 'signal'],
      [() => sessionEventStream(session, { lastEventId: 5 as never }), 'lastEventId'],
      [() => sessionEventStream(session, { resume: 't1:0' } as never), 'resume'],
      [() => toNodeListener('handler' as never), 'handler'],
    ] as const) {
      const error = thrown(run);
      expect(error.code).toBe('invalid-option');
      expect(error.option).toBe(option);
    }
    expect(thrown(() => toNodeListener('handler' as never)).message).toBe(
      'toNodeListener: `handler` must be a function',
    );
  });

  it('subscribe refuses a listener that is not a function, naming the argument', async () => {
    const { session } = await openSession();
    const error = thrown(() => session.subscribe('listener' as never));
    expect(error.code).toBe('invalid-option');
    expect(error.option).toBe('listener');
    expect(error.message).toBe('subscribe: `listener` must be a function');
  });

  it('send refuses a malformed signal or option before a turn starts', async () => {
    const { session, model } = await openSession();
    expect(thrown(() => session.send('hi', { signal: 'stop' as never })).option).toBe('signal');
    expect(thrown(() => session.send('hi', { abort: true } as never)).option).toBe('abort');
    await session.idle();
    expect(model.calls).toHaveLength(0);
  });

  it('cancel refuses a reason that is not a string, and the turn goes on to be stored', async () => {
    const store = createChunkStore({ sqlite: ':memory:' });
    await store.migrate();
    closers.push(() => store.close());
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const model = createScriptedModel([
      {
        parts: [
          { type: 'text', text: 'before' },
          { type: 'wait', until: released },
          { type: 'text', text: 'after' },
        ],
      },
    ]);
    const session = createAgentSession({ store, threadId: 'th', model });
    closers.push(() => session.close());
    const turn = session.send('hi');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(thrown(() => session.cancel(5 as never)).option).toBe('reason');
    expect(thrown(() => turn.cancel({} as never)).option).toBe('reason');
    release();
    const result = await turn.result;
    expect(result.outcome).toBe('completed');
    expect(result.rows.map((r) => r.data)).toContainEqual({ id: '0-1', text: 'after' });
  });

  it('createChunkHandlers checks its options, the uiMessageStream ones included', async () => {
    const { store, session } = await openSession();
    const base = { store, session, authorize: () => true };
    for (const [options, option] of [
      [{ ...base, basePath: 5 }, 'basePath'],
      [{ ...base, authorise: () => true }, 'authorise'],
      [{ ...base, uiMessageStream: { sendError: 'yes' } }, 'uiMessageStream.sendError'],
      [{ ...base, uiMessageStream: { onError: 'x' } }, 'uiMessageStream.onError'],
      [{ ...base, uiMessageStream: { keepAlive: 1 } }, 'keepAlive'],
    ] as const) {
      expect(thrown(() => createChunkHandlers(options as never)).option).toBe(option);
    }
  });

  it('the useChat route answers a malformed turnId with a 400 and starts no turn', async () => {
    const { store, session, model } = await openSession();
    const handlers = createChunkHandlers({
      store,
      session,
      authorize: () => true,
      uiMessageStream: true,
    });
    const response = await handlers.fetch(
      new Request('http://x/threads/th/messages', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ text: 'hi', turnId: 42 }),
      }),
    );
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { parameter: 'turnId' } });
    await session.idle();
    expect(model.calls).toHaveLength(0);
  });
});
