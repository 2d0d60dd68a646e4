// A system event outside a turn (a session's `notify` with no turn running) is a system message
// of its own in the store. A window following the session's live events shows it as that system
// message from its first event — same id, same role — not as an assistant message that turns
// into a system message on reconcile.
import { afterEach, describe, expect, it } from 'vitest';
import { createAgentSession } from '../../src/entries/session.js';
import type { ChunkEvent } from '../../src/schema/index.js';
import { type ChunkStore, createChunkStore } from '../../src/store/index.js';
import { createScriptedModel, parseScript } from '../../src/testing/index.js';
import { explodeTurn } from '../../src/transforms/index.js';
import { ChunkWindow } from '../../src/window/index.js';
import { MemoryThread } from './support/page-source.js';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function openStore(): Promise<ChunkStore> {
  const store = createChunkStore({ sqlite: ':memory:' });
  await store.migrate();
  closers.push(() => store.close());
  return store;
}

const view = (window: ChunkWindow) => window.groups.map((m) => [m.id, m.role, m.chunks.length]);

describe('ChunkWindow and system turns', () => {
  it('shows a notice outside a turn as a system message from its first event', async () => {
    const store = await openStore();
    let next = 0;
    const session = createAgentSession({
      store,
      threadId: 'sys',
      model: createScriptedModel(parseScript('text hi')),
      idGenerator: () => `n${++next}`,
    });
    closers.push(() => session.close());
    const window = new ChunkWindow({
      limit: 50,
      loadPage: (request) => store.getChunks('sys', request),
    });
    const seen: Array<ReturnType<typeof view>> = [];
    session.subscribe((event: ChunkEvent) => {
      window.apply(event);
      if (event.type !== 'turn-start') seen.push(view(window));
    });
    window.addPendingUserMessage('hello', { turnId: 't1' });
    await session.send({ text: 'hello', turnId: 't1' }).rows;
    await session.notify({ kind: 'notice', text: 'Maintenance at 5' });
    await session.notify({ kind: 'model-changed', text: 'Now using B' });
    // From the notice's first event on, it is the system message n1:system; the second notice
    // joins it, as the store groups them.
    const afterNotices = seen.slice(-4);
    expect(afterNotices[0]).toEqual([
      ['t1:user', 'user', 1],
      ['t1:assistant', 'assistant', 1],
      ['n1:system', 'system', 1],
    ]);
    expect(afterNotices.at(-1)).toEqual([
      ['t1:user', 'user', 1],
      ['t1:assistant', 'assistant', 1],
      ['n1:system', 'system', 2],
    ]);
    const live = view(window);
    await window.reconcile();
    expect(view(window)).toEqual(live);
    expect(window.groups).toEqual(await store.getMessages('sys'));
  });

  it('leaves a message sent without a turn id to the next model turn, not to a notice before it', async () => {
    const thread = new MemoryThread();
    const window = new ChunkWindow({ limit: 50, loadPage: (r) => thread.page(r) });
    await window.loadOlder();
    const pending = window.addPendingUserMessage('What is 2+2?');
    const notice = { type: 'system', step: 0, kind: 'config-reload', text: 'Reloaded' } as const;
    for (const event of [
      { type: 'turn-start', turnId: 'n1', role: 'system' },
      { type: 'system', kind: notice.kind, text: notice.text },
      { type: 'turn-end' },
    ] satisfies ChunkEvent[]) {
      window.apply(event);
    }
    expect(view(window)).toEqual([
      ['n1:system', 'system', 1],
      [`${pending}:user`, 'user', 1],
    ]);
    thread.append(explodeTurn('n1', [notice], { role: 'system' }));
    await window.reconcile();
    expect(view(window)).toEqual([
      ['n1:system', 'system', 1],
      [`${pending}:user`, 'user', 1],
    ]);
    window.apply({ type: 'turn-start', turnId: 't1' });
    window.apply({ type: 'text-start' });
    window.apply({ type: 'text-delta', text: 'It is 4.' });
    expect(view(window)).toEqual([
      ['n1:system', 'system', 1],
      ['t1:user', 'user', 1],
      ['t1:assistant', 'assistant', 1],
    ]);
  });

  it('keeps a system event inside a running turn in the assistant message', () => {
    const window = new ChunkWindow({
      limit: 50,
      loadPage: async () => ({ chunks: [], total: 0, oldestSeq: null, hasMore: false }),
    });
    for (const event of [
      { type: 'turn-start', turnId: 'a' },
      { type: 'system', kind: 'model-changed', text: 'Now using B' },
      { type: 'text-start' },
      { type: 'text-delta', text: 'hi' },
    ] satisfies ChunkEvent[]) {
      window.apply(event);
    }
    expect(view(window)).toEqual([['a:assistant', 'assistant', 2]]);
  });
});
