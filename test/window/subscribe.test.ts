import { describe, expect, it } from 'vitest';

import { ChunkWindow, type ChunkWindowSnapshot } from '../../src/window/index.js';
import { verifyRowCounts } from '../../src/window/row-count.js';
import { textBlock, turnOf } from './support/events.js';
import { MemoryThread, storedDrafts } from './support/page-source.js';

// Check the targeted row counting against a full recount after every event.
verifyRowCounts(true);

function setup(limit = 50) {
  const thread = new MemoryThread();
  const window = new ChunkWindow({ limit, loadPage: (r) => thread.page(r) });
  const seen: ChunkWindowSnapshot[] = [];
  const unsubscribe = window.subscribe((s) => seen.push(s));
  return { thread, window, seen, unsubscribe };
}

describe('subscribe and getSnapshot', () => {
  it('returns the same snapshot object while nothing changed, a new one after a change', () => {
    const { window } = setup();
    const a = window.getSnapshot();
    expect(window.getSnapshot()).toBe(a);
    expect(a.log).toBe(a.log);
    window.apply({ type: 'turn-start', turnId: 't' });
    const b = window.getSnapshot();
    expect(b).not.toBe(a);
    expect(window.getSnapshot()).toBe(b);
    expect(Object.isFrozen(b)).toBe(true);
  });

  it('calls listeners once per change with a consistent snapshot', () => {
    const { window, seen } = setup();
    window.apply({ type: 'turn-start', turnId: 't' });
    for (const e of textBlock('a', 'b')) window.apply(e);
    expect(seen.length).toBe(5);
    for (const s of seen) expect(s.liveTurnId).toBe('t');
    expect(seen.map((s) => (s.log[0]?.type === 'text' ? s.log[0].data.text : null))).toEqual([
      null,
      '',
      'a',
      'ab',
      'ab',
    ]);
    expect(seen.at(-1)).toBe(window.getSnapshot());
  });

  it('does not call listeners for calls that change nothing', async () => {
    const { thread, window, seen } = setup(5);
    thread.append(storedDrafts('old', turnOf('old', 2)));
    await window.loadOlder();
    const count = seen.length;
    window.setScrolledUp(false); // already at the bottom
    window.evict(); // nothing over the limit
    window.evict({ force: true });
    expect(window.removePendingUserMessage('nope')).toBe(false);
    window.apply({ type: 'turn-start', turnId: 'old' }); // replay of a stored turn
    const snapshot = window.getSnapshot();
    for (const e of textBlock('ignored')) window.apply(e);
    expect(window.getSnapshot()).toBe(snapshot);
    expect(seen.length).toBe(count);
  });

  it('keeps log and groups identical when only a flag changes', () => {
    const { window, seen } = setup();
    for (const e of turnOf('t', 2)) window.apply(e);
    const before = window.getSnapshot();
    window.setScrolledUp(true);
    const after = window.getSnapshot();
    expect(after).not.toBe(before);
    expect(after.scrolledUp).toBe(true);
    expect(after.log).toBe(before.log);
    expect(after.groups).toBe(before.groups);
    expect(seen.at(-1)).toBe(after);
  });

  it('stops calling after unsubscribe; the same function may subscribe twice', () => {
    const { window, seen, unsubscribe } = setup();
    const calls: number[] = [];
    const listener = () => calls.push(1);
    const off1 = window.subscribe(listener);
    const off2 = window.subscribe(listener);
    window.apply({ type: 'turn-start', turnId: 't' });
    expect(calls).toHaveLength(2);
    off1();
    window.apply({ type: 'text-start' });
    expect(calls).toHaveLength(3);
    off2();
    unsubscribe();
    const count = seen.length;
    window.apply({ type: 'text-delta', text: 'x' });
    expect(calls).toHaveLength(3);
    expect(seen).toHaveLength(count);
  });

  it('delivers the latest snapshot when a listener changes the window', () => {
    const { window, seen } = setup();
    window.subscribe((s) => {
      if (s.liveTurnId === 't' && s.log.length === 0)
        window.apply({ type: 'text-delta', text: 'auto' });
    });
    window.apply({ type: 'turn-start', turnId: 't' });
    expect(window.log).toHaveLength(1);
    expect(seen.at(-1)).toBe(window.getSnapshot());
    expect(seen.at(-1)?.log).toHaveLength(1);
  });

  it('works unbound, as useSyncExternalStore calls it', () => {
    const { window } = setup();
    const { subscribe, getSnapshot } = window;
    let notified = 0;
    const off = subscribe(() => notified++);
    window.apply({ type: 'turn-start', turnId: 't' });
    expect(getSnapshot()).toBe(window.getSnapshot());
    expect(notified).toBe(1);
    off();
  });

  it('reports a throwing listener without breaking the others or the window', async () => {
    const { window, seen } = setup();
    const reported: unknown[] = [];
    const original = (globalThis as { reportError?: unknown }).reportError;
    (globalThis as { reportError?: unknown }).reportError = (e: unknown) => reported.push(e);
    try {
      window.subscribe(() => {
        throw new Error('bad listener');
      });
      window.apply({ type: 'turn-start', turnId: 't' });
      expect(seen.at(-1)?.liveTurnId).toBe('t');
      expect(reported).toEqual([new Error('bad listener')]);
    } finally {
      (globalThis as { reportError?: unknown }).reportError = original;
    }
  });
});
