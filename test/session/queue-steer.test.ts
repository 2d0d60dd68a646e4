import { afterEach, describe, expect, it } from 'vitest';
import { createAgentSession } from '../../src/entries/session.js';
import type { ChunkEvent } from '../../src/schema/chunk-event.js';
import { createScriptedModel, parseScript } from '../../src/testing/index.js';
import { redactSecrets } from '../../src/transforms/index.js';
import { slowTool } from './fixtures.js';
import {
  block,
  openSqliteStore,
  plainRows,
  recordEvents,
  sequentialIds,
  toolCall,
} from './support.js';

const usage = (input: number, output: number) => ({
  inputTokens: input,
  outputTokens: output,
  totalTokens: input + output,
  reasoningTokens: 0,
});

describe('queued sends', () => {
  const disposers: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const dispose of disposers.splice(0)) await dispose();
  });

  it('a send while a turn runs becomes the next turn, in order, with the first turn in its history', async () => {
    const { store, dispose } = await openSqliteStore();
    disposers.push(dispose);
    const model = createScriptedModel(
      parseScript('text First answer.\n---\ntext Second answer.\n---\ntext Third.'),
    );
    const session = createAgentSession({
      store,
      threadId: 'q1',
      model,
      idGenerator: sequentialIds(),
    });
    const recorded = recordEvents(session);
    const first = session.send('one');
    const second = session.send('two');
    expect([first.turnId, second.turnId]).toEqual(['t1', 't2']);
    expect([first.status, second.status, session.runningTurnId, session.queued]).toEqual([
      'running',
      'queued',
      't1',
      1,
    ]);
    const [rows1, rows2] = await Promise.all([first.rows, second.rows]);
    const turn = (id: string, pieces: string[], u: ReturnType<typeof usage>): ChunkEvent[] => [
      { type: 'turn-start', turnId: id, userText: id === 't1' ? 'one' : 'two' },
      { type: 'step-start', step: 0 },
      ...block('text', `${id === 't1' ? 0 : 1}-0`, pieces),
      { type: 'step-finish', finishReason: 'stop', usage: u, modelId: 'scripted-model', step: 0 },
      { type: 'turn-end', finishReason: 'stop', usage: u },
    ];
    // Every event of the first turn comes before any of the second.
    expect(recorded.events.map((e) => e.event)).toEqual([
      ...turn('t1', ['First ', 'answer.'], usage(15, 4)),
      ...turn('t2', ['Second ', 'answer.'], usage(47, 4)),
    ]);
    expect(recorded.events.map((e) => e.meta.id).slice(0, 2)).toEqual(['t1:0', 't1:1']);
    expect([...plainRows(rows1), ...plainRows(rows2)]).toEqual([
      {
        threadId: 'q1',
        seq: 1,
        turnId: 't1',
        step: 0,
        role: 'user',
        type: 'text',
        data: { text: 'one' },
      },
      {
        threadId: 'q1',
        seq: 2,
        turnId: 't1',
        step: 0,
        role: 'assistant',
        type: 'text',
        data: { text: 'First answer.', id: '0-0' },
      },
      {
        threadId: 'q1',
        seq: 3,
        turnId: 't2',
        step: 0,
        role: 'user',
        type: 'text',
        data: { text: 'two' },
      },
      {
        threadId: 'q1',
        seq: 4,
        turnId: 't2',
        step: 0,
        role: 'assistant',
        type: 'text',
        data: { text: 'Second answer.', id: '1-0' },
      },
    ]);
    expect(model.prompts[1]).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'one' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'First answer.' }] },
      { role: 'user', content: [{ type: 'text', text: 'two' }] },
    ]);
    const expectedNext = [
      { role: 'user', content: [{ type: 'text', text: 'one' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'First answer.' }] },
      { role: 'user', content: [{ type: 'text', text: 'two' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Second answer.' }] },
      { role: 'user', content: [{ type: 'text', text: 'three' }] },
    ];
    expect(await session.modelMessages('three')).toEqual(expectedNext);
    await session.send('three').rows;
    expect(model.prompts[2]).toEqual(expectedNext);
    expect([session.runningTurnId, session.queued]).toEqual([undefined, 0]);
  });

  it('keeps order for many sends and for an explicit turn id', async () => {
    const { store, dispose } = await openSqliteStore();
    disposers.push(dispose);
    const model = createScriptedModel(parseScript('text a\n---\ntext b\n---\ntext c'));
    const session = createAgentSession({
      store,
      threadId: 'q2',
      model,
      idGenerator: sequentialIds(),
    });
    const handles = [
      session.send('1'),
      session.send({ text: '2', turnId: 'mine' }),
      session.send('3'),
    ];
    await session.idle();
    const rows = await store.getRows('q2');
    expect(rows.map((r) => `${r.turnId}/${r.role}/${JSON.stringify(r.data)}`)).toEqual([
      't1/user/{"text":"1"}',
      't1/assistant/{"text":"a","id":"0-0"}',
      'mine/user/{"text":"2"}',
      'mine/assistant/{"text":"b","id":"1-0"}',
      't2/user/{"text":"3"}',
      't2/assistant/{"text":"c","id":"2-0"}',
    ]);
    expect(handles.map((h) => h.status)).toEqual(['done', 'done', 'done']);
  });
});

describe('steer', () => {
  const disposers: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const dispose of disposers.splice(0)) await dispose();
  });

  it('during a tool call joins the turn at the next step and is stored in place as a steering chunk', async () => {
    const { store, dispose } = await openSqliteStore();
    disposers.push(dispose);
    const slow = slowTool();
    const model = createScriptedModel(
      parseScript('text Doing A.\ntool run {"ms":1}\n---\ntext Switching to B.\n---\ntext Ok.'),
    );
    const session = createAgentSession({
      store,
      threadId: 's1',
      model,
      tools: { run: slow.tool },
      idGenerator: sequentialIds(),
    });
    const recorded = recordEvents(session);
    const turn = session.send('Do A');
    await slow.started;
    const steer = session.steer('Actually, do B');
    expect(steer.id).toBe('t2');
    slow.release('A is done');
    const rows = await turn.rows;
    expect(await steer.outcome).toEqual({ type: 'delivered', id: 't2', turnId: 't1', step: 1 });
    expect(recorded.ofTurn('t1')).toEqual([
      { type: 'turn-start', turnId: 't1', userText: 'Do A' },
      { type: 'step-start', step: 0 },
      ...block('text', '0-0', ['Doing ', 'A.']),
      ...toolCall('call-0-0', 'run', { ms: 1 }),
      { type: 'tool-result', toolCallId: 'call-0-0', toolName: 'run', output: 'A is done' },
      {
        type: 'step-finish',
        finishReason: 'tool-calls',
        usage: usage(15, 4),
        modelId: 'scripted-model',
        step: 0,
      },
      { type: 'steering-message', id: 't2', text: 'Actually, do B', step: 1 },
      { type: 'step-start', step: 1 },
      ...block('text', '1-0', ['Switching ', 'to ', 'B.']),
      {
        type: 'step-finish',
        finishReason: 'stop',
        usage: usage(103, 4),
        modelId: 'scripted-model',
        step: 1,
      },
      { type: 'turn-end', finishReason: 'stop', usage: usage(118, 8) },
    ] satisfies ChunkEvent[]);
    expect(plainRows(rows)).toEqual([
      {
        threadId: 's1',
        seq: 1,
        turnId: 't1',
        step: 0,
        role: 'user',
        type: 'text',
        data: { text: 'Do A' },
      },
      {
        threadId: 's1',
        seq: 2,
        turnId: 't1',
        step: 0,
        role: 'assistant',
        type: 'text',
        data: { text: 'Doing A.', id: '0-0' },
      },
      {
        threadId: 's1',
        seq: 3,
        turnId: 't1',
        step: 0,
        role: 'assistant',
        type: 'tool_call',
        data: { id: 'call-0-0', name: 'run', index: 0, input: { ms: 1 } },
      },
      {
        threadId: 's1',
        seq: 4,
        turnId: 't1',
        step: 0,
        role: 'tool',
        type: 'tool_result',
        data: { callId: 'call-0-0', name: 'run', result: 'A is done' },
      },
      {
        threadId: 's1',
        seq: 5,
        turnId: 't1',
        step: 1,
        role: 'user',
        type: 'steering',
        data: { id: 't2', text: 'Actually, do B' },
      },
      {
        threadId: 's1',
        seq: 6,
        turnId: 't1',
        step: 1,
        role: 'assistant',
        type: 'text',
        data: { text: 'Switching to B.', id: '1-0' },
      },
    ]);
    const history = [
      { role: 'user', content: [{ type: 'text', text: 'Do A' }] },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Doing A.' },
          { type: 'tool-call', toolCallId: 'call-0-0', toolName: 'run', input: { ms: 1 } },
        ],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'call-0-0',
            toolName: 'run',
            output: { type: 'text', value: 'A is done' },
          },
        ],
      },
    ];
    // The step after the steer received it after the tool result, as a user message.
    expect(model.prompts[1]).toEqual([
      ...history,
      { role: 'user', content: [{ type: 'text', text: 'Actually, do B' }] },
    ]);
    const next = await session.modelMessages('Thanks');
    expect(next).toEqual([
      ...history,
      { role: 'user', content: 'Actually, do B' },
      { role: 'assistant', content: [{ type: 'text', text: 'Switching to B.' }] },
      { role: 'user', content: [{ type: 'text', text: 'Thanks' }] },
    ]);
    await session.send('Thanks').rows;
    expect(model.prompts[2]).toEqual([
      ...history,
      { role: 'user', content: [{ type: 'text', text: 'Actually, do B' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Switching to B.' }] },
      { role: 'user', content: [{ type: 'text', text: 'Thanks' }] },
    ]);
  });

  it('with no turn running, sends the message as a new turn', async () => {
    const { store, dispose } = await openSqliteStore();
    disposers.push(dispose);
    const model = createScriptedModel(parseScript('text Hello.'));
    const session = createAgentSession({
      store,
      threadId: 's2',
      model,
      idGenerator: sequentialIds(),
    });
    const steer = session.steer('Hi');
    const outcome = await steer.outcome;
    expect(outcome.type).toBe('sent');
    if (outcome.type !== 'sent') return;
    const rows = await outcome.turn.rows;
    expect(rows.map((r) => [r.role, r.type, r.data])).toEqual([
      ['user', 'text', { text: 'Hi' }],
      ['assistant', 'text', { text: 'Hello.', id: '0-0' }],
    ]);
  });

  it('too late for the running turn, becomes the next turn, ahead of turns already queued', async () => {
    const { store, dispose } = await openSqliteStore();
    disposers.push(dispose);
    const model = createScriptedModel(parseScript('text A\n---\ntext S\n---\ntext B'));
    const session = createAgentSession({
      store,
      threadId: 's5',
      model,
      idGenerator: sequentialIds(),
    });
    const outcomes: Array<Promise<unknown>> = [];
    session.subscribe((event, meta) => {
      if (event.type === 'turn-end' && meta.turnId === 't1') {
        outcomes.push(session.steer('late correction').outcome);
      }
    });
    session.send('first');
    session.send('second');
    await session.idle();
    expect(await outcomes[0]).toMatchObject({ type: 'sent', id: 't3' });
    const rows = await store.getRows('s5');
    expect(rows.filter((r) => r.role === 'user').map((r) => [r.turnId, r.data])).toEqual([
      ['t1', { text: 'first' }],
      ['t4', { text: 'late correction' }],
      ['t2', { text: 'second' }],
    ]);
  });

  it('sent before the model is first called, joins the first step', async () => {
    const { store, dispose } = await openSqliteStore();
    disposers.push(dispose);
    const model = createScriptedModel(parseScript('text Both noted.'));
    const session = createAgentSession({
      store,
      threadId: 's3',
      model,
      idGenerator: sequentialIds(),
    });
    const turn = session.send('First');
    const steer = session.steer('And second');
    await turn.rows;
    expect(await steer.outcome).toEqual({ type: 'delivered', id: 't2', turnId: 't1', step: 0 });
    expect(model.prompts[0]).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'First' }] },
      { role: 'user', content: [{ type: 'text', text: 'And second' }] },
    ]);
  });

  it('with redact, reaches the model redacted, at the first step and at a later one', async () => {
    const { store, dispose } = await openSqliteStore();
    disposers.push(dispose);
    const slow = slowTool();
    const model = createScriptedModel(
      parseScript('tool run {"ms":1}\n---\ntext Noted.\n---\ntext Ok.'),
    );
    const session = createAgentSession({
      store,
      threadId: 's-redact',
      model,
      tools: { run: slow.tool },
      idGenerator: sequentialIds(),
      redact: redactSecrets,
    });
    const early = session.steer('first mail ada@example.com');
    const turn = session.send('Go');
    const first = session.steer('mail ada@example.com');
    await slow.started;
    const later = session.steer('or grace@example.org');
    slow.release('done');
    await turn.rows;
    expect((await early.outcome).type).toBe('sent');
    expect((await first.outcome).type).toBe('delivered');
    expect((await later.outcome).type).toBe('delivered');
    const sent = JSON.stringify(model.prompts);
    expect(sent).not.toContain('ada@example.com');
    expect(sent).not.toContain('grace@example.org');
    expect(sent).toContain('[redacted:email]');
    const stored = JSON.stringify(await store.getRows('s-redact'));
    expect(stored).not.toMatch(/ada@|grace@/);
  });

  it('of a cancelled turn is dropped, not sent', async () => {
    const { store, dispose } = await openSqliteStore();
    disposers.push(dispose);
    const slow = slowTool();
    const model = createScriptedModel(parseScript('tool run {"ms":1}\n---\ntext never'));
    const session = createAgentSession({
      store,
      threadId: 's4',
      model,
      tools: { run: slow.tool },
      idGenerator: sequentialIds(),
    });
    const turn = session.send('go');
    await slow.started;
    const steer = session.steer('also this');
    session.cancel();
    await turn.rows;
    expect(await steer.outcome).toEqual({ type: 'dropped', id: 't2', reason: 'aborted' });
    await session.idle();
    expect(model.calls).toHaveLength(1);
  });

  it('dropped by a cancel is recorded on the cancelled notice (event, stored row), never in the model input', async () => {
    const { store, dispose } = await openSqliteStore();
    disposers.push(dispose);
    const slow = slowTool();
    const model = createScriptedModel(
      parseScript('tool run {"ms":1}\n---\ntext never\n---\ntext Next.'),
    );
    const session = createAgentSession({
      store,
      threadId: 's-drop',
      model,
      tools: { run: slow.tool },
      idGenerator: sequentialIds(),
    });
    const recorded = recordEvents(session);
    const turn = session.send('go');
    await slow.started;
    const first = session.steer('use Paris, Texas');
    const second = session.steer('and be brief');
    session.cancel('Stopped by the user');
    await turn.rows;
    expect((await first.outcome).type).toBe('dropped');
    const dropped = [
      { id: first.id, text: 'use Paris, Texas' },
      { id: second.id, text: 'and be brief' },
    ];
    const cancelled = { type: 'system', kind: 'cancelled', text: 'Stopped by the user', dropped };
    expect(recorded.events.map((e) => e.event)).toContainEqual(cancelled);
    const rows = await store.getRows('s-drop');
    expect(rows.filter((r) => r.type === 'system').map((r) => r.data)).toEqual([
      { kind: 'cancelled', text: 'Stopped by the user', dropped },
    ]);
    expect(rows.some((r) => r.type === 'steering')).toBe(false);
    // The next turn's model input holds neither dropped text.
    await session.send('again').rows;
    expect(JSON.stringify(model.prompts[1])).not.toMatch(/Paris|brief/);
  });

  it('taken into a model call but cancelled before its event reached the turn: dropped, as the record says', async () => {
    const { store, dispose } = await openSqliteStore();
    disposers.push(dispose);
    const slow = slowTool();
    const scripted = createScriptedModel(parseScript('tool run {"ms":1}\n---\ntext never'));
    let cancel = () => {};
    // The second model call (the one the AI SDK adds the steering message to, reporting it
    // delivered) cancels the turn before its `steering-message` part is read.
    const model: typeof scripted = Object.assign(Object.create(scripted), {
      doStream: async (options: Parameters<typeof scripted.doStream>[0]) => {
        if (scripted.calls.length === 1) cancel();
        return await scripted.doStream(options);
      },
    });
    const session = createAgentSession({
      store,
      threadId: 's-taken',
      model,
      tools: { run: slow.tool },
      idGenerator: sequentialIds(),
    });
    cancel = () => session.cancel('late');
    const turn = session.send('go');
    await slow.started;
    const steer = session.steer('also this');
    slow.release('done');
    expect(await turn.result).toMatchObject({ outcome: 'cancelled' });
    expect(await steer.outcome).toEqual({ type: 'dropped', id: steer.id, reason: 'aborted' });
    const rows = await store.getRows('s-taken');
    expect(rows.find((r) => r.type === 'system')?.data).toEqual({
      kind: 'cancelled',
      text: 'late',
      dropped: [{ id: steer.id, text: 'also this' }],
    });
    expect(rows.some((r) => r.type === 'steering')).toBe(false);
  });

  it('sent before the model is first called and dropped by a cancel is recorded, redacted', async () => {
    const { store, dispose } = await openSqliteStore();
    disposers.push(dispose);
    const model = createScriptedModel(parseScript('text never'));
    const session = createAgentSession({
      store,
      threadId: 's-drop-early',
      model,
      idGenerator: sequentialIds(),
      redact: redactSecrets,
    });
    const turn = session.send('go');
    const steer = session.steer('mail ada@example.com');
    session.cancel();
    await turn.rows;
    expect(await steer.outcome).toMatchObject({ type: 'dropped' });
    const rows = await store.getRows('s-drop-early');
    const notice = rows.find((r) => r.type === 'system' && r.data.kind === 'cancelled');
    expect(notice?.data).toMatchObject({
      dropped: [{ id: steer.id, text: 'mail [redacted:email]' }],
    });
    expect(JSON.stringify(rows)).not.toContain('ada@example.com');
  });
});
