import { tool } from 'ai';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { createAgentSession } from '../../src/entries/session.js';
import { createScriptedModel, type ScriptedStep } from '../../src/testing/index.js';
import { readFile } from './fixtures.js';
import { createChunkStore } from './store.js';
import { gate, openSqliteStore, sequentialIds } from './support.js';

/** A tool whose calls each wait for the test to let them finish (or for the turn to abort). */
function controlledTool() {
  const started: Array<() => void> = [];
  const waiting: Array<Promise<void>> = [];
  const finish: Array<(result: string) => void> = [];
  const arm = () => {
    waiting.push(new Promise<void>((resolve) => started.push(() => resolve())));
  };
  arm();
  return {
    tool: tool({
      inputSchema: z.object({ cmd: z.string() }),
      execute: (_input, { abortSignal }) =>
        new Promise<string>((resolve, reject) => {
          finish.push(resolve);
          started.shift()?.();
          arm();
          abortSignal?.addEventListener('abort', () => reject(new Error('stopped')), {
            once: true,
          });
        }),
    }),
    /** Resolves when the next call starts. */
    nextStart: () => waiting.shift() as Promise<void>,
    finishLast: (result: string) => finish.at(-1)?.(result),
  };
}

describe('restart', () => {
  const disposers: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const dispose of disposers.splice(0)) await dispose();
  });

  it('a second session over the same SQLite file sends byte-identical model input', async () => {
    const { store, path, dispose } = await openSqliteStore();
    disposers.push(dispose);
    const next = gate();
    const steps: ScriptedStep[] = [
      // Turn 1: thinking and a tool.
      {
        parts: [
          { type: 'reasoning', text: 'Read it first.', signature: 'sig-1' },
          { type: 'tool-call', toolName: 'read_file', input: { path: 'a.ts' } },
        ],
      },
      { parts: [{ type: 'text', text: 'a.ts exports f.' }] },
      // Turn 2: cancelled while its tool runs.
      {
        parts: [
          { type: 'text', text: 'Running.' },
          { type: 'tool-call', toolName: 'run', input: { cmd: 'long' } },
        ],
      },
      // Turn 3: steered while its tool runs.
      { parts: [{ type: 'tool-call', toolName: 'run', input: { cmd: 'A' } }] },
      { parts: [{ type: 'text', text: 'Doing B.' }] },
      // Turn 4: overloaded mid-stream, continued on the backup.
      {
        parts: [
          { type: 'text', text: 'Let me' },
          { type: 'error', statusCode: 529 },
        ],
      },
      // Turn 5: a client error.
      { parts: [{ type: 'error', statusCode: 400, message: 'prompt too long' }] },
      // The next turn: waits, so that both sessions' prompts can be compared.
      {
        parts: [
          { type: 'wait', until: next.promise },
          { type: 'text', text: 'ok' },
        ],
      },
    ];
    const options = { provider: 'anthropic.messages', modelId: 'primary' };
    const primaryA = createScriptedModel(steps, options);
    const backupA = createScriptedModel(
      [
        {
          parts: [
            { type: 'reasoning', text: 'Backup thinking.', signature: 'sig-b', id: 'b-0' },
            { type: 'text', text: 'From the backup.', id: 'b-1' },
          ],
        },
      ],
      { provider: 'anthropic.messages', modelId: 'backup' },
    );
    const run = controlledTool();
    const tools = { read_file: readFile, run: run.tool };
    const a = createAgentSession({
      store,
      threadId: 'r1',
      model: primaryA,
      fallbackModels: [backupA],
      tools,
      system: 'You are terse.',
      maxRetries: 0,
      idGenerator: sequentialIds('a'),
    });

    await a.send('Read a.ts').rows;
    await a.notify({ kind: 'config-reload', text: 'Config reloaded' });
    const cancelled = a.send('Run it');
    await run.nextStart();
    a.cancel();
    await cancelled.rows;
    const steered = a.send('Run A');
    await run.nextStart();
    const steer = a.steer('No, B');
    run.finishLast('A done');
    await steered.rows;
    expect((await steer.outcome).type).toBe('delivered');
    await a.send('Overload').rows;
    await a.send('Break').rows;
    expect(primaryA.calls).toHaveLength(7);
    expect(backupA.calls).toHaveLength(1);

    // A new process: a new store over the same file, a new session, a new model.
    const storeB = await createChunkStore(path);
    disposers.unshift(() => storeB.close());
    const primaryB = createScriptedModel(
      [
        {
          parts: [
            { type: 'wait', until: next.promise },
            { type: 'text', text: 'ok' },
          ],
        },
      ],
      options,
    );
    const b = createAgentSession({
      store: storeB,
      threadId: 'r1',
      model: primaryB,
      fallbackModels: [
        createScriptedModel([{}], { provider: 'anthropic.messages', modelId: 'backup' }),
      ],
      tools,
      system: 'You are terse.',
      maxRetries: 0,
      idGenerator: sequentialIds('b'),
    });

    const inputA = await a.modelMessages('And now?');
    const inputB = await b.modelMessages('And now?');
    expect(JSON.stringify(inputB)).toBe(JSON.stringify(inputA));
    expect(inputA.map((m) => m.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'assistant', // turn 1
      'user',
      'assistant',
      'tool', // turn 2 (cancelled: its call answered with an error)
      'user',
      'assistant',
      'tool',
      'user',
      'assistant', // turn 3 (steered)
      'user',
      'assistant', // turn 4 (fallback)
      'user', // turn 5 (error only)
      'user', // the next message
    ]);

    const turnA = a.send('And now?');
    const turnB = b.send('And now?');
    await vi.waitFor(() => {
      expect(primaryA.calls).toHaveLength(8);
      expect(primaryB.calls).toHaveLength(1);
    });
    const [callA, callB] = [primaryA.calls[7], primaryB.calls[0]];
    expect(JSON.stringify(callB?.prompt)).toBe(JSON.stringify(callA?.prompt));
    expect(JSON.stringify(callB?.options)).toBe(JSON.stringify(callA?.options));
    next.open();
    await Promise.all([turnA.rows, turnB.rows]);
    await b.close();
  });
});
