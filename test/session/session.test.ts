import { afterEach, describe, expect, it, vi } from 'vitest';
import { type AgentSessionOptions, createAgentSession } from '../../src/entries/session.js';
import { ChunklogError } from '../../src/errors/index.js';
import type { ChunkEvent } from '../../src/schema/chunk-event.js';
import { createScriptedModel, parseScript } from '../../src/testing/index.js';
import { gate, openSqliteStore, recordEvents, sequentialIds } from './support.js';

describe('notify', () => {
  const disposers: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const dispose of disposers.splice(0)) await dispose();
  });

  it('inside a running turn: a system chunk at its current position', async () => {
    const { store, dispose } = await openSqliteStore();
    disposers.push(dispose);
    const pause = gate();
    const reached = gate();
    const model = createScriptedModel([
      {
        parts: [
          { type: 'text', text: 'before' },
          {
            type: 'wait',
            until: () => {
              reached.open();
              return pause.promise;
            },
          },
          { type: 'text', text: 'after' },
        ],
      },
    ]);
    const session = createAgentSession({
      store,
      threadId: 'n1',
      model,
      idGenerator: sequentialIds(),
    });
    const recorded = recordEvents(session);
    const turn = session.send('go');
    await reached.promise;
    // The notice lands after what the session has emitted so far: wait for the first block's end.
    await vi.waitFor(() => expect(recorded.ofTurn('t1').at(-1)?.type).toBe('text-end'));
    expect(await session.notify({ kind: 'config-reload', text: 'Settings changed' })).toEqual({
      routed: 'turn',
      turnId: 't1',
    });
    pause.open();
    const rows = await turn.rows;
    expect(recorded.ofTurn('t1').map((e) => e.type)).toEqual([
      'turn-start',
      'step-start',
      'text-start',
      'text-delta',
      'text-end',
      'system',
      'text-start',
      'text-delta',
      'text-end',
      'step-finish',
      'turn-end',
    ]);
    expect(rows.map((r) => [r.role, r.type, r.data])).toEqual([
      ['user', 'text', { text: 'go' }],
      ['assistant', 'text', { text: 'before', id: '0-0' }],
      ['assistant', 'system', { kind: 'config-reload', text: 'Settings changed' }],
      ['assistant', 'text', { text: 'after', id: '0-1' }],
    ]);
    // System chunks never reach the model.
    expect(await session.modelMessages()).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'go' }] },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'before' },
          { type: 'text', text: 'after' },
        ],
      },
    ]);
  });

  it('with no turn running: a system turn of its own; consecutive ones group into one system message', async () => {
    const { store, dispose } = await openSqliteStore();
    disposers.push(dispose);
    const model = createScriptedModel(parseScript('text hi'));
    const session = createAgentSession({
      store,
      threadId: 'n2',
      model,
      idGenerator: sequentialIds(),
    });
    const recorded = recordEvents(session);
    const first = await session.notify({ kind: 'notice', text: 'Welcome' });
    const second = await session.notify({ kind: 'model-changed', text: 'Now using X' });
    expect(
      first.routed === 'system-turn' && first.rows.map((r) => [r.turnId, r.role, r.type, r.data]),
    ).toEqual([['t1', 'system', 'system', { kind: 'notice', text: 'Welcome' }]]);
    expect(second.turnId).toBe('t2');
    expect(recorded.events.map((e) => [e.meta.id, e.event])).toEqual([
      ['t1:0', { type: 'turn-start', turnId: 't1', role: 'system' }],
      ['t1:1', { type: 'system', kind: 'notice', text: 'Welcome' }],
      ['t1:2', { type: 'turn-end' }],
      ['t2:0', { type: 'turn-start', turnId: 't2', role: 'system' }],
      ['t2:1', { type: 'system', kind: 'model-changed', text: 'Now using X' }],
      ['t2:2', { type: 'turn-end' }],
    ] satisfies Array<[string, ChunkEvent]>);
    const messages = await store.getMessages('n2');
    expect(messages).toEqual([
      {
        id: 't1:system',
        turnId: 't1',
        role: 'system',
        chunks: [
          { type: 'system', step: 0, kind: 'notice', text: 'Welcome' },
          { type: 'system', step: 0, kind: 'model-changed', text: 'Now using X' },
        ],
      },
    ]);
    await session.send('hello').rows;
    expect(model.prompts[0]).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'hello' }] },
    ]);
  });

  it('rejects an unknown kind', async () => {
    const { store, dispose } = await openSqliteStore();
    disposers.push(dispose);
    const session = createAgentSession({ store, threadId: 'n3', model: createScriptedModel([{}]) });
    await expect(session.notify({ kind: 'bogus' as never, text: 'x' })).rejects.toSatisfy(
      (e: unknown) => ChunklogError.hasCode(e, 'invalid-option'),
    );
  });
});

describe('subscribe', () => {
  const disposers: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const dispose of disposers.splice(0)) await dispose();
  });

  it('fans events out to every listener; a throwing listener is reported and breaks nothing', async () => {
    const { store, dispose } = await openSqliteStore();
    disposers.push(dispose);
    const onError = vi.fn();
    const model = createScriptedModel(parseScript('text one two\n---\ntext three'));
    const session = createAgentSession({
      store,
      threadId: 'b1',
      model,
      onError,
      idGenerator: sequentialIds(),
    });
    const a: string[] = [];
    const b: string[] = [];
    const c: string[] = [];
    session.subscribe((event) => a.push(event.type));
    const unsubscribeB = session.subscribe((event) => b.push(event.type));
    session.subscribe((event) => {
      c.push(event.type);
      throw new Error('listener bug');
    });
    const rows = await session.send('go').rows;
    expect(rows).toHaveLength(2);
    expect(a).toEqual(b);
    expect(a).toEqual(c);
    expect(a[0]).toBe('turn-start');
    expect(a.at(-1)).toBe('turn-end');
    expect(onError).toHaveBeenCalledTimes(a.length);
    expect(onError.mock.calls[0]?.[1]).toEqual({ source: 'listener', turnId: 't1' });
    const firstTurn = a.length;
    unsubscribeB();
    unsubscribeB();
    await session.send('again').rows;
    expect(b).toHaveLength(firstTurn);
    expect(a.length).toBeGreaterThan(firstTurn);
    expect(a.slice(-1)).toEqual(['turn-end']);
  });
});

describe('the session lifecycle', () => {
  const disposers: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const dispose of disposers.splice(0)) await dispose();
  });

  it('close cancels the running turn, drops the queued ones, then refuses work', async () => {
    const { store, dispose } = await openSqliteStore();
    disposers.push(dispose);
    const pause = gate();
    const model = createScriptedModel([
      {
        parts: [
          { type: 'text', text: 'partial' },
          { type: 'wait', until: pause.promise },
        ],
      },
    ]);
    const session = createAgentSession({
      store,
      threadId: 'l1',
      model,
      idGenerator: sequentialIds(),
    });
    const running = session.send('one');
    const queued = session.send('two');
    await vi.waitFor(() => expect(model.calls).toHaveLength(1));
    await session.close();
    expect((await running.result).outcome).toBe('cancelled');
    expect((await queued.result).outcome).toBe('dropped');
    expect(() => session.send('three')).toThrow(expect.objectContaining({ code: 'closed' }));
    expect(() => session.steer('x')).toThrow(expect.objectContaining({ code: 'closed' }));
    await expect(session.notify({ kind: 'notice', text: 'x' })).rejects.toMatchObject({
      code: 'closed',
    });
  });

  it('a failed write rejects the turn rows, is reported, and the next turn still runs', async () => {
    const { store, dispose } = await openSqliteStore();
    disposers.push(dispose);
    const onError = vi.fn();
    let fail = true;
    const flaky = {
      ...store,
      appendTurn: async (
        threadId: string,
        drafts: Parameters<typeof store.appendTurn>[1],
        options?: Parameters<typeof store.appendTurn>[2],
      ) => {
        if (fail) {
          fail = false;
          throw new ChunklogError('store-failed', 'disk full');
        }
        return store.appendTurn(threadId, drafts, options);
      },
    };
    const model = createScriptedModel(parseScript('text a\n---\ntext b'));
    const session = createAgentSession({
      store: flaky,
      threadId: 'l2',
      model,
      onError,
      idGenerator: sequentialIds(),
    });
    const first = session.send('one');
    const second = session.send('two');
    await expect(first.rows).rejects.toMatchObject({ code: 'store-failed' });
    expect((await second.rows).map((r) => r.turnId)).toEqual(['t2', 't2']);
    expect(onError).toHaveBeenCalledWith(expect.objectContaining({ code: 'store-failed' }), {
      source: 'store',
      turnId: 't1',
    });
  });

  it('applies Anthropic caching by default to Anthropic models only', async () => {
    const { store, dispose } = await openSqliteStore();
    disposers.push(dispose);
    const run = async (threadId: string, provider: string, caching?: 'anthropic' | 'none') => {
      const model = createScriptedModel(parseScript('text ok'), { provider });
      const session = createAgentSession({
        store,
        threadId,
        model,
        system: 'S',
        ...(caching ? { caching } : {}),
      });
      await session.send('hi').rows;
      return model.prompts[0];
    };
    expect(await run('c1', 'anthropic.messages')).toEqual([
      {
        role: 'system',
        content: 'S',
        providerOptions: { anthropic: { cacheControl: { type: 'ephemeral' } } },
      },
      {
        role: 'user',
        content: [{ type: 'text', text: 'hi' }],
        providerOptions: { anthropic: { cacheControl: { type: 'ephemeral' } } },
      },
    ]);
    const plain = [
      { role: 'system', content: 'S' },
      { role: 'user', content: [{ type: 'text', text: 'hi' }] },
    ];
    expect(await run('c2', 'openai.responses')).toEqual(plain);
    expect(await run('c3', 'anthropic.messages', 'none')).toEqual(plain);
    expect((await run('c4', 'openai.responses', 'anthropic'))?.[1]).toHaveProperty(
      'providerOptions',
    );
  });

  it('validates its options and its inputs', async () => {
    const { store, dispose } = await openSqliteStore();
    disposers.push(dispose);
    const model = createScriptedModel([{}]);
    const base = { store, threadId: 't', model } as AgentSessionOptions;
    const cases: Array<[string, Partial<Record<keyof AgentSessionOptions, unknown>>]> = [
      ['store', { store: {} }],
      ['threadId', { threadId: '' }],
      ['model', { model: 42 }],
      ['model', { model: 'gateway/model', fallbackModels: [model] }],
      ['fallbackModels[0]', { fallbackModels: [{}] }],
      ['tools', { tools: 'no' }],
      ['tools', { tools: [] }],
      ['tools', { tools: { a: 42 } }],
      ['tools', { tools: { a: { inputSchema: {}, execute: 'run' } } }],
      ['tools', { tools: { a: { execute: async () => 1 } } }],
      ['system', { system: 3 }],
      ['caching', { caching: 'openai' }],
      ['maxSteps', { maxSteps: 0 }],
      ['stopWhen[0]', { stopWhen: ['x'] }],
      ['maxRetries', { maxRetries: -1 }],
      ['maxOutputTokens', { maxOutputTokens: 1.5 }],
      ['temperature', { temperature: Number.NaN }],
      ['idGenerator', { idGenerator: 'x' }],
      ['now', { now: 1 }],
      ['replayLimit', { replayLimit: 0 }],
      ['onError', { onError: true }],
    ];
    for (const [option, override] of cases) {
      expect(
        () => createAgentSession({ ...base, ...override } as AgentSessionOptions),
        option,
      ).toThrow(expect.objectContaining({ code: 'invalid-option', option }));
    }
    const session = createAgentSession(base);
    expect(() => session.send('')).toThrow(
      expect.objectContaining({ code: 'invalid-option', option: 'text' }),
    );
    expect(() => session.send({ text: 'x', turnId: '' })).toThrow(
      expect.objectContaining({ option: 'turnId' }),
    );
    expect(() => session.subscribe('x' as never)).toThrow(
      expect.objectContaining({ option: 'listener' }),
    );
    // Turn ids end up in SSE id lines and URLs: no control characters, at most 255 bytes.
    expect(() => session.send({ text: 'x', turnId: 'a\nid: evil' })).toThrow(
      expect.objectContaining({ option: 'turnId' }),
    );
    expect(() => session.send({ text: 'x', turnId: 'é'.repeat(128) })).toThrow(
      expect.objectContaining({ option: 'turnId' }),
    );
    const badIds = createAgentSession({ ...base, idGenerator: () => '' });
    expect(() => badIds.send('x')).toThrow(expect.objectContaining({ option: 'idGenerator' }));
  });

  it('makes time-ordered turn ids by default', async () => {
    const { store, dispose } = await openSqliteStore();
    disposers.push(dispose);
    let clock = 1_700_000_000_000;
    const model = createScriptedModel(parseScript('text a\n---\ntext b'));
    const session = createAgentSession({ store, threadId: 'ids', model, now: () => clock });
    const a = session.send('one');
    clock += 1;
    const b = session.send('two');
    await session.idle();
    expect(a.turnId < b.turnId).toBe(true);
    expect(a.turnId).toMatch(/^[0-9a-z]{24}$/);
  });
});

describe('turn-end', () => {
  it('reaches subscribers only once the turn is stored, and turns never interleave', async () => {
    const { store, dispose } = await openSqliteStore();
    try {
      const model = createScriptedModel([
        { parts: [{ type: 'text', text: 'one' }] },
        { parts: [{ type: 'text', text: 'two' }] },
      ]);
      const session = createAgentSession({
        store,
        threadId: 'end-after-write',
        model,
        idGenerator: sequentialIds(),
      });
      const seen: string[] = [];
      const storedAtEnd: Array<Promise<string[]>> = [];
      session.subscribe((event, meta) => {
        seen.push(`${meta.turnId}:${event.type}`);
        if (event.type === 'turn-end') {
          // What a client reconciling on turn-end reads from the store.
          storedAtEnd.push(
            store
              .getRows('end-after-write')
              .then((rows) => [...new Set(rows.map((r) => r.turnId))]),
          );
        }
      });
      const first = session.send('hi');
      // A system notice while the first turn is being stored, and a queued second turn.
      const notified = (async () => {
        await new Promise<void>((resolve) => {
          const off = session.subscribe((event) => {
            if (event.type === 'text-end') {
              off();
              resolve();
            }
          });
        });
        return session.notify({ kind: 'notice', text: 'between' });
      })();
      const second = session.send('again');
      await Promise.all([first.rows, second.rows, notified]);
      await session.idle();
      const turns = await Promise.all(storedAtEnd);
      // Each turn-end found its own turn (and every turn before it) in the store.
      for (const [i, stored] of turns.entries())
        expect(stored.length).toBeGreaterThanOrEqual(i + 1);
      const starts = seen.filter((s) => s.endsWith(':turn-start')).map((s) => s.split(':')[0]);
      const ends = seen.filter((s) => s.endsWith(':turn-end')).map((s) => s.split(':')[0]);
      expect(ends).toEqual(starts);
      // Between a turn's start and its end, only its own events.
      let current: string | undefined;
      for (const entry of seen) {
        const [turnId, type] = entry.split(':') as [string, string];
        if (type === 'turn-start') {
          expect(current).toBeUndefined();
          current = turnId;
        } else {
          expect(turnId).toBe(current);
          if (type === 'turn-end') current = undefined;
        }
      }
      await session.close();
    } finally {
      await dispose();
    }
  });
});
