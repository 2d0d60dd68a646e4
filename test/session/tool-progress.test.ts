// Tools stream progress text into their call while they run: `toolProgress(options)` from inside
// `execute`, or `session.reportToolProgress(toolCallId, text)`. The text goes through the turn's
// one event path (reducer, handle, replay, subscribers), is stored as the `progress` of the call's
// tool_result row, and never reaches the model.
import { streamText, tool } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  type AgentSession,
  createAgentSession,
  type ToolProgress,
  toolProgress,
} from '../../src/entries/session.js';
import { ChunklogError } from '../../src/errors/index.js';
import type { ChunkEvent } from '../../src/schema/chunk-event.js';
import { LiveTurn } from '../../src/session/live-turn.js';
import { TurnHandleImpl } from '../../src/session/turn-handle.js';
import { createScriptedModel, parseScript } from '../../src/testing/index.js';
import { thrown } from '../support/chunklog-error.js';
import { gate, openSqliteStore, recordEvents, sequentialIds } from './support.js';

const script = () =>
  createScriptedModel(
    parseScript(`
      tool build {"target":"app"}
      tool lint {"dir":"src"}
      ---
      text Built and linted.
    `),
  );

describe('tool progress', () => {
  const disposers: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const dispose of disposers.splice(0)) await dispose();
  });

  it('streams from two tools in parallel, through the one event path, into the stored rows, and not to the model', async () => {
    const { store, dispose } = await openSqliteStore();
    disposers.push(dispose);
    const compiled = gate();
    const linted = gate();
    let session!: AgentSession;
    // One tool reports through `toolProgress(options)`, the other through the session, while it
    // also yields a preliminary result (a generator tool).
    const build = tool({
      description: 'Build',
      inputSchema: z.object({ target: z.string() }),
      execute: async ({ target }, options) => {
        const progress = toolProgress(options);
        expect(progress(`compiling ${target}\n`)).toBe(true);
        await compiled.promise;
        expect(progress('linking\n')).toBe(true);
        return { ok: true };
      },
    });
    const lint = tool({
      description: 'Lint',
      inputSchema: z.object({ dir: z.string() }),
      async *execute({ dir }, { toolCallId }) {
        session.reportToolProgress(toolCallId, `${dir}/a.ts ok\n`);
        compiled.open(); // both tools run at once: the build goes on while lint works
        yield { checked: 1 };
        await linted.promise;
        session.reportToolProgress(toolCallId, `${dir}/b.ts ok\n`);
        yield { checked: 2, problems: 0 };
      },
    });
    const model = script();
    session = createAgentSession({
      store,
      threadId: 'p1',
      model,
      tools: { build, lint },
      idGenerator: sequentialIds(),
    });
    const recorded = recordEvents(session);
    const turn = session.send('build and lint');
    const iterated: ChunkEvent[] = [];
    const iterating = (async () => {
      for await (const event of turn) {
        iterated.push(event);
        if (event.type === 'tool-progress' && event.text === 'linking\n') linted.open();
      }
    })();
    const rows = await turn.rows;
    await iterating;

    const events = recorded.ofTurn('t1');
    expect(iterated).toEqual(events);
    const ofCall = (id: string) =>
      events
        .filter((e) => 'toolCallId' in e && e.toolCallId === id && e.type !== 'tool-input-delta')
        .map((e) =>
          e.type === 'tool-progress' ? `progress ${e.text ?? JSON.stringify(e.output)}` : e.type,
        );
    expect(ofCall('call-0-0')).toEqual([
      'tool-input-start',
      'tool-call',
      'progress compiling app\n',
      'progress linking\n',
      'tool-result',
    ]);
    // Text and preliminary results each in their order (a generator's results travel through
    // the AI SDK's stream, text is sent when it is reported: the two may cross).
    const linting = ofCall('call-0-1');
    expect(linting.slice(0, 2)).toEqual(['tool-input-start', 'tool-call']);
    expect(linting.at(-1)).toBe('tool-result');
    expect(linting.filter((e) => e.startsWith('progress src'))).toEqual([
      'progress src/a.ts ok\n',
      'progress src/b.ts ok\n',
    ]);
    expect(linting.filter((e) => e.startsWith('progress {'))).toEqual([
      'progress {"checked":1}',
      'progress {"checked":2,"problems":0}',
    ]);
    expect(linting).toHaveLength(7);
    // The two ran at once: the build's progress came between the lint's.
    const order = events
      .filter((e) => e.type === 'tool-progress' && e.text !== undefined)
      .map((e) => (e as { text: string }).text);
    expect(order.indexOf('linking\n')).toBeLessThan(order.indexOf('src/b.ts ok\n'));
    expect(order.indexOf('src/a.ts ok\n')).toBeLessThan(order.indexOf('linking\n'));
    // The replay buffer (what a reconnecting SSE client gets) holds the same events.
    expect(session.replay('t1:0').events.map((e) => e.event)).toEqual(events.slice(1));

    // Stored on the calls' tool_result rows.
    const results = rows.filter((r) => r.type === 'tool_result').map((r) => r.data);
    expect(results).toEqual([
      {
        callId: 'call-0-0',
        name: 'build',
        result: { ok: true },
        progress: 'compiling app\nlinking\n',
      },
      {
        callId: 'call-0-1',
        name: 'lint',
        result: { checked: 2, problems: 0 },
        progress: 'src/a.ts ok\nsrc/b.ts ok\n',
        preliminary: { checked: 2, problems: 0 },
      },
    ]);
    // Never sent to the model: not in the next step's prompt, not in the next turn's input.
    expect(JSON.stringify(model.prompts[1])).not.toMatch(/compiling|a\.ts ok/);
    expect(model.prompts[1]?.at(-1)).toEqual({
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: 'call-0-0',
          toolName: 'build',
          output: { type: 'json', value: { ok: true } },
        },
        {
          type: 'tool-result',
          toolCallId: 'call-0-1',
          toolName: 'lint',
          output: { type: 'json', value: { checked: 2, problems: 0 } },
        },
      ],
    });
    expect(JSON.stringify(await session.modelMessages())).not.toMatch(/compiling|a\.ts ok/);
    await session.close();
  });

  it('is refused with a typed error when the call does not run in the live turn, and changes nothing', async () => {
    const { store, dispose } = await openSqliteStore();
    disposers.push(dispose);
    const running = gate();
    const release = gate();
    let late: ToolProgress | undefined;
    const build = tool({
      description: 'Build',
      inputSchema: z.object({ target: z.string() }),
      execute: async (_input, options) => {
        late = toolProgress(options);
        running.open();
        await release.promise;
        return 'built';
      },
    });
    const lint = tool({
      description: 'Lint',
      inputSchema: z.object({ dir: z.string() }),
      execute: async () => 'clean',
    });
    const session = createAgentSession({
      store,
      threadId: 'p2',
      model: script(),
      tools: { build, lint },
      idGenerator: sequentialIds(),
    });
    // No turn runs.
    expect(thrown(() => session.reportToolProgress('call-0-0', 'x')).code).toBe(
      'tool-call-not-running',
    );
    const recorded = recordEvents(session);
    const turn = session.send('go');
    await running.promise;
    // Wait until lint has its result: a call that ran and finished.
    await new Promise<void>((resolve) => {
      const stop = session.subscribe((event) => {
        if (event.type === 'tool-result' && event.toolCallId === 'call-0-1') {
          stop();
          resolve();
        }
      });
    });
    const before = recorded.events.length;
    for (const id of ['call-0-1', 'nope', 'call-9-9']) {
      const error = thrown(() => session.reportToolProgress(id, 'x\n'));
      expect([error.code, error.option, error.value, error.threadId]).toEqual([
        'tool-call-not-running',
        'toolCallId',
        id,
        'p2',
      ]);
    }
    for (const [id, text, option] of [
      ['', 'x', 'toolCallId'],
      [5, 'x', 'toolCallId'],
      ['call-0-0', '', 'text'],
      ['call-0-0', { text: 'x' }, 'text'],
    ] as const) {
      const error = thrown(() => session.reportToolProgress(id as never, text as never));
      expect([error.code, error.option]).toEqual(['invalid-option', option]);
    }
    expect(() => late?.(7 as never)).toThrow(ChunklogError);
    expect(recorded.events.length).toBe(before);
    // The running call takes it.
    session.reportToolProgress('call-0-0', 'still building\n');
    release.open();
    const rows = await turn.rows;
    expect(rows.find((r) => r.type === 'tool_result')?.data).toMatchObject({
      callId: 'call-0-0',
      progress: 'still building\n',
    });
    // After the turn: the session refuses, the tool's own reporter drops the text.
    expect(thrown(() => session.reportToolProgress('call-0-0', 'x')).code).toBe(
      'tool-call-not-running',
    );
    const count = recorded.events.length;
    expect(late?.('too late\n')).toBe(false);
    expect(recorded.events.length).toBe(count);
    await session.close();
  });

  it('does nothing outside a session, so the same tool runs under plain streamText', async () => {
    const reported: boolean[] = [];
    const echo = tool({
      description: 'Echo',
      inputSchema: z.object({ target: z.string() }),
      execute: async ({ target }, options) => {
        reported.push(toolProgress(options)('working\n'));
        expect(() => toolProgress(options)('')).toThrow(ChunklogError);
        return target;
      },
    });
    const result = streamText({
      model: createScriptedModel(parseScript('tool echo {"target":"x"}\n---\ntext done')),
      prompt: 'p',
      tools: { echo },
      stopWhen: () => false,
      onError: () => {},
    });
    expect(await result.text).toBe('done');
    expect(reported).toEqual([false]);
    expect(toolProgress({ toolCallId: 'copy' })('x')).toBe(false);
  });

  it('holds progress reported before the call’s tool-call event went out, and sends it right after', () => {
    const handle = new TurnHandleImpl('t1', 'go', undefined, () => {});
    const sent: ChunkEvent[] = [];
    const live = new LiveTurn(handle, (event) => sent.push(event));
    live.emit({ type: 'turn-start', turnId: 't1' });
    live.emit({ type: 'step-start', step: 0 });
    expect(live.reportProgress('c1', 'early\n')).toBe(false); // not started: not running
    live.toolStarted('c1');
    expect(live.reportProgress('c1', 'early\n')).toBe(true);
    expect(sent.map((e) => e.type)).toEqual(['turn-start', 'step-start']);
    live.toolEnded('c1'); // a quick tool: ended before its call was even seen
    live.emit({ type: 'tool-call', toolCallId: 'c1', toolName: 'run', input: {} });
    live.emit({ type: 'tool-result', toolCallId: 'c1', output: 'ok' });
    expect(sent.slice(2)).toEqual([
      { type: 'tool-call', toolCallId: 'c1', toolName: 'run', input: {} },
      { type: 'tool-progress', toolCallId: 'c1', text: 'early\n' },
      { type: 'tool-result', toolCallId: 'c1', output: 'ok' },
    ]);
    expect(live.state.chunks).toEqual([
      {
        type: 'tool-batch',
        step: 0,
        calls: [{ id: 'c1', name: 'run', input: {}, result: 'ok', progress: 'early\n' }],
      },
    ]);
    expect(live.reportProgress('c1', 'late\n')).toBe(false);
  });
});
