import { describe, expect, it } from 'vitest';

import type { ChunkEvent } from '../../src/schema/index.js';
import { ChunkWindow } from '../../src/window/index.js';
import { verifyRowCounts } from '../../src/window/row-count.js';
import { textBlock, turnOf } from './support/events.js';
import { MemoryThread, storedDrafts } from './support/page-source.js';

// Check the targeted row counting against a full recount after every event.
verifyRowCounts(true);

function windowOver(thread: MemoryThread, limit: number, pageSize?: number): ChunkWindow {
  return new ChunkWindow({
    limit,
    ...(pageSize === undefined ? {} : { pageSize }),
    loadPage: (r) => thread.page(r),
  });
}

describe('rolling eviction', () => {
  it('trims the leading chunks of a single giant live turn, one chunk at a time', () => {
    const window = windowOver(new MemoryThread(), 10);
    window.apply({ type: 'turn-start', turnId: 'big' });
    for (let i = 0; i < 50; i++) {
      for (const event of textBlock(`chunk ${i}`)) window.apply(event);
      expect(window.log.length).toBeLessThanOrEqual(10);
    }
    const log = window.log;
    expect(log).toHaveLength(10);
    // The newest ten chunks stay, with ids that count the evicted rows.
    expect(log.map((e) => e.id)).toEqual(Array.from({ length: 10 }, (_, i) => `big:${40 + i}`));
    expect(log.map((e) => (e.type === 'text' ? e.data.text : ''))).toEqual(
      Array.from({ length: 10 }, (_, i) => `chunk ${40 + i}`),
    );
    expect(log.every((e) => e.live && e.seq === null && e.turnId === 'big')).toBe(true);
    expect(window.getSnapshot().liveTurn?.chunkCount).toBe(10);
    expect(window.getSnapshot().liveTurn?.evicted).toBe(40);
  });

  it('never evicts the open chunk, even when it is all that is left', () => {
    const window = windowOver(new MemoryThread(), 2);
    window.apply({ type: 'turn-start', turnId: 't' });
    for (const event of [...textBlock('a'), ...textBlock('b')]) window.apply(event);
    window.apply({ type: 'text-start' });
    window.apply({ type: 'text-delta', text: 'open…' });
    // Two closed chunks and the open one: over the limit by one, the oldest closed one goes.
    expect(window.log.map((e) => e.id)).toEqual(['t:1', 't:2']);
    for (let i = 0; i < 20; i++) window.apply({ type: 'text-delta', text: '.' });
    const open = window.log[window.log.length - 1];
    expect(open?.type === 'text' && open.data.text).toBe(`open…${'.'.repeat(20)}`);
    expect(window.evict({ force: true })).toBe(0);
  });

  it('drops the oldest stored rows before any live chunk', async () => {
    const thread = new MemoryThread();
    thread.append(storedDrafts('old', turnOf('old', 5), 'hi'));
    const window = windowOver(thread, 8);
    await window.loadOlder();
    expect(window.log.map((e) => e.id)).toEqual(['#1', '#2', '#3', '#4', '#5', '#6']);
    window.apply({ type: 'turn-start', turnId: 'new' });
    for (const event of [...textBlock('x'), ...textBlock('y'), ...textBlock('z')]) {
      window.apply(event);
    }
    expect(window.log.map((e) => e.id)).toEqual([
      '#2',
      '#3',
      '#4',
      '#5',
      '#6',
      'new:0',
      'new:1',
      'new:2',
    ]);
    expect(window.oldestSeq).toBe(2);
    expect(window.hasOlder).toBe(true);
  });

  it('evicts nothing while scrolled up unless forced, and catches up at the bottom', () => {
    const window = windowOver(new MemoryThread(), 3);
    window.setScrolledUp(true);
    window.apply({ type: 'turn-start', turnId: 't' });
    for (let i = 0; i < 6; i++) for (const event of textBlock(`${i}`)) window.apply(event);
    expect(window.log).toHaveLength(6);
    expect(window.evict()).toBe(0);
    expect(window.log).toHaveLength(6);
    expect(window.evict({ force: true })).toBe(3);
    expect(window.log.map((e) => e.id)).toEqual(['t:3', 't:4', 't:5']);
    for (let i = 6; i < 9; i++) for (const event of textBlock(`${i}`)) window.apply(event);
    expect(window.log).toHaveLength(6);
    window.setScrolledUp(false);
    expect(window.log.map((e) => e.id)).toEqual(['t:6', 't:7', 't:8']);
  });
});

describe('eviction edge cases', () => {
  it('drops a closed chunk with more rows than the limit whole; its late results are orphans until reconcile', async () => {
    const thread = new MemoryThread();
    const window = new ChunkWindow({ limit: 2, loadPage: (r) => thread.page(r) });
    const events: ChunkEvent[] = [
      { type: 'turn-start', turnId: 't' },
      { type: 'tool-call', toolCallId: 'a', toolName: 'read', input: {} },
      { type: 'tool-call', toolCallId: 'b', toolName: 'read', input: {} },
      { type: 'tool-result', toolCallId: 'a', toolName: 'read', output: 'A' },
    ];
    for (const e of events) window.apply(e);
    // call a, call b, result a: 3 rows > 2, and the batch is not open: it goes whole.
    expect(window.log).toEqual([]);
    const late: ChunkEvent = {
      type: 'tool-result',
      toolCallId: 'b',
      toolName: 'read',
      output: 'B',
    };
    window.apply(late);
    expect(window.groups[0]?.chunks[0]).toMatchObject({
      type: 'tool-batch',
      calls: [{ id: 'b', orphan: true, result: 'B' }],
    });
    window.apply({ type: 'turn-end' });
    thread.append(storedDrafts('t', [...events, late]));
    await window.reconcile();
    expect(window.log.map((e) => e.seq)).toEqual([3, 4]);
  });

  it('forgets ended turns that eviction emptied, so turns without a reconcile do not pile up', () => {
    const window = windowOver(new MemoryThread(), 3);
    for (let t = 0; t < 20; t++) {
      window.addPendingUserMessage(`q${t}`);
      for (const e of turnOf(`t${t}`, 2)) window.apply(e);
    }
    expect(window.log.map((e) => e.id)).toEqual(['~pending-39:0', 't19:0', 't19:1']);
    expect(window.groups.map((m) => m.id)).toEqual(['t19:user', 't19:assistant']);
    // Internal: only the last turn and its message are left.
    const segments = (window as unknown as { state: { segments: unknown[] } }).state.segments;
    expect(segments).toHaveLength(2);
  });

  it('does not show a pending message of a turn that is already stored', async () => {
    const thread = new MemoryThread();
    thread.append(storedDrafts('t', turnOf('t', 1), 'hi'));
    const window = windowOver(thread, 10);
    await window.loadOlder();
    const before = window.getSnapshot();
    window.addPendingUserMessage('hi', { turnId: 't' });
    expect(window.getSnapshot()).toBe(before);
  });
});
