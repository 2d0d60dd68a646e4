// createAgentSession refuses at creation what would only fail later (an unknown option, a thread
// id the store cannot key), modelMessages() after close() is `closed` as docs/errors.md says, and
// a corrupt stored row does not make every later turn fail when the policy is to skip it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { type AgentSessionOptions, createAgentSession } from '../../src/entries/session.js';
import { SESSION_OPTIONS } from '../../src/session/options.js';
import { createChunkStore } from '../../src/store/index.js';
import { createScriptedModel, parseScript } from '../../src/testing/index.js';
import { rejected, thrown } from '../support/chunklog-error.js';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function memoryStore(options: { onCorruptRow?: 'throw' | 'skip' } = {}) {
  const store = createChunkStore({ sqlite: ':memory:' }, options);
  await store.migrate();
  closers.push(() => store.close());
  return store;
}

const unused = () => createScriptedModel([{}]);

describe('createAgentSession checks everything at creation', () => {
  it('refuses an unknown option, naming it', async () => {
    const store = await memoryStore();
    const error = thrown(() =>
      createAgentSession({ store, threadId: 't', model: unused(), maxStep: 3 } as never),
    );
    expect(error).toMatchObject({ code: 'invalid-option', option: 'maxStep', value: 3 });
    expect(error.message).toMatch(/unknown option `maxStep`/);
  });

  it('refuses send(text, { turnId }), pointing to send({ text, turnId })', async () => {
    const store = await memoryStore();
    const session = createAgentSession({ store, threadId: 't', model: unused() });
    const error = thrown(() => session.send('hi', { turnId: 'x' } as never));
    expect(error).toMatchObject({ code: 'invalid-option', option: 'turnId', value: 'x' });
    expect(error.message).toContain('send({ text, turnId })');
    await session.close();
  });

  it('lists every option of AgentSessionOptions as known (a new option must be added there)', () => {
    // A compile error here when AgentSessionOptions gains or loses an option.
    const every: Record<keyof AgentSessionOptions, true> = {
      store: true,
      threadId: true,
      model: true,
      tools: true,
      system: true,
      fallbackModels: true,
      caching: true,
      maxSteps: true,
      stopWhen: true,
      maxRetries: true,
      maxOutputTokens: true,
      temperature: true,
      providerOptions: true,
      idGenerator: true,
      now: true,
      replayLimit: true,
      onError: true,
      onCorruptRow: true,
      contextBudget: true,
      compaction: true,
      relay: true,
      durability: true,
      lease: true,
      onExistingTurn: true,
      recovery: true,
      redact: true,
    };
    expect([...SESSION_OPTIONS].sort()).toEqual(Object.keys(every).sort());
  });

  it('refuses a thread id the store could not key (over 255 UTF-8 bytes, NUL) or a URL could not carry (. and ..), as the store does', async () => {
    const store = await memoryStore();
    for (const threadId of ['x'.repeat(256), 'é'.repeat(128), 'a\u0000b', 5, '.', '..']) {
      const error = thrown(() =>
        createAgentSession({ store, threadId, model: unused() } as AgentSessionOptions),
      );
      expect(error).toMatchObject({ code: 'invalid-option', option: 'threadId' });
    }
    for (const threadId of ['.', '..']) {
      await expect(store.createThread(threadId)).rejects.toMatchObject({
        code: 'invalid-option',
        option: 'threadId',
      });
    }
    // Dots inside an id are kept: only a whole `.` or `..` is no path segment.
    await store.createThread('../a..b.');
    // 255 bytes is the limit, not beyond it.
    const longest = createAgentSession({ store, threadId: 'x'.repeat(255), model: unused() });
    await longest.close();
  });

  it('refuses an onCorruptRow that is not a policy', async () => {
    const store = await memoryStore();
    const error = thrown(() =>
      createAgentSession({
        store,
        threadId: 't',
        model: unused(),
        onCorruptRow: 'ignore' as never,
      }),
    );
    expect(error.option).toBe('onCorruptRow');
  });

  it('answers modelMessages() after close() with closed, as send() does', async () => {
    const store = await memoryStore();
    const session = createAgentSession({
      store,
      threadId: 'c',
      model: createScriptedModel(parseScript('text hi')),
    });
    await session.send('hello').rows;
    expect(await session.modelMessages()).toHaveLength(2);
    await session.close();
    expect((await rejected(session.modelMessages())).code).toBe('closed');
    expect(() => session.send('again')).toThrow(expect.objectContaining({ code: 'closed' }));
  });
});

describe('a corrupt stored row and the session', () => {
  /** A store over a file with one stored turn whose first row's created_at is not a time. */
  async function corrupted(options: { onCorruptRow?: 'throw' | 'skip' } = {}) {
    const dir = mkdtempSync(join(tmpdir(), 'chunklog-corrupt-'));
    const file = join(dir, 'store.db');
    const store = createChunkStore({ sqlite: file }, options);
    await store.migrate();
    closers.push(async () => {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    });
    const first = createAgentSession({
      store,
      threadId: 'k',
      model: createScriptedModel(parseScript('text one')),
    });
    await first.send('first').rows;
    await first.close();
    const raw = new Database(file);
    raw.prepare('update chunklog_chunks set created_at = ? where seq = 1').run(9e15);
    raw.close();
    return store;
  }

  it('with the store skipping corrupt rows, later turns run on the rest of the history', async () => {
    const store = await corrupted({ onCorruptRow: 'skip' });
    const model = createScriptedModel(parseScript('text two'));
    const session = createAgentSession({ store, threadId: 'k', model });
    const result = await session.send('second').result;
    expect(result.outcome).toBe('completed');
    // The corrupt user row is left out; the answer after it is still there.
    expect(model.prompts[0]?.map((m) => m.role)).toEqual(['assistant', 'user']);
    await session.close();
  });

  it('with the session skipping them over a strict store, too; without, the turn fails', async () => {
    const store = await corrupted();
    const lenient = createAgentSession({
      store,
      threadId: 'k',
      model: createScriptedModel(parseScript('text two')),
      onCorruptRow: 'skip',
    });
    expect((await lenient.send('second').result).outcome).toBe('completed');
    await lenient.close();
    const strict = createAgentSession({
      store,
      threadId: 'k',
      model: createScriptedModel(parseScript('text three')),
    });
    const failed = await strict.send('third').result;
    expect(failed.outcome).toBe('failed');
    await strict.close();
    const rows = await store.getRows('k', { onCorruptRow: 'skip' });
    expect(rows.some((r) => r.type === 'error' && /corrupt/.test(JSON.stringify(r.data)))).toBe(
      true,
    );
  });

  it("passes its onCorruptRow to the store's reads, and reads through the store it was given", async () => {
    const store = await memoryStore();
    const calls: string[] = [];
    const watched = {
      ...store,
      getHistory: (threadId: string, options?: Parameters<typeof store.getHistory>[1]) => {
        calls.push(`getHistory ${options?.onCorruptRow}`);
        return store.getHistory(threadId, options);
      },
      getChunksAfter: (threadId: string, options?: Parameters<typeof store.getChunksAfter>[1]) => {
        calls.push(`getChunksAfter ${options?.onCorruptRow}`);
        return store.getChunksAfter(threadId, options);
      },
    };
    const session = createAgentSession({
      store: watched,
      threadId: 'x',
      model: createScriptedModel(parseScript('text ok\n---\ntext again')),
      onCorruptRow: 'skip',
    });
    await store.appendTurn('x', [
      { turnId: 'before', step: 0, role: 'user', type: 'text', data: { text: 'hi' } },
    ]);
    await session.send('go').rows;
    await session.send('more').rows;
    await session.close();
    // The first turn reads where the thread starts, then the thread whole; the next one what
    // changed since.
    expect(calls).toEqual(['getChunksAfter skip', 'getHistory skip', 'getChunksAfter skip']);
  });
});
