import { tool } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgentSession } from '../../src/entries/session.js';
import { createScriptedModel, type ScriptedStep } from '../../src/testing/index.js';
import { explodeTurn } from '../../src/transforms/explode-turn.js';
import { openSqliteStore, sequentialIds } from './support.js';

/** Each turn: reasoning with a signature and a tool call, then an answer. */
const STEPS: ScriptedStep[] = [
  {
    parts: [
      { type: 'reasoning', text: 'Look first.', signature: 'sig' },
      { type: 'tool-call', toolName: 'read', input: { path: 'a.ts' } },
    ],
  },
  { parts: [{ type: 'text', text: 'It exports f.' }] },
];

const tools = {
  read: tool({ inputSchema: z.object({ path: z.string() }), execute: async () => 'export f' }),
};

type Store = Awaited<ReturnType<typeof openSqliteStore>>['store'];

/** The store, recording which reads the session makes. */
function counting(store: Store): { store: Store; reads: string[] } {
  const reads: string[] = [];
  const view = new Proxy(store, {
    get(target, key) {
      const value = Reflect.get(target, key, target);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        if (key === 'getRows' || key === 'getMessages' || key === 'getHistory') {
          reads.push(String(key));
        }
        if (key === 'getChunksAfter') {
          reads.push(`after ${(args[1] as { afterSeq: number }).afterSeq}`);
        }
        return value.apply(target, args);
      };
    },
  });
  return { store: view, reads };
}

describe('the history a session keeps between turns', () => {
  const disposers: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const dispose of disposers.splice(0)) await dispose();
  });

  async function setup() {
    const opened = await openSqliteStore();
    disposers.push(opened.dispose);
    const { store, reads } = counting(opened.store);
    const model = createScriptedModel(STEPS, { repeat: true });
    const session = createAgentSession({
      store,
      threadId: 'kept',
      model,
      tools,
      idGenerator: sequentialIds('w'),
    });
    disposers.push(() => session.close());
    /** The model input a session started now on the same thread would send. */
    const fresh = async (text: string) => {
      const other = createAgentSession({ store: opened.store, threadId: 'kept', model, tools });
      try {
        return JSON.stringify(await other.modelMessages({ text, turnId: 'n' }));
      } finally {
        await other.close();
      }
    };
    const warm = async (text: string) =>
      JSON.stringify(await session.modelMessages({ text, turnId: 'n' }));
    return { store: opened.store, reads, model, session, fresh, warm };
  }

  it('sends what a fresh session sends, reading only the rows each turn added', async () => {
    const { store: rawStore, reads, model, session, fresh, warm } = await setup();
    for (let t = 1; t <= 4; t++) {
      await session.send(`question ${t}`).rows;
      expect(await warm('next')).toBe(await fresh('next'));
    }
    // The first turn found no thread with its first forward read (nothing to read whole); later
    // ones read only what followed the last row read.
    expect(reads[0]).toBe('after 0');
    expect(reads.filter((r) => !r.startsWith('after '))).toEqual([]);
    expect(reads.filter((r) => r.startsWith('after ')).length).toBeGreaterThan(3);
    // The next turn's prompts equal those of a fresh session running it on a copy of the thread.
    await rawStore.forkThread('kept', { atSeq: 1_000, newThreadId: 'copy' });
    const before = model.calls.length;
    await session.send('question 5').rows;
    const warmPrompts = model.calls.slice(before).map((c) => JSON.stringify(c.prompt));
    const freshModel = createScriptedModel(STEPS, { repeat: true });
    const restarted = createAgentSession({
      store: rawStore,
      threadId: 'copy',
      model: freshModel,
      tools,
    });
    disposers.push(() => restarted.close());
    await restarted.send('question 5').rows;
    // The first step's prompt is the rebuilt history (the second adds the new call, whose id
    // counts the model's calls).
    expect(warmPrompts).toHaveLength(2);
    expect(JSON.stringify(freshModel.calls[0]?.prompt)).toBe(warmPrompts[0]);
    expect(warmPrompts[0]).toContain('question 4');
  });

  it('notices another writer, a truncate and a fork under its thread id', async () => {
    const { store, reads, session, fresh, warm } = await setup();
    await session.send('one').rows;
    await session.send('two').rows;
    // Another writer appends a turn between two of the session's turns.
    await store.appendTurn(
      'kept',
      explodeTurn('other', [{ type: 'text', step: 0, text: 'from elsewhere' }], { role: 'user' }),
    );
    expect(await warm('next')).toBe(await fresh('next'));
    expect(await warm('next')).toContain('from elsewhere');
    await session.send('three').rows;
    expect(await warm('next')).toBe(await fresh('next'));
    // A truncate back into the first turn.
    const rows = await store.getRows('kept');
    const firstAnswer = rows.find((r) => r.turnId === rows[0]?.turnId && r.type === 'tool_result');
    await store.truncateAfter('kept', firstAnswer?.seq ?? 1);
    reads.length = 0;
    expect(await warm('next')).toBe(await fresh('next'));
    expect(reads).toContain('getHistory');
    await session.send('four').rows;
    expect(await warm('next')).toBe(await fresh('next'));
    // The thread deleted and forked again from another one under the same id.
    await store.appendTurn(
      'source',
      explodeTurn('s1', [{ type: 'text', step: 0, text: 'forked history' }], { role: 'user' }),
    );
    await store.deleteThread('kept');
    await store.forkThread('source', { atSeq: 10, newThreadId: 'kept' });
    expect(await warm('next')).toBe(await fresh('next'));
    expect(await warm('next')).toContain('forked history');
    expect(await warm('next')).not.toContain('four');
    await session.send('five').rows;
    expect(await warm('next')).toBe(await fresh('next'));
    // A deleted thread is an empty history.
    await store.deleteThread('kept');
    expect(await warm('next')).toBe(await fresh('next'));
  });

  it('gives each warm input exactly as a fresh session would, with cache breakpoints, whatever changed', async () => {
    const opened = await openSqliteStore();
    disposers.push(opened.dispose);
    const { store } = opened;
    const model = createScriptedModel(STEPS, { repeat: true });
    const options = { store, threadId: 'kept', model, tools, caching: 'anthropic' } as const;
    const session = createAgentSession({ ...options, idGenerator: sequentialIds('w') });
    disposers.push(() => session.close());
    const other = createAgentSession({ ...options, idGenerator: sequentialIds('o') });
    disposers.push(() => other.close());
    /** The warm input of `session` and a fresh session's, for a next message and for none. */
    const same = async (what: string) => {
      for (const input of [
        { text: 'next', turnId: 'n' },
        { text: 'other', turnId: 'm' },
        undefined,
      ]) {
        const fresh = createAgentSession(options);
        try {
          const warm = JSON.stringify(await session.modelMessages(input));
          expect(warm, what).toBe(JSON.stringify(await fresh.modelMessages(input)));
          // Asked again with nothing changed (the history's input kept): the same again.
          expect(JSON.stringify(await session.modelMessages(input)), what).toBe(warm);
        } finally {
          await fresh.close();
        }
      }
    };
    await same('an empty thread');
    const first = (await session.send('one').rows)[0]?.turnId as string;
    const second = (await session.send('two').rows)[0]?.turnId as string;
    await same('two turns');
    await other.send('from another writer').rows;
    await same('a turn by another session');
    await session.edit(second, 'two, edited').rows;
    await same('an edit by this session');
    await other.regenerate(first).rows;
    await same('a regenerate by another session');
    await store.switchAlternative('kept', 'kept');
    await same('a switch made elsewhere');
    await session.send('three').rows;
    await same('a turn on the switched path');
    const rows = await store.getRows(await store.activePath('kept'));
    // Into the last turn (its alternatives' forks read the rows before it by reference).
    const cut = rows.findLast((r) => r.type === 'tool_result');
    await store.truncateAfter(await store.activePath('kept'), cut?.seq ?? 1);
    await same('a truncate into the last turn');
    await session.send('four').rows;
    await same('a turn after the truncate');
  });
});
