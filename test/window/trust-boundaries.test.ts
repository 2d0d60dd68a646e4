// The window validates every argument of its methods; a refused call changes nothing, not even
// mid-turn with rows already held.
import { describe, expect, it } from 'vitest';
import type { ChunkEvent } from '../../src/schema/index.js';
import { ChunkAlternatives, ChunkWindow } from '../../src/window/index.js';
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

  it('every refusal names the method and the argument, as `Class.method: …`', () => {
    const { window } = windowWithData();
    const alternatives = new ChunkAlternatives({
      window,
      loadAlternatives: () => undefined,
      switchAlternative: () => undefined,
    });
    let requests = 0;
    const start = async () => {
      requests++;
      return { turnId: 'v2' };
    };
    const refusals: [() => unknown, string, string | undefined, string][] = [
      [
        () => window.subscribe('render' as never),
        'invalid-option',
        'listener',
        'ChunkWindow.subscribe: `listener` must be a function',
      ],
      [
        () => window.addPendingUserMessage('hi', { turnId: '' }),
        'invalid-option',
        'turnId',
        'ChunkWindow.addPendingUserMessage: `turnId` must be a non-empty string',
      ],
      [
        () => window.addPendingUserMessage('hi', { turnId: 7 as never }),
        'invalid-option',
        'turnId',
        'ChunkWindow.addPendingUserMessage: `turnId` must be a non-empty string',
      ],
      [
        () => window.apply({ type: 'turn-start', turnId: 7 } as unknown as ChunkEvent),
        'invalid-event',
        undefined,
        'ChunkWindow.apply: Invalid chunk event at turnId: Invalid input: expected string, received number (got 7)',
      ],
      [
        () => window.apply({ type: 'text-delta', text: 'x' }, { id: 5 as never }),
        'invalid-option',
        'id',
        'ChunkWindow.apply: `id` must be a string',
      ],
      [
        () => window.setScrolledUp('yes' as never),
        'invalid-option',
        'scrolledUp',
        'ChunkWindow.setScrolledUp: `scrolledUp` must be a boolean',
      ],
      [
        () => window.evict({ force: 1 } as never),
        'invalid-option',
        'force',
        'ChunkWindow.evict: `force` must be a boolean',
      ],
      [
        () => window.reload({ keepTurnId: '' }),
        'invalid-option',
        'keepTurnId',
        'ChunkWindow.reload: `keepTurnId` must be a non-empty string',
      ],
      [
        () => alternatives.subscribe(5 as never),
        'invalid-option',
        'listener',
        'ChunkAlternatives.subscribe: `listener` must be a function',
      ],
      [
        () => alternatives.versionsOf(3 as never),
        'invalid-option',
        'turnId',
        'ChunkAlternatives.versionsOf: `turnId` must be a non-empty string',
      ],
      [
        () => alternatives.switchAlternative(''),
        'invalid-option',
        'threadId',
        'ChunkAlternatives.switchAlternative: `threadId` must be a non-empty string',
      ],
      [
        () => alternatives.startVersion('go' as never),
        'invalid-option',
        'start',
        'ChunkAlternatives.startVersion: `start` must be a function',
      ],
      [
        () => alternatives.startVersion(start, { content: 4 as never }),
        'invalid-option',
        'content',
        'ChunkAlternatives.startVersion: `content` must be a string or chunks',
      ],
      [
        () => alternatives.startVersion(start, { content: [{ type: 'text', step: 0 } as never] }),
        'invalid-chunk',
        undefined,
        'ChunkAlternatives.startVersion: invalid chunk at content[0].text: Invalid input: expected string, received undefined (got undefined)',
      ],
    ];
    const snapshot = window.getSnapshot();
    for (const [run, code, option, message] of refusals) {
      const error = thrown(run);
      expect({ code: error.code, option: error.option, message: error.message }).toEqual({
        code,
        option,
        message,
      });
    }
    expect(window.getSnapshot()).toBe(snapshot);
    expect(requests).toBe(0);
  });
});
