// Step durability: with `durability: 'step'` the user's message is stored when the turn starts
// and each step's rows when the step ends; the stored turn equals the one `'turn'` stores.
import { afterEach, describe, expect, it } from 'vitest';
import { createAgentSession } from '../../src/entries/session.js';
import { createScriptedModel } from '../../src/testing/index.js';
import { listFiles, readFile, slowTool } from './fixtures.js';
import { openSqliteStore, plainRows, sequentialIds } from './support.js';

function script() {
  return createScriptedModel([
    {
      parts: [
        { type: 'reasoning', text: 'Two files to read.', signature: 'sig-A' },
        { type: 'text', text: 'Let me look.' },
        { type: 'tool-call', toolName: 'read_file', input: { path: 'a.ts' } },
        { type: 'tool-call', toolName: 'list_files', input: { dir: '.' } },
      ],
    },
    { parts: [{ type: 'tool-call', toolName: 'slow', input: { ms: 1 } }] },
    { parts: [{ type: 'text', text: 'Both export one function.' }] },
    { parts: [{ type: 'text', text: 'Yes.' }] },
  ]);
}

const disposers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const dispose of disposers.splice(0)) await dispose();
});

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe("durability: 'step'", () => {
  it('stores the user message at the start and each step as it ends; the turn equals a sealed one', async () => {
    const opened = await openSqliteStore();
    disposers.push(opened.dispose);
    const { store } = opened;
    const slow = slowTool();
    const session = createAgentSession({
      store,
      threadId: 'step',
      model: script(),
      tools: { read_file: readFile, list_files: listFiles, slow: slow.tool },
      idGenerator: sequentialIds(),
      durability: 'step',
    });
    const turn = session.send('What do a.ts and b.ts export?');
    await slow.started;
    // Step 0 ended (its tool results in), step 1 waits in its tool: user message + step 0 stored.
    const during = await until(
      () => store.getRows('step'),
      (rows) => rows.some((r) => r.role === 'tool'),
    );
    expect(during[0]).toMatchObject({ seq: 1, role: 'user', step: 0 });
    expect(during.every((r) => r.step === 0 && r.turnId === 't1')).toBe(true);
    expect(during.map((r) => r.seq)).toEqual(during.map((_, i) => i + 1));
    expect(await store.getTurnInfo('step', 't1')).toMatchObject({ status: 'running' });
    expect((await store.getChunks('step')).turnStatus).toEqual({ t1: 'running' });
    const messages = await store.getMessages('step');
    expect(messages.every((m) => m.status === 'running')).toBe(true);
    slow.release('done');
    const rows = await turn.rows;
    expect((await turn.result).outcome).toBe('completed');
    expect(await store.getTurnInfo('step', 't1')).toMatchObject({ status: 'completed' });
    const stored = await store.getRows('step');
    expect(plainRows(rows)).toEqual(plainRows(stored));
    expect(stored.map((r) => r.seq)).toEqual(stored.map((_, i) => i + 1));

    // The same turn with `'turn'` durability stores the same rows.
    const other = await openSqliteStore();
    disposers.push(other.dispose);
    const slow2 = slowTool();
    const sealed = createAgentSession({
      store: other.store,
      threadId: 'step',
      model: script(),
      tools: { read_file: readFile, list_files: listFiles, slow: slow2.tool },
      idGenerator: sequentialIds(),
    });
    const turn2 = sealed.send('What do a.ts and b.ts export?');
    await slow2.started;
    expect(await other.store.hasTurn('step', 't1')).toBe(false);
    slow2.release('done');
    await turn2.rows;
    expect(plainRows(await other.store.getRows('step'))).toEqual(plainRows(stored));
    // And the next turn's model input is the same.
    expect(await session.modelMessages('next')).toEqual(await sealed.modelMessages('next'));
    await session.close();
    await sealed.close();
  });

  it("is not the default, also where the session holds the lease; 'step' when told", async () => {
    // Each case: its options, and whether the user's message is stored while the turn runs. A
    // job queue that retries a dead attempt's turn id runs it again only if the dead attempt
    // stored nothing (notes/0127).
    const cases = [
      [{ lease: true }, false],
      [{ lease: true, durability: 'step' }, true],
      [{}, false],
      [{ durability: 'step' }, true],
    ] as const;
    const seen: Array<[string, boolean]> = [];
    for (const [options, _] of cases) {
      const opened = await openSqliteStore();
      disposers.push(opened.dispose);
      const slow = slowTool();
      const session = createAgentSession({
        store: opened.store,
        threadId: 'default',
        model: script(),
        tools: { read_file: readFile, list_files: listFiles, slow: slow.tool },
        idGenerator: sequentialIds(),
        ...options,
      });
      const turn = session.send('What do a.ts and b.ts export?');
      await slow.started;
      seen.push([JSON.stringify(options), await opened.store.hasTurn('default', 't1')]);
      slow.release('done');
      expect((await turn.result).outcome).toBe('completed');
      await session.close();
    }
    expect(seen).toEqual(cases.map(([options, stored]) => [JSON.stringify(options), stored]));
  });

  it('stores a cancelled turn, its rows so far and its cancelled chunk, with its status', async () => {
    const opened = await openSqliteStore();
    disposers.push(opened.dispose);
    const { store } = opened;
    const slow = slowTool();
    const session = createAgentSession({
      store,
      threadId: 'cancel',
      model: script(),
      tools: { read_file: readFile, list_files: listFiles, slow: slow.tool },
      idGenerator: sequentialIds(),
      durability: 'step',
    });
    const turn = session.send('Go');
    await slow.started;
    session.cancel('Stop');
    expect((await turn.result).outcome).toBe('cancelled');
    expect(await store.getTurnInfo('cancel', 't1')).toMatchObject({ status: 'cancelled' });
    const rows = await store.getRows('cancel');
    expect(rows.at(-1)).toMatchObject({ type: 'system' });
    expect(rows.map((r) => r.seq)).toEqual(rows.map((_, i) => i + 1));
    await session.close();
  });

  it('a turn whose final write failed is closed by the next turn’s admission, not left running', async () => {
    const opened = await openSqliteStore();
    disposers.push(opened.dispose);
    const { store } = opened;
    let failFinal = true;
    const faulty = Object.assign(Object.create(store) as typeof store, {
      appendSteps: (...args: Parameters<typeof store.appendSteps>) => {
        if (failFinal && args[3]?.status !== undefined) {
          failFinal = false;
          return Promise.reject(new Error('the database went away'));
        }
        return store.appendSteps(...args);
      },
    });
    const errors: unknown[] = [];
    const session = createAgentSession({
      store: faulty,
      threadId: 'final',
      model: createScriptedModel([
        { parts: [{ type: 'text', text: 'One.' }] },
        { parts: [{ type: 'text', text: 'Two.' }] },
      ]),
      idGenerator: sequentialIds(),
      durability: 'step',
      lease: { ttlMs: 60_000 },
      onError: (error) => errors.push(error),
    });
    await expect(session.send('first').result).rejects.toThrow('the database went away');
    expect(errors).toHaveLength(1);
    expect(await store.getTurnInfo('final', 't1')).toMatchObject({ status: 'running' });
    expect((await session.send('second').result).outcome).toBe('completed');
    expect(await store.getTurnInfo('final', 't1')).toMatchObject({ status: 'interrupted' });
    expect(await store.getTurnInfo('final', 't2')).toMatchObject({ status: 'completed' });
    await session.close();
  });

  it("refuses a store that cannot write steps, and a durability that is not 'turn' or 'step'", async () => {
    const { store, dispose } = await openSqliteStore();
    try {
      expect(() =>
        createAgentSession({
          store: { appendTurn: async () => [] } as never,
          threadId: 't',
          model: script(),
          durability: 'step',
        }),
      ).toThrow(/beginTurn/);
      expect(() =>
        createAgentSession({ store, threadId: 't', model: script(), durability: 'steps' as never }),
      ).toThrow(/durability/);
    } finally {
      await dispose();
    }
  });
});
