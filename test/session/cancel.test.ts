import { afterEach, describe, expect, it } from 'vitest';
import { createAgentSession } from '../../src/entries/session.js';
import type { ChunkEvent } from '../../src/schema/chunk-event.js';
import { createScriptedModel, parseScript } from '../../src/testing/index.js';
import { UNANSWERED_TOOL_CALL_TEXT } from './core.js';
import { slowTool } from './fixtures.js';
import { openSqliteStore, plainRows, recordEvents, sequentialIds } from './support.js';

const interrupted = { type: 'error-text', value: UNANSWERED_TOOL_CALL_TEXT } as const;

describe('cancel', () => {
  const disposers: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const dispose of disposers.splice(0)) await dispose();
  });

  it('during a tool call: ends the turn with a cancelled chunk, stores what it had, and answers the open calls with errors next time', async () => {
    const { store, dispose } = await openSqliteStore();
    disposers.push(dispose);
    const slow = slowTool();
    const model = createScriptedModel(
      parseScript(`
        text Let me run it.
        tool run {"ms":5000}
        tool run {"ms":10}
        ---
        text Ok.
      `),
    );
    const session = createAgentSession({
      store,
      threadId: 'c1',
      model,
      tools: { run: slow.tool },
      idGenerator: sequentialIds(),
    });
    const recorded = recordEvents(session);
    const turn = session.send('Run both');
    // The handle's iterator, started before the turn settles, gets every event.
    const collected: ChunkEvent[] = [];
    const iterating = (async () => {
      for await (const event of turn) collected.push(event);
    })();
    await slow.started;
    expect(session.cancel('Stopped by the user')).toBe(true);
    const rows = await turn.rows;
    await iterating;

    const expectedEvents: ChunkEvent[] = [
      { type: 'turn-start', turnId: 't1', userText: 'Run both' },
      { type: 'step-start', step: 0 },
      { type: 'text-start', id: '0-0' },
      { type: 'text-delta', id: '0-0', text: 'Let ' },
      { type: 'text-delta', id: '0-0', text: 'me ' },
      { type: 'text-delta', id: '0-0', text: 'run ' },
      { type: 'text-delta', id: '0-0', text: 'it.' },
      { type: 'text-end', id: '0-0' },
      { type: 'tool-input-start', toolCallId: 'call-0-0', toolName: 'run' },
      { type: 'tool-input-delta', toolCallId: 'call-0-0', delta: '{"ms":5000}' },
      { type: 'tool-call', toolCallId: 'call-0-0', toolName: 'run', input: { ms: 5000 } },
      { type: 'tool-input-start', toolCallId: 'call-0-1', toolName: 'run' },
      { type: 'tool-input-delta', toolCallId: 'call-0-1', delta: '{"ms":10}' },
      { type: 'tool-call', toolCallId: 'call-0-1', toolName: 'run', input: { ms: 10 } },
      { type: 'system', kind: 'cancelled', text: 'Stopped by the user' },
      { type: 'turn-end' },
    ];
    expect(recorded.ofTurn('t1')).toEqual(expectedEvents);
    expect(collected).toEqual(expectedEvents);

    expect(plainRows(rows)).toEqual([
      {
        threadId: 'c1',
        seq: 1,
        turnId: 't1',
        step: 0,
        role: 'user',
        type: 'text',
        data: { text: 'Run both' },
      },
      {
        threadId: 'c1',
        seq: 2,
        turnId: 't1',
        step: 0,
        role: 'assistant',
        type: 'text',
        data: { text: 'Let me run it.', id: '0-0' },
      },
      {
        threadId: 'c1',
        seq: 3,
        turnId: 't1',
        step: 0,
        role: 'assistant',
        type: 'tool_call',
        data: { id: 'call-0-0', name: 'run', index: 0, input: { ms: 5000 } },
      },
      {
        threadId: 'c1',
        seq: 4,
        turnId: 't1',
        step: 0,
        role: 'assistant',
        type: 'tool_call',
        data: { id: 'call-0-1', name: 'run', index: 1, input: { ms: 10 } },
      },
      {
        threadId: 'c1',
        seq: 5,
        turnId: 't1',
        step: 0,
        role: 'assistant',
        type: 'system',
        data: { kind: 'cancelled', text: 'Stopped by the user' },
      },
    ]);
    const result = await turn.result;
    expect([result.outcome, result.finishReason]).toEqual(['cancelled', undefined]);

    const expectedNext = [
      { role: 'user', content: [{ type: 'text', text: 'Run both' }] },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Let me run it.' },
          { type: 'tool-call', toolCallId: 'call-0-0', toolName: 'run', input: { ms: 5000 } },
          { type: 'tool-call', toolCallId: 'call-0-1', toolName: 'run', input: { ms: 10 } },
        ],
      },
      {
        role: 'tool',
        content: [
          { type: 'tool-result', toolCallId: 'call-0-0', toolName: 'run', output: interrupted },
          { type: 'tool-result', toolCallId: 'call-0-1', toolName: 'run', output: interrupted },
        ],
      },
      { role: 'user', content: [{ type: 'text', text: 'Again' }] },
    ];
    expect(await session.modelMessages('Again')).toEqual(expectedNext);
    await session.send('Again').rows;
    expect(model.prompts[1]).toEqual(expectedNext);
    expect(session.cancel()).toBe(false);
  });

  it('through the send signal: cancels the running turn, drops a queued one', async () => {
    const { store, dispose } = await openSqliteStore();
    disposers.push(dispose);
    const slow = slowTool();
    const model = createScriptedModel(parseScript('tool run {"ms":1}\n---\ntext after'));
    const session = createAgentSession({
      store,
      threadId: 'c2',
      model,
      tools: { run: slow.tool },
      idGenerator: sequentialIds(),
    });
    const first = new AbortController();
    const second = new AbortController();
    const running = session.send('one', { signal: first.signal });
    const queued = session.send('two', { signal: second.signal });
    expect([running.status, queued.status, session.queued]).toEqual(['running', 'queued', 1]);
    await slow.started;
    second.abort();
    expect(session.queued).toBe(0);
    expect(await queued.result).toEqual({ turnId: 't2', outcome: 'dropped', rows: [] });
    const events: ChunkEvent[] = [];
    for await (const event of queued) events.push(event);
    expect(events).toEqual([]);
    first.abort();
    const rows = await running.rows;
    expect(rows.at(-1)?.data).toEqual({ kind: 'cancelled', text: 'Cancelled' });
    await session.idle();
    expect(model.calls).toHaveLength(1);
    // An already aborted signal drops the turn at once.
    const dropped = session.send('three', { signal: AbortSignal.abort() });
    expect(dropped.status).toBe('dropped');
    expect(await dropped.rows).toEqual([]);
  });

  it('before the model is called: the turn holds the user message and the cancel', async () => {
    const { store, dispose } = await openSqliteStore();
    disposers.push(dispose);
    const model = createScriptedModel(parseScript('text never'));
    const session = createAgentSession({
      store,
      threadId: 'c3',
      model,
      idGenerator: sequentialIds(),
    });
    const turn = session.send('hi');
    turn.cancel('changed my mind');
    const rows = await turn.rows;
    expect(rows.map((r) => [r.role, r.type, r.data])).toEqual([
      ['user', 'text', { text: 'hi' }],
      ['assistant', 'system', { kind: 'cancelled', text: 'changed my mind' }],
    ]);
    expect(model.calls).toHaveLength(0);
  });

  it.each([
    ['unsigned', false],
    ['signed', undefined],
  ] as const)(
    'after the model thought (%s) and nothing more: the next model input has no assistant message of that turn',
    async (_name, signature) => {
      const { store, dispose } = await openSqliteStore();
      disposers.push(dispose);
      let thought!: () => void;
      const thinking = new Promise<void>((resolve) => {
        thought = resolve;
      });
      const never = new Promise<void>(() => {});
      const model = createScriptedModel([
        {
          parts: [
            { type: 'reasoning', text: 'Let me think about', signature },
            {
              type: 'wait',
              until: () => {
                thought();
                return never;
              },
            },
            { type: 'text', text: 'never' },
          ],
        },
        { parts: [{ type: 'text', text: 'Again, then.' }] },
      ]);
      const session = createAgentSession({
        store,
        threadId: 'c4',
        model,
        idGenerator: sequentialIds(),
      });
      const turn = session.send('hi');
      await thinking;
      expect(session.cancel('stop')).toBe(true);
      const rows = await turn.rows;
      // The thought is stored: the log loses nothing.
      expect(rows.map((r) => r.type)).toEqual(['text', 'thinking', 'system']);
      await session.send('hello again').rows;
      // It is not sent back: alone, Anthropic drops an unsigned thought and then refuses the empty
      // assistant message, and OpenAI refuses a reasoning item that nothing follows.
      expect(model.prompts[1]).toEqual([
        { role: 'user', content: [{ type: 'text', text: 'hi' }] },
        { role: 'user', content: [{ type: 'text', text: 'hello again' }] },
      ]);
    },
  );
});
