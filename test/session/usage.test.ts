// The session stores each turn's step usage (tokens, model id, finish reason, duration by the
// session's clock) and the store totals it per thread.
import { afterEach, describe, expect, it } from 'vitest';
import { createAgentSession } from '../../src/entries/session.js';
import { ChunklogError } from '../../src/errors/index.js';
import { createScriptedModel } from '../../src/testing/index.js';
import { readFile } from './fixtures.js';
import { openSqliteStore, sequentialIds } from './support.js';

const disposers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const d of disposers.splice(0)) await d();
});

describe('usage stored per turn', () => {
  it('records every step of every turn, readable with the turn and totalled per thread', async () => {
    const { store, dispose } = await openSqliteStore();
    disposers.push(dispose);
    const model = createScriptedModel(
      [
        {
          parts: [{ type: 'tool-call', toolName: 'read_file', input: { path: 'a.ts' } }],
          usage: { input: 100, output: 10, cacheRead: 80 },
        },
        {
          parts: [{ type: 'text', text: 'It exports a.' }],
          usage: { input: 150, output: 20, reasoning: 5 },
          responseModelId: 'scripted-v2',
        },
        { parts: [{ type: 'text', text: 'Bye.' }], usage: { input: 200, output: 3 } },
      ],
      { modelId: 'scripted-v1' },
    );
    let clock = 1_000;
    const session = createAgentSession({
      store,
      threadId: 'usage',
      model,
      tools: { read_file: readFile },
      idGenerator: sequentialIds(),
      now: () => (clock += 7),
    });
    await session.send('What is in a.ts?').result;
    await session.send('Thanks').result;
    await session.idle();

    const t1 = await store.getTurnUsage('usage', 't1');
    expect(t1?.steps.map(({ durationMs: _d, ...s }) => s)).toEqual([
      {
        step: 0,
        modelId: 'scripted-v1',
        finishReason: 'tool-calls',
        usage: expect.objectContaining({ inputTokens: 100, outputTokens: 10, cacheReadTokens: 80 }),
      },
      {
        step: 1,
        modelId: 'scripted-v2',
        finishReason: 'stop',
        usage: expect.objectContaining({ inputTokens: 150, outputTokens: 20, reasoningTokens: 5 }),
      },
    ]);
    for (const step of t1?.steps ?? []) expect(step.durationMs).toBeGreaterThan(0);
    expect(t1?.total).toMatchObject({ inputTokens: 250, outputTokens: 30 });

    const thread = await store.getThreadUsage('usage', {
      price: (modelId, u) => (modelId === 'scripted-v2' ? 2 : 1) * (u.outputTokens ?? 0),
    });
    expect(thread).toMatchObject({
      turns: 2,
      steps: 3,
      total: { inputTokens: 450, outputTokens: 33, cacheReadTokens: 80, reasoningTokens: 5 },
      cost: 10 + 2 * 20 + 3,
    });
    await session.close();
  });

  it('stores a turn’s usage with its rows, in one write: a write that fails stores neither', async () => {
    const { store, dispose } = await openSqliteStore();
    disposers.push(dispose);
    const writes: string[] = [];
    let fail = true;
    const counting = {
      ...store,
      appendTurn: async (...args: Parameters<typeof store.appendTurn>) => {
        writes.push(`appendTurn usage=${args[2]?.usage?.length ?? 0}`);
        if (fail) {
          fail = false;
          throw new ChunklogError('store-failed', 'disk full');
        }
        return store.appendTurn(...args);
      },
      recordUsage: () => {
        throw new Error('recordUsage is not called: usage goes with the turn');
      },
    };
    const session = createAgentSession({
      store: counting,
      threadId: 'plain',
      model: createScriptedModel([{ parts: [{ type: 'text', text: 'Hi' }] }], { repeat: true }),
    });
    await expect(session.send('Hello').rows).rejects.toMatchObject({ code: 'store-failed' });
    expect((await store.getThreadUsage('plain').catch(() => ({ steps: 0 }))).steps).toBe(0);
    const result = await session.send('Again').result;
    expect(result.outcome).toBe('completed');
    await session.close();
    expect(writes).toEqual(['appendTurn usage=1', 'appendTurn usage=1']);
    expect((await store.getThreadUsage('plain')).steps).toBe(1);
  });
});
