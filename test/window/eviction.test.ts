import { describe, expect, it, vi } from 'vitest';

vi.mock('../../src/reducer/index.js', () => import('./support/stand-in-reducer.js'));
vi.mock('../../src/transforms/index.js', () => import('./support/stand-in-transforms.js'));

import { ChunkWindow } from '../../src/window/index.js';
import { textBlock, turnOf } from './support/events.js';
import { MemoryThread, storedDrafts } from './support/page-source.js';

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
