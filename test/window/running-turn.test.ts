// ChunkWindow.reconcile over a turn stored step by step: the stored part of the running turn and
// its live events merge without a duplicate or a gap, mid-turn and after the turn ends.
import { afterEach, describe, expect, it } from 'vitest';
import { createAgentSession } from '../../src/entries/session.js';
import { foldTurn } from '../../src/reducer/index.js';
import type { ChunkEvent, ChunkRow } from '../../src/schema/index.js';
import { createChunkStore } from '../../src/store/index.js';
import { createScriptedModel } from '../../src/testing/index.js';
import { explodeTurn, groupRowsToMessages } from '../../src/transforms/index.js';
import { ChunkWindow, type LogEntry } from '../../src/window/index.js';
import { listFiles, readFile, slowTool } from '../session/fixtures.js';
import { textBlock, turnOf } from './support/events.js';
import { MemoryThread, storedDrafts } from './support/page-source.js';

function content(entry: LogEntry | ChunkRow): unknown {
  return {
    turnId: entry.turnId,
    step: entry.step,
    role: entry.role,
    type: entry.type,
    data: entry.data,
  };
}

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

describe('reconcile with a turn stored step by step', () => {
  it('keeps the live running turn whole while its steps land, then takes its stored rows', async () => {
    const store = createChunkStore({ sqlite: ':memory:' });
    await store.migrate();
    closers.push(() => store.close());
    const slow = slowTool();
    let ids = 0;
    const session = createAgentSession({
      store,
      threadId: 'w',
      model: createScriptedModel([
        { parts: [{ type: 'text', text: 'Earlier.' }] },
        {
          parts: [
            { type: 'text', text: 'Let me look.' },
            { type: 'tool-call', toolName: 'read_file', input: { path: 'a.ts' } },
            { type: 'tool-call', toolName: 'list_files', input: { dir: '.' } },
          ],
        },
        { parts: [{ type: 'tool-call', toolName: 'slow', input: { ms: 1 } }] },
        { parts: [{ type: 'text', text: 'Done.' }] },
      ]),
      tools: { read_file: readFile, list_files: listFiles, slow: slow.tool },
      idGenerator: () => `t${++ids}`,
      durability: 'step',
    });
    closers.push(() => session.close());
    await session.send('first').rows;

    const window = new ChunkWindow({ limit: 100, loadPage: (r) => store.getChunks('w', r) });
    await window.loadOlder();
    // A session listener's metadata passes to apply as it is (its id tells a continued turn).
    session.subscribe((event, meta) => window.apply(event, meta));
    window.addPendingUserMessage('second');
    const turn = session.send('second');
    await slow.started;
    // Step 0 of t2 is stored while t2 runs.
    for (;;) {
      const info = await store.getTurnInfo('w', 't2');
      if (info !== null && info.nextSeq - info.firstSeq > 1) break;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    expect((await store.getChunks('w')).turnStatus).toEqual({ t2: 'running' });
    const liveBefore = window.log.map(content);
    await window.reconcile();
    // Nothing twice, nothing lost: the live turn stays as it was.
    expect(window.log.map(content)).toEqual(liveBefore);
    expect(window.liveTurnId).toBe('t2');

    slow.release('ok');
    await turn.rows;
    await window.reconcile();
    const rows = await store.getRows('w');
    expect(window.log.map((e) => e.seq)).toEqual(rows.map((r) => r.seq));
    expect(window.log.every((e) => !e.live)).toBe(true);
    expect(window.groups).toEqual(groupRowsToMessages(rows));
  });
});

describe('a window opened while a turn stored step by step runs', () => {
  async function midTurn() {
    const store = createChunkStore({ sqlite: ':memory:' });
    await store.migrate();
    closers.push(() => store.close());
    const slow = slowTool();
    let ids = 0;
    const session = createAgentSession({
      store,
      threadId: 'w',
      model: createScriptedModel([
        { parts: [{ type: 'text', text: 'Earlier.' }] },
        {
          parts: [
            { type: 'text', text: 'Let me look.' },
            { type: 'tool-call', toolName: 'read_file', input: { path: 'a.ts' } },
          ],
        },
        { parts: [{ type: 'tool-call', toolName: 'slow', input: { ms: 1 } }] },
        { parts: [{ type: 'text', text: 'Done.' }] },
      ]),
      tools: { read_file: readFile, slow: slow.tool },
      idGenerator: () => `t${++ids}`,
      durability: 'step',
    });
    closers.push(() => session.close());
    await session.send('first').rows;
    const turn = session.send('second');
    await slow.started;
    // Steps 0 and 1 of t2 are stored while t2 runs.
    await expect
      .poll(async () => (await store.getChunks('w')).chunks.filter((r) => r.turnId === 't2').length)
      .toBeGreaterThan(3);
    expect((await store.getChunks('w')).turnStatus).toEqual({ t2: 'running' });
    const window = new ChunkWindow({ limit: 100, loadPage: (r) => store.getChunks('w', r) });
    /** Follows the session's events, as a client that connects now: the running turn from its start. */
    const follow = () => {
      for (const { event } of session.replay().events) window.apply(event);
      session.subscribe((event) => window.apply(event));
    };
    /** The turn ends; the window shows its end live, then holds exactly the stored rows. */
    const finish = async () => {
      expect(window.liveTurnId).toBe('t2');
      const texts = (turnId: string) =>
        window.log
          .filter((e) => e.turnId === turnId && e.type === 'text')
          .map((e) => (e.data as { text: string }).text);
      // The user message, from the turn's start (this client did not send it), then the
      // assistant's part, live.
      expect(texts('t2')).toEqual(['second', 'Let me look.']);
      expect(window.log.find((e) => e.turnId === 't2')).toMatchObject({
        role: 'user',
        pending: true,
      });
      slow.release('ok');
      await turn.rows;
      expect(texts('t2')).toEqual(['second', 'Let me look.', 'Done.']);
      await window.reconcile();
      const rows = await store.getRows('w');
      expect(window.log.map((e) => e.seq)).toEqual(rows.map((r) => r.seq));
      expect(window.groups).toEqual(groupRowsToMessages(rows));
    };
    return { window, follow, finish };
  }

  it('follows it live when its events come before its first page', async () => {
    const { window, follow, finish } = await midTurn();
    follow();
    await window.loadOlder();
    await finish();
  });

  it('follows it live when its first page comes before its events', async () => {
    const { window, follow, finish } = await midTurn();
    await window.loadOlder();
    follow();
    await finish();
  });
});

describe('a turn continued after a crash, held as its stored steps', () => {
  // t1 was stored step by step; its writer died during step 1, and another process continues it:
  // its turn-start again, numbered after the events sent of it.
  const before: ChunkEvent[] = [
    { type: 'turn-start', turnId: 't1' },
    { type: 'step-start', step: 0 },
    ...textBlock('step 0, stored before the crash'),
    { type: 'step-finish', step: 0, finishReason: 'tool-calls' },
  ];
  const continued: ChunkEvent[] = [
    { type: 'turn-start', turnId: 't1' },
    { type: 'system', kind: 'resumed', text: 'resumed' },
    { type: 'step-start', step: 1 },
    ...textBlock('step 1, continued'),
    { type: 'step-finish', step: 1, finishReason: 'stop' },
  ];

  function crashed() {
    const thread = new MemoryThread();
    thread.append(storedDrafts('t0', turnOf('t0', 1), 'first'));
    thread.append(storedDrafts('t1', before, 'second'));
    let running = true;
    const window = new ChunkWindow({
      limit: 100,
      loadPage: (request) => {
        const page = thread.page(request);
        return running ? { ...page, turnStatus: { t1: 'running' as const } } : page;
      },
    });
    const stream = () => {
      for (const [i, event] of continued.entries()) window.apply(event, { id: `t1:${i + 7}` });
    };
    const texts = () =>
      window.groups.map((m) => [
        m.id,
        m.chunks.map((c) => (c.type === 'text' || c.type === 'system' ? c.text : c.type)),
      ]);
    const shown = [
      ['t0:user', ['first']],
      ['t0:assistant', ['t0-0']],
      ['t1:user', ['second']],
      ['t1:assistant', ['step 0, stored before the crash', 'resumed', 'step 1, continued']],
    ];
    /** The turn ends and is stored whole: the window then holds exactly the stored rows. */
    const finish = async () => {
      window.apply({ type: 'turn-end' }, { id: 't1:14' });
      thread.append(explodeTurn('t1', foldTurn(continued).chunks, { role: 'assistant' }));
      running = false;
      await window.reconcile();
      expect(window.log.map((e) => e.seq)).toEqual(thread.rows.map((r) => r.seq));
      expect(texts()).toEqual(shown);
    };
    return { window, stream, texts, shown, finish };
  }

  it('shows its stored steps and question, then its continued events, when the page comes first', async () => {
    const { window, stream, texts, shown, finish } = crashed();
    await window.loadOlder();
    stream();
    expect(texts()).toEqual(shown);
    expect(window.liveTurnId).toBe('t1');
    // A reconcile while it runs keeps both.
    await window.reconcile();
    expect(texts()).toEqual(shown);
    await finish();
  });

  it('shows its stored steps and question, then its continued events, when the events come first', async () => {
    const { window, stream, texts, shown, finish } = crashed();
    stream();
    await window.loadOlder();
    expect(texts()).toEqual(shown);
    await window.reconcile();
    expect(texts()).toEqual(shown);
    await finish();
  });
});

describe('a turn continued after a crash whose page holds its resumed row', () => {
  // t1 was stored step by step; its writer died running the tool step 0 called. Another process
  // took the turn over: it stored an error result for the call and its `resumed` row (seq 7, the
  // epoch of its event ids `t1:r7.<index>`), and streams the turn from its turn-start on.
  const before: ChunkEvent[] = [
    { type: 'turn-start', turnId: 't1' },
    { type: 'step-start', step: 0 },
    ...textBlock('step 0, stored before the crash'),
    { type: 'tool-call', toolCallId: 'c1', toolName: 'read', input: {} },
    { type: 'step-finish', step: 0, finishReason: 'tool-calls' },
  ];
  const recovery: ChunkEvent[] = [
    { type: 'tool-result', toolCallId: 'c1', toolName: 'read', output: 'lost', isError: true },
    { type: 'system', kind: 'resumed', text: 'resumed' },
  ];
  const step1: ChunkEvent[] = [
    { type: 'step-start', step: 1 },
    ...textBlock('step 1, continued'),
    { type: 'step-finish', step: 1, finishReason: 'stop' },
  ];
  const continued: ChunkEvent[] = [{ type: 'turn-start', turnId: 't1' }, ...recovery, ...step1];
  const recoveryDrafts = explodeTurn('t1', foldTurn(recovery).chunks, { role: 'assistant' });

  function crashed() {
    const thread = new MemoryThread();
    thread.append(storedDrafts('t0', turnOf('t0', 1), 'first'));
    thread.append(storedDrafts('t1', before, 'second'));
    const epoch = (thread.append(recoveryDrafts).at(-1) as ChunkRow).seq;
    let running = true;
    const window = new ChunkWindow({
      limit: 100,
      loadPage: (request) => {
        const page = thread.page(request);
        return running ? { ...page, turnStatus: { t1: 'running' as const } } : page;
      },
    });
    let index = 0;
    const stream = (events: readonly ChunkEvent[]) => {
      for (const event of events) window.apply(event, { id: `t1:r${epoch}.${index++}` });
    };
    /** The continuation stores its step 1 (durability `step`). */
    const storeStep1 = () =>
      thread.append(explodeTurn('t1', foldTurn(step1).chunks, { role: 'assistant' }));
    /** The thread's rows once the turn is stored whole. */
    const whole = () => {
      const all = new MemoryThread();
      all.append(thread.rows.filter((row) => row.seq <= epoch));
      all.append(explodeTurn('t1', foldTurn(step1).chunks, { role: 'assistant' }));
      return all.rows;
    };
    /** Nothing twice, nothing lost, in order: what the turn stored whole shows. */
    const expectWhole = () => {
      expect(window.groups).toEqual(groupRowsToMessages(whole()));
      expect(window.log.map(content)).toEqual(whole().map(content));
    };
    /** The turn ends and is stored: the window then holds exactly the stored rows. */
    const finish = async () => {
      stream([{ type: 'turn-end' }]);
      if (thread.rows.length === epoch) storeStep1();
      running = false;
      await window.reconcile();
      expect(window.log.map((e) => e.seq)).toEqual(thread.rows.map((r) => r.seq));
      expect(window.groups).toEqual(groupRowsToMessages(thread.rows));
    };
    return { thread, window, stream, storeStep1, expectWhole, finish };
  }

  it('shows the recovered rows once when the page came before the continued events', async () => {
    const { window, stream, expectWhole, finish } = crashed();
    await window.loadOlder();
    stream(continued);
    expectWhole();
    await finish();
  });

  it('shows the recovered rows and the continuation’s stored step once when the page came after that step was stored', async () => {
    const { window, stream, storeStep1, expectWhole, finish } = crashed();
    storeStep1();
    await window.loadOlder();
    stream(continued);
    expectWhole();
    await finish();
  });

  it('shows the recovered rows and the continuation’s stored step once when the continued events came before the page', async () => {
    const { window, stream, storeStep1, expectWhole, finish } = crashed();
    stream(continued);
    storeStep1();
    await window.loadOlder();
    expectWhole();
    await finish();
  });

  it('shows the recovered rows once when the page lands between the continued turn’s recovery events', async () => {
    const { window, stream, expectWhole, finish } = crashed();
    // Its turn-start and the error result came; the page, holding both, lands before `resumed`.
    stream(continued.slice(0, 2));
    await window.loadOlder();
    stream(continued.slice(2));
    expectWhole();
    await finish();
  });

  it('shows the recovered rows once when a reconcile brings them while the continued turn runs', async () => {
    const { window, thread, stream, storeStep1, expectWhole, finish } = crashed();
    // The page held only the dead process's rows; the recovery rows came live.
    const recovered = thread.rows.splice(-recoveryDrafts.length);
    await window.loadOlder();
    thread.rows.push(...recovered);
    stream(continued);
    expectWhole();
    storeStep1();
    await window.reconcile();
    expectWhole();
    await finish();
  });
});
