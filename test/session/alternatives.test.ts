// A session follows its conversation's active path (issue 32): each turn reads and writes
// `store.activePath(threadId)`; `regenerate` and `edit` make a new alternative when their turn
// comes and run there, keeping the old version; a switch made elsewhere is followed by the next
// turn, whose model input is exactly the new path's. On SQLite and PostgreSQL (where the lease is
// on by default, taken per path).
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { type AgentSession, createAgentSession } from '../../src/entries/session.js';
import type { ChunkRow } from '../../src/schema/index.js';
import type { ChunkStore } from '../../src/store/index.js';
import { createScriptedModel } from '../../src/testing/index.js';
import {
  availableDialects,
  createHarness,
  type DialectHarness,
} from '../store/support/dialects.js';
import { rejected, thrown } from '../support/chunklog-error.js';
import { sequentialIds } from './support.js';

const harnesses: DialectHarness[] = [];
afterAll(async () => {
  for (const h of harnesses) await h.dispose();
});
const sessions: AgentSession[] = [];
afterEach(async () => {
  for (const s of sessions.splice(0)) await s.close();
});

const available = await availableDialects();

/** A model answering `A{call}: {last user text}`; it records every prompt. */
function echoModel() {
  return createScriptedModel((call, index) => {
    const last = call.prompt.filter((m) => m.role === 'user').at(-1);
    const text = last?.content.map((p) => (p.type === 'text' ? p.text : '')).join('') ?? '';
    return { parts: [{ type: 'text', text: `A${index}: ${text}` }] };
  });
}

/** A prompt as `role: text` lines. */
function lines(prompt: readonly { role: string; content: unknown }[] | undefined): string[] {
  return (prompt ?? []).map((m) => {
    const content = Array.isArray(m.content) ? m.content : [];
    const text = content.map((p: { type: string; text?: string }) => p.text ?? '').join('');
    return `${m.role}: ${text}`;
  });
}

function texts(rows: readonly ChunkRow[]): string[] {
  return rows.map((r) => `${r.turnId} ${r.role}: ${(r.data as { text: string }).text}`);
}

describe.each(['sqlite', 'postgres'] as const)('a session with alternatives on %s', (name) => {
  async function open(options: { count?: boolean; afterAddAlternative?: () => void } = {}) {
    const harness = createHarness(name);
    harnesses.push(harness);
    let now = Date.UTC(2026, 0, 1);
    const store = harness.openStore({ now: () => now++ });
    await store.migrate();
    const calls: string[] = [];
    const view = new Proxy(store, {
      get(target, key) {
        const value = Reflect.get(target, key, target);
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          if (options.count === true && (key === 'getHistory' || key === 'activePath')) {
            calls.push(`${String(key)} ${String(args[0])}`);
          }
          if (key === 'addAlternative' && options.afterAddAlternative !== undefined) {
            const then = options.afterAddAlternative;
            return (value.apply(target, args) as Promise<unknown>).then((made) => {
              then();
              return made;
            });
          }
          return value.apply(target, args);
        };
      },
    }) as ChunkStore;
    const model = echoModel();
    const session = createAgentSession({
      store: view,
      threadId: 'chat',
      model,
      idGenerator: sequentialIds('t'),
    });
    sessions.push(session);
    return { store, session, model, calls };
  }

  it.skipIf(!available.includes(name))(
    'regenerate keeps the old version and sends exactly the new path',
    async () => {
      const { store, session, model } = await open();
      await session.send('one').rows;
      await session.send('two').rows;
      const again = session.regenerate('t2');
      expect(again.turnId).toBe('t3');
      const rows = await again.rows;
      expect(texts(rows)).toEqual(['t3 user: two', 't3 assistant: A2: two']);
      // The model saw the path up to the branch, then the same question again.
      expect(lines(model.prompts[2])).toEqual(['user: one', 'assistant: A0: one', 'user: two']);
      const path = await store.activePath('chat');
      expect(path).not.toBe('chat');
      expect(texts(await store.getRows(path))).toEqual([
        't1 user: one',
        't1 assistant: A0: one',
        't3 user: two',
        't3 assistant: A2: two',
      ]);
      // Nothing was deleted: the conversation's own path still has the first version.
      expect(texts(await store.getRows('chat'))).toEqual([
        't1 user: one',
        't1 assistant: A0: one',
        't2 user: two',
        't2 assistant: A1: two',
      ]);
      expect((await store.getAlternatives('chat')).branches).toEqual([
        {
          atSeq: 2,
          active: 1,
          alternatives: [
            expect.objectContaining({ threadId: 'chat', turnId: 't2' }),
            expect.objectContaining({ threadId: path, turnId: 't3' }),
          ],
        },
      ]);
      // The next turn goes on the new path, with its history.
      await session.send('three').rows;
      expect(lines(model.prompts[3])).toEqual([
        'user: one',
        'assistant: A0: one',
        'user: two',
        'assistant: A2: two',
        'user: three',
      ]);
      expect(await store.getTurn('chat', 't4')).toBeNull();
      expect((await store.getRows(path)).map((r) => r.turnId).at(-1)).toBe('t4');
      // A turn the path inherits from the conversation's own rows can be regenerated too.
      expect(texts(await session.regenerate('t1').rows)).toEqual([
        't5 user: one',
        't5 assistant: A4: one',
      ]);
      expect(lines(model.prompts[4])).toEqual(['user: one']);
      expect((await store.getAlternatives('chat')).branches).toEqual([
        {
          atSeq: 0,
          active: 1,
          alternatives: [
            expect.objectContaining({ threadId: 'chat', turnId: 't1' }),
            expect.objectContaining({ threadId: await store.activePath('chat'), turnId: 't5' }),
          ],
        },
      ]);
    },
  );

  it.skipIf(!available.includes(name))(
    'edit sends the new text on a new path; the first turn can be edited',
    async () => {
      const { store, session, model } = await open();
      await session.send('one').rows;
      await session.send('two').rows;
      const edited = session.edit('t1', 'uno');
      expect(texts(await edited.rows)).toEqual(['t3 user: uno', 't3 assistant: A2: uno']);
      expect(lines(model.prompts[2])).toEqual(['user: uno']);
      const listed = await store.getAlternatives('chat');
      expect(listed.branches).toEqual([
        {
          atSeq: 0,
          active: 1,
          alternatives: [
            expect.objectContaining({ threadId: 'chat', turnId: 't1' }),
            expect.objectContaining({ threadId: listed.activePath, turnId: 't3' }),
          ],
        },
      ]);
      expect(await store.getRows('chat')).toHaveLength(4);
    },
  );

  it.skipIf(!available.includes(name))(
    'queues like a send: the alternative is made after the turns queued before it are written',
    async () => {
      const { store, session } = await open();
      await session.send('one').rows;
      const queued = session.send('two');
      // t2 is not stored yet: the regenerate finds it on the path when its turn comes.
      const again = session.regenerate('t2');
      expect(session.queued).toBeGreaterThanOrEqual(1);
      expect((await again.result).outcome).toBe('completed');
      expect(texts(await queued.rows)).toEqual(['t2 user: two', 't2 assistant: A1: two']);
      const { branches } = await store.getAlternatives('chat');
      expect(branches.map((b) => b.alternatives.map((a) => a.turnId))).toEqual([['t2', 't3']]);
    },
  );

  it.skipIf(!available.includes(name))(
    'follows a switch made elsewhere: the kept history is read again, the model input is the active path',
    async () => {
      const { store, session, model, calls } = await open({ count: true });
      await session.send('one').rows;
      await session.send('two').rows;
      await session.regenerate('t2').rows;
      const alternative = await store.activePath('chat');
      // Another client switches back to the first version.
      await store.switchAlternative('chat', 'chat');
      calls.length = 0;
      await session.send('three').rows;
      expect(lines(model.prompts.at(-1))).toEqual([
        'user: one',
        'assistant: A0: one',
        'user: two',
        'assistant: A1: two',
        'user: three',
      ]);
      // One path read for the turn, and the history of the other path read whole.
      expect(calls).toEqual(['activePath chat', 'getHistory chat']);
      expect((await store.getRows('chat')).map((r) => r.turnId).at(-1)).toBe('t4');
      expect((await store.getRows(alternative)).map((r) => r.turnId)).not.toContain('t4');
      // And back: the alternative's path, read again.
      await store.switchAlternative('chat', alternative);
      calls.length = 0;
      expect(lines(await session.modelMessages('four'))).toEqual([
        'user: one',
        'assistant: A0: one',
        'user: two',
        'assistant: A2: two',
        'user: four',
      ]);
      expect(calls).toEqual(['activePath chat', `getHistory ${alternative}`]);
    },
  );

  it.skipIf(!available.includes(name))(
    'a plain thread stays the thread itself: one path read per turn, the history kept warm',
    async () => {
      const { store, session, model, calls } = await open({ count: true });
      await session.send('one').rows;
      await session.send('two').rows;
      // The first turn's forward read found no thread (nothing to read whole); the second read
      // only what followed.
      expect(calls).toEqual(['activePath chat', 'activePath chat']);
      expect(await store.activePath('chat')).toBe('chat');
      expect((await store.getAlternatives('chat')).branches).toEqual([]);
      expect(lines(model.prompts[1])).toEqual(['user: one', 'assistant: A0: one', 'user: two']);
    },
  );

  it.skipIf(!available.includes(name))(
    'an edit cancelled after its alternative was made leaves the active path as it was',
    async () => {
      let cancel = () => {};
      const { store, session, model } = await open({ afterAddAlternative: () => cancel() });
      await session.send('one').rows;
      const edited = session.edit('t1', 'uno');
      cancel = () => edited.cancel();
      expect((await edited.result).outcome).toBe('dropped');
      expect(await store.activePath('chat')).toBe('chat');
      // The empty alternative is listed (nothing is deleted), not active.
      const { branches } = await store.getAlternatives('chat');
      expect(branches).toEqual([
        {
          atSeq: 0,
          active: 0,
          alternatives: [
            expect.objectContaining({ threadId: 'chat', turnId: 't1' }),
            expect.objectContaining({ turnId: undefined }),
          ],
        },
      ]);
      await session.send('two').rows;
      expect(lines(model.prompts.at(-1))).toEqual(['user: one', 'assistant: A0: one', 'user: two']);
    },
  );

  it.skipIf(!available.includes(name))(
    'refuses bad arguments at the call, and a turn not on the active path (also of a thread with no rows yet)',
    async () => {
      const { store, session, model } = await open();
      // Before the thread has a row: the same error as later, not `thread-not-found`.
      const empty = createAgentSession({ store, threadId: 'empty', model });
      sessions.push(empty);
      for (const early of [empty.regenerate('nope'), empty.edit('nope', 'x')]) {
        const error = await rejected(early.result);
        expect([error.code, error.option]).toEqual(['invalid-option', 'turnId']);
      }
      await session.send('one').rows;
      expect(thrown(() => session.regenerate('')).option).toBe('turnId');
      expect(thrown(() => session.regenerate(7 as unknown as string)).option).toBe('turnId');
      expect(thrown(() => session.edit('t1', '')).option).toBe('text');
      expect(thrown(() => session.edit('t1', 'x', { signal: 1 } as never)).option).toBe('signal');
      expect(thrown(() => session.edit('t1', 'x', { signl: 1 } as never)).code).toBe(
        'invalid-option',
      );
      const missing = session.regenerate('nope');
      const error = await rejected(missing.result);
      expect(error.code).toBe('invalid-option');
      expect(error.option).toBe('turnId');
      await expect(missing.rows).rejects.toBe(error);
      // Nothing was made, nothing was sent; the session goes on.
      expect(model.prompts).toHaveLength(1);
      expect(await store.activePath('chat')).toBe('chat');
      await session.edit('t1', 'uno').rows;
      const alternative = await store.activePath('chat');
      // t1 is no longer on the active path (the edit replaced it there).
      const stale = await rejected(session.regenerate('t1').result);
      expect([stale.code, stale.option]).toEqual(['invalid-option', 'turnId']);
      expect(await store.activePath('chat')).toBe(alternative);
    },
  );
});
