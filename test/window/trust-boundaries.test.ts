// The window validates every argument of its methods; a refused call changes nothing, not even
// mid-turn with rows already held.
import { describe, expect, it } from 'vitest';
import type { ChunkEvent } from '../../src/schema/index.js';
import { ChunkWindow } from '../../src/window/index.js';
import { rejected, thrown } from '../support/chunklog-error.js';
import { MemoryThread } from './support/page-source.js';

function windowWithData() {
  const thread = new MemoryThread();
  thread.append([{ turnId: 't0', step: 0, role: 'user', type: 'text', data: { text: 'stored' } }]);
  const window = new ChunkWindow({ limit: 50, loadPage: (r) => thread.page(r) });
  return { thread, window };
}

describe('window trust boundaries', () => {
  it('apply of a malformed event mid-turn leaves the log and snapshot as they were', async () => {
    const { window } = windowWithData();
    await window.loadOlder();
    window.apply({ type: 'turn-start', turnId: 't1' });
    window.apply({ type: 'text-delta', text: 'live' });
    const snapshot = window.getSnapshot();
    let notified = 0;
    window.subscribe(() => notified++);
    const error = thrown(() =>
      window.apply({ type: 'tool-result', toolCallId: 'c1' } as unknown as ChunkEvent),
    );
    expect(error.code).toBe('invalid-event');
    expect(error.path).toEqual(['output']);
    expect(window.getSnapshot()).toBe(snapshot);
    expect(window.log.map((e) => e.data)).toEqual([{ text: 'stored' }, { text: 'live' }]);
    expect(notified).toBe(0);
  });

  it('checks the arguments of subscribe, setScrolledUp, evict and addPendingUserMessage', () => {
    const { window } = windowWithData();
    const snapshot = window.getSnapshot();
    for (const [run, option] of [
      [() => window.subscribe('render' as never), 'listener'],
      [() => window.setScrolledUp('yes' as never), 'scrolledUp'],
      [() => window.evict({ force: 1 } as never), 'force'],
      [() => window.evict({ forced: true } as never), 'forced'],
      [() => window.addPendingUserMessage('hi', { turn: 't2' } as never), 'turn'],
    ] as const) {
      const error = thrown(run);
      expect(error.code).toBe('invalid-option');
      expect(error.option).toBe(option);
    }
    const content = thrown(() => window.addPendingUserMessage(5 as never));
    expect(content.code).toBe('invalid-chunk');
    expect(content.message).toMatch(/^ChunkWindow\.addPendingUserMessage:/);
    expect(window.getSnapshot()).toBe(snapshot);
    expect(window.scrolledUp).toBe(false);
  });

  it('a malformed page is load-failed with an invalid-page cause, and held rows stay', async () => {
    const { thread, window } = windowWithData();
    await window.loadOlder();
    const held = window.log;
    let bad = false;
    const broken = new ChunkWindow({
      limit: 50,
      loadPage: (r) => (bad ? { ...thread.page(r), oldestSeq: 99 } : thread.page(r)),
    });
    await broken.loadOlder();
    bad = true;
    const error = await rejected(broken.reconcile());
    expect(error.code).toBe('load-failed');
    expect((error.cause as { code?: string }).code).toBe('invalid-page');
    expect(broken.log).toEqual(held);
  });
});
