import { describe, expect, it, vi } from 'vitest';

import { ChunklogError } from '../../src/errors/index.js';
import type { ChunkEvent } from '../../src/schema/index.js';
import { groupRowsToMessages } from '../../src/transforms/index.js';
import { ChunkWindow, type LogEntry } from '../../src/window/index.js';
import { verifyRowCounts } from '../../src/window/row-count.js';
import { textBlock, toolRound, turnOf } from './support/events.js';
import { controlledSource, flush, MemoryThread, storedDrafts } from './support/page-source.js';

// Check the targeted row counting against a full recount after every event.
verifyRowCounts(true);

/** An entry without what only the window adds, to compare live and stored content. */
function content(entry: LogEntry): unknown {
  return {
    turnId: entry.turnId,
    step: entry.step,
    role: entry.role,
    type: entry.type,
    data: entry.data,
  };
}

describe('reconcile', () => {
  it('replaces the live turn and the pending user row with the stored rows, keeping message ids', async () => {
    const thread = new MemoryThread();
    thread.append(storedDrafts('t0', turnOf('t0', 2), 'first'));
    const window = new ChunkWindow({ limit: 50, loadPage: (r) => thread.page(r) });
    await window.loadOlder();
    const pendingId = window.addPendingUserMessage('second');
    expect(window.log.at(-1)).toMatchObject({ live: true, pending: true, role: 'user', seq: null });
    const events: ChunkEvent[] = [
      { type: 'turn-start', turnId: 't1' },
      ...textBlock('thinking about ', 'it'),
      ...toolRound('c1', 'result'),
      ...textBlock('answer'),
      { type: 'turn-end', finishReason: 'stop' },
    ];
    for (const e of events) window.apply(e);
    const liveGroups = window.groups;
    expect(liveGroups.map((m) => m.id)).toEqual([
      't0:user',
      't0:assistant',
      't1:user',
      't1:assistant',
    ]);
    expect(window.log.filter((e) => e.pending).every((e) => e.id.startsWith(pendingId))).toBe(true);
    const liveContent = window.log.map(content);

    thread.append(storedDrafts('t1', events, 'second'));
    await window.reconcile();
    expect(window.log).toHaveLength(thread.rows.length);
    expect(window.log.every((e) => !e.live && e.seq !== null)).toBe(true);
    expect(window.log.map((e) => e.seq)).toEqual(thread.rows.map((r) => r.seq));
    expect(window.log.map(content)).toEqual(liveContent);
    expect(window.groups.map((m) => m.id)).toEqual(liveGroups.map((m) => m.id));
    expect(window.groups).toEqual(liveGroups);
    expect(window.liveTurnId).toBe(null);
    expect(window.getSnapshot().reconcileStatus).toBe('idle');
  });

  it("shows the user text of a turn another client sent from its turn-start, once: its stored rows replace it, and a window's own message is not doubled", async () => {
    const thread = new MemoryThread();
    thread.append(storedDrafts('t0', turnOf('t0', 1), 'first'));
    const events: ChunkEvent[] = [
      { type: 'turn-start', turnId: 't1', userText: 'second' },
      ...textBlock('answer'),
      { type: 'turn-end', finishReason: 'stop' },
    ];
    const texts = (w: ChunkWindow) =>
      w.groups.map(
        (m) => `${m.id}=${m.chunks.map((c) => (c.type === 'text' ? c.text : '')).join('')}`,
      );
    // A second tab: it did not send the message.
    const other = new ChunkWindow({ limit: 50, loadPage: (r) => thread.page(r) });
    await other.loadOlder();
    for (const e of events.slice(0, -1)) other.apply(e);
    expect(texts(other).slice(-2)).toEqual(['t1:user=second', 't1:assistant=answer']);
    expect(other.log.find((e) => e.turnId === 't1')).toMatchObject({ role: 'user', pending: true });
    // The sender: its own message joins the turn; the event's text adds none.
    const sender = new ChunkWindow({ limit: 50, loadPage: (r) => thread.page(r) });
    await sender.loadOlder();
    sender.addPendingUserMessage('second');
    for (const e of events.slice(0, -1)) sender.apply(e);
    expect(texts(sender).filter((m) => m.includes(':user=second'))).toHaveLength(1);
    // A system turn answers no user message.
    const system = new ChunkWindow({ limit: 50, loadPage: (r) => thread.page(r) });
    system.apply({ type: 'turn-start', turnId: 's', role: 'system', userText: 'ignored' });
    expect(system.log.some((e) => e.role === 'user')).toBe(false);

    other.apply({ type: 'turn-end', finishReason: 'stop' });
    thread.append(storedDrafts('t1', events, 'second'));
    await other.reconcile();
    expect(other.log.map((e) => e.seq)).toEqual(thread.rows.map((r) => r.seq));
    expect(other.groups).toEqual(groupRowsToMessages(thread.rows));
  });

  it('recovers live chunks evicted mid-turn: the log becomes the stored tail, older ones page in', async () => {
    const thread = new MemoryThread();
    const window = new ChunkWindow({ limit: 10, pageSize: 10, loadPage: (r) => thread.page(r) });
    const events = turnOf('giant', 25);
    for (const e of events) window.apply(e);
    expect(window.log.map((e) => e.id)).toEqual(
      Array.from({ length: 10 }, (_, i) => `giant:${15 + i}`),
    );
    thread.append(storedDrafts('giant', events, 'go'));
    await window.reconcile();
    expect(window.log.map((e) => e.seq)).toEqual(Array.from({ length: 10 }, (_, i) => 17 + i));
    // While the turn streamed its first chunks could not be fetched; now they can.
    window.setScrolledUp(true);
    await window.loadOlder();
    await window.loadOlder();
    expect(window.hasOlder).toBe(false);
    expect(window.log.map((e) => e.seq)).toEqual(thread.rows.map((r) => r.seq));
    expect(window.groups).toEqual(groupRowsToMessages(thread.rows));
    expect(window.groups[1]?.chunks).toHaveLength(25);
  });

  it('replaces an orphaned result of an evicted tool call by the stored call and result', async () => {
    const thread = new MemoryThread();
    const window = new ChunkWindow({ limit: 4, loadPage: (r) => thread.page(r) });
    const events: ChunkEvent[] = [
      { type: 'turn-start', turnId: 't' },
      { type: 'tool-call', toolCallId: 'slow', toolName: 'read', input: {} },
      ...textBlock('a'),
      ...textBlock('b'),
      ...textBlock('c'),
      ...textBlock('d'),
      { type: 'tool-result', toolCallId: 'slow', toolName: 'read', output: 'late' },
      { type: 'turn-end' },
    ];
    for (const e of events) window.apply(e);
    const orphan = window.groups[0]?.chunks.at(-1);
    expect(orphan).toMatchObject({ type: 'tool-batch', calls: [{ id: 'slow', orphan: true }] });
    thread.append(storedDrafts('t', events));
    await window.reconcile();
    expect(window.log.map((e) => e.seq)).toEqual([3, 4, 5, 6]);
    window.setScrolledUp(true);
    await window.loadOlder();
    const batch = window.groups[0]?.chunks[0];
    expect(batch).toEqual({
      type: 'tool-batch',
      step: 0,
      calls: [{ id: 'slow', name: 'read', input: {}, result: 'late' }],
    });
  });

  it('waits while the user is scrolled up, without touching the log, and runs at the bottom', async () => {
    const thread = new MemoryThread();
    const source = controlledSource(thread);
    const window = new ChunkWindow({ limit: 20, loadPage: source.loadPage });
    const events = turnOf('t', 3);
    for (const e of events) window.apply(e);
    thread.append(storedDrafts('t', events));
    window.setScrolledUp(true);
    const log = window.log;
    let done = false;
    const reconciled = window.reconcile().then(() => {
      done = true;
    });
    await flush();
    expect(source.requests).toHaveLength(0);
    expect(window.getSnapshot().reconcileStatus).toBe('waiting');
    expect(window.log).toBe(log);
    expect(done).toBe(false);
    window.setScrolledUp(false);
    expect(window.getSnapshot().reconcileStatus).toBe('loading');
    // The user scrolls up again before the answer: it is not applied, and fetched again later.
    window.setScrolledUp(true);
    source.next().resolve();
    await flush();
    expect(window.log).toBe(log);
    expect(done).toBe(false);
    expect(window.getSnapshot().reconcileStatus).toBe('waiting');
    window.setScrolledUp(false);
    source.next().resolve();
    await reconciled;
    expect(window.log.map((e) => e.seq)).toEqual([1, 2, 3]);
  });

  it('keeps the events of a new turn that arrive while the fetch is in flight', async () => {
    const thread = new MemoryThread();
    const source = controlledSource(thread);
    const window = new ChunkWindow({ limit: 50, loadPage: source.loadPage });
    const first = turnOf('t1', 2);
    for (const e of first) window.apply(e);
    thread.append(storedDrafts('t1', first));
    const reconciled = window.reconcile();
    // The next turn starts before the tail arrives.
    const pending = window.addPendingUserMessage('next please', { turnId: 't2' });
    window.apply({ type: 'turn-start', turnId: 't2' });
    for (const e of textBlock('streaming ', 'on')) window.apply(e);
    window.apply({ type: 'text-start' });
    window.apply({ type: 'text-delta', text: 'open' });
    source.next().resolve();
    await reconciled;
    expect(window.log.map((e) => [e.id, e.seq])).toEqual([
      ['#1', 1],
      ['#2', 2],
      [`${pending}:0`, null],
      ['t2:0', null],
      ['t2:1', null],
    ]);
    expect(window.liveTurnId).toBe('t2');
    window.apply({ type: 'text-delta', text: 'ing' });
    const last = window.log.at(-1);
    expect(last?.type === 'text' && last.data.text).toBe('opening');
    expect(window.groups.map((m) => m.id)).toEqual(['t1:assistant', 't2:user', 't2:assistant']);
  });

  it('applies the turn-end of a turn followed live that a reconcile found stored before it', async () => {
    // The server publishes a turn's turn-end once the turn is stored: a tail fetched in between
    // (for a gap, or for an earlier turn) already holds the turn whole.
    const thread = new MemoryThread();
    const window = new ChunkWindow({ limit: 50, loadPage: (request) => thread.page(request) });
    const turn = turnOf('t1', 2);
    for (const e of turn.slice(0, -1)) window.apply(e);
    thread.append(storedDrafts('t1', turn, 'hi'));
    await window.reconcile();
    expect(window.log.map((e) => e.seq)).toEqual([1, 2, 3]);
    expect(window.liveTurnId).toBeNull();
    // It ends a turn followed here (connectThreadEvents reports it: useChunkThread's lastTurn).
    const end: ChunkEvent = { type: 'turn-end', finishReason: 'stop' };
    expect(window.apply(end)).toBe(true);
    expect(window.log.map((e) => e.seq)).toEqual([1, 2, 3]);
    // Once: the same turn-end again, or the stored turn replayed, is ignored.
    expect(window.apply(end)).toBe(false);
    for (const e of turn) expect(window.apply(e)).toBe(false);
    expect(window.log.map((e) => e.seq)).toEqual([1, 2, 3]);
  });

  it('runs one follow-up fetch for calls made while one is in flight', async () => {
    const thread = new MemoryThread();
    const source = controlledSource(thread);
    const window = new ChunkWindow({ limit: 50, loadPage: source.loadPage });
    const a = window.reconcile();
    const b = window.reconcile();
    const c = window.reconcile();
    expect(source.requests).toHaveLength(1);
    const t1 = turnOf('t1', 1);
    for (const e of t1) window.apply(e);
    thread.append(storedDrafts('t1', t1));
    source.next().resolve(); // answered before t1 was stored
    await a;
    expect(window.log.map((e) => e.seq)).toEqual([null]);
    await flush();
    expect(source.requests).toHaveLength(1);
    source.next().resolve();
    await Promise.all([b, c]);
    expect(window.log.map((e) => e.seq)).toEqual([1]);
  });

  it('fails with load-failed, leaves the state as it was, and can be retried', async () => {
    const thread = new MemoryThread();
    let fail = true;
    const window = new ChunkWindow({
      limit: 50,
      loadPage: async (r) => {
        if (fail) throw new TypeError('fetch failed');
        return thread.page(r);
      },
    });
    const events = turnOf('t', 2);
    for (const e of events) window.apply(e);
    thread.append(storedDrafts('t', events));
    const log = window.log;
    const error = await window.reconcile().catch((e: unknown) => e);
    expect(ChunklogError.hasCode(error, 'load-failed')).toBe(true);
    expect((error as Error).cause).toBeInstanceOf(TypeError);
    expect(window.log).toBe(log);
    fail = false;
    await window.reconcile();
    expect(window.log.map((e) => e.seq)).toEqual([1, 2]);
  });

  it('drops held rows that the tail does not join, so no gap is left in the middle', async () => {
    const thread = new MemoryThread();
    thread.append(storedDrafts('old', turnOf('old', 3)));
    const window = new ChunkWindow({
      limit: 5,
      // A server that caps pages at 3 rows whatever is asked.
      loadPage: (r) => thread.page({ ...r, limit: Math.min(r.limit, 3) }),
    });
    window.setScrolledUp(true);
    await window.loadOlder();
    expect(window.log.map((e) => e.seq)).toEqual([1, 2, 3]);
    window.setScrolledUp(false);
    thread.append(storedDrafts('n1', turnOf('n1', 3)));
    thread.append(storedDrafts('n2', turnOf('n2', 3)));
    await window.reconcile();
    expect(window.log.map((e) => e.seq)).toEqual([7, 8, 9]);
    expect(window.hasOlder).toBe(true);
  });

  it('a tail that includes the held rows merges them without duplicates', async () => {
    const thread = new MemoryThread();
    thread.append(storedDrafts('a', turnOf('a', 2), 'qa'));
    const window = new ChunkWindow({ limit: 50, loadPage: (r) => thread.page(r) });
    await window.loadOlder();
    const held = window.log;
    thread.append(storedDrafts('b', turnOf('b', 2), 'qb'));
    await window.reconcile();
    expect(window.log.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5, 6]);
    // Held entries are kept as they were (no re-render of unchanged rows).
    expect(window.log.slice(0, 3)).toEqual(held);
    expect(window.log[0]).toBe(held[0]);
  });

  it('waits for a turn announced ended before its write committed, then seals it', async () => {
    vi.useFakeTimers();
    try {
      const thread = new MemoryThread();
      const requests: number[] = [];
      const window = new ChunkWindow({
        limit: 50,
        loadPage: (r) => {
          requests.push(Date.now());
          return thread.page(r);
        },
      });
      const events = turnOf('t', 2);
      const pending = window.addPendingUserMessage('hello', { turnId: 't' });
      for (const e of events) window.apply(e);
      // chunklog's session emits turn-end, then commits the turn: the first tail misses it.
      let done = false;
      const reconciled = window.reconcile().then(() => {
        done = true;
      });
      await vi.advanceTimersByTimeAsync(0);
      expect(requests).toHaveLength(1);
      expect(window.log.map((e) => e.id)).toEqual([`${pending}:0`, 't:0', 't:1']);
      expect(window.getSnapshot().reconcileStatus).toBe('loading');
      thread.append(storedDrafts('t', events, 'hello'));
      await vi.advanceTimersByTimeAsync(25);
      await reconciled;
      expect(done).toBe(true);
      expect(requests).toHaveLength(2);
      expect(window.log.map((e) => e.id)).toEqual(['#1', '#2', '#3']);
      expect(window.getSnapshot().reconcileStatus).toBe('idle');
    } finally {
      vi.useRealTimers();
    }
  });

  it('drops ended turns the store never gets: the store is the truth after a reconcile', async () => {
    vi.useFakeTimers();
    try {
      const thread = new MemoryThread();
      const window = new ChunkWindow({ limit: 50, loadPage: (r) => thread.page(r) });
      // An empty turn stores no rows; a turn whose write failed is never stored.
      for (const e of [
        { type: 'turn-start', turnId: 'empty' },
        { type: 'turn-end' },
      ] as ChunkEvent[]) {
        window.apply(e);
      }
      for (const e of turnOf('lost', 2)) window.apply(e);
      window.apply({ type: 'turn-start', turnId: 'streaming' });
      for (const e of textBlock('still going')) window.apply(e);
      const stored = turnOf('kept', 1);
      thread.append(storedDrafts('kept', stored));
      let done = false;
      const reconciled = window.reconcile().then(() => {
        done = true;
      });
      await vi.advanceTimersByTimeAsync(0);
      // The empty turn goes at once; the lost one is waited for.
      expect(window.log.map((e) => e.id)).toEqual(['#1', 'lost:0', 'lost:1', 'streaming:0']);
      await vi.advanceTimersByTimeAsync(3000);
      expect(done).toBe(false);
      await vi.advanceTimersByTimeAsync(1000);
      await reconciled;
      // The streaming turn is not over: it stays, after the stored rows.
      expect(window.log.map((e) => e.id)).toEqual(['#1', 'streaming:0']);
      expect(window.liveTurnId).toBe('streaming');
      window.apply({ type: 'turn-end' });
      const again = window.reconcile();
      await vi.advanceTimersByTimeAsync(4000);
      await again;
      expect(window.log.map((e) => e.id)).toEqual(['#1']);
      expect(window.liveTurnId).toBe(null);
    } finally {
      vi.useRealTimers();
    }
  });

  it('does not wait for an ended turn once a later turn is stored', async () => {
    const thread = new MemoryThread();
    const window = new ChunkWindow({ limit: 50, loadPage: (r) => thread.page(r) });
    for (const e of turnOf('failed-write', 1)) window.apply(e);
    const second = turnOf('second', 1);
    for (const e of second) window.apply(e);
    thread.append(storedDrafts('second', second));
    await window.reconcile();
    expect(window.log.map((e) => e.id)).toEqual(['#1']);
  });

  it('drops a pending message once its turn is stored, and keeps one for a turn not started', async () => {
    const thread = new MemoryThread();
    const window = new ChunkWindow({ limit: 50, loadPage: (r) => thread.page(r) });
    window.addPendingUserMessage('first');
    const events = turnOf('t1', 1);
    for (const e of events) window.apply(e);
    const queued = window.addPendingUserMessage('queued for later');
    expect(window.groups.map((m) => m.id)).toEqual(['t1:user', 't1:assistant', `${queued}:user`]);
    thread.append(storedDrafts('t1', events, 'first'));
    await window.reconcile();
    expect(window.log.map((e) => e.id)).toEqual(['#1', '#2', `${queued}:0`]);
    expect(window.removePendingUserMessage(queued)).toBe(true);
    expect(window.log.map((e) => e.id)).toEqual(['#1', '#2']);
  });
});
