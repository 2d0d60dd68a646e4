import { describe, expect, it } from 'vitest';

import { ChunklogError } from '../../src/errors/index.js';
import type { ChunkEvent } from '../../src/schema/index.js';
import { groupRowsToMessages } from '../../src/transforms/index.js';
import { type ChunkPage, ChunkWindow, type LoadPageRequest } from '../../src/window/index.js';
import { verifyRowCounts } from '../../src/window/row-count.js';
import { textBlock, toolRound, turnOf } from './support/events.js';
import { controlledSource, flush, MemoryThread, storedDrafts } from './support/page-source.js';

// Check the targeted row counting against a full recount after every event.
verifyRowCounts(true);

function seqs(window: ChunkWindow): Array<number | null> {
  return window.log.map((e) => e.seq);
}

function threadOfTurns(turns: number, blocks: number): MemoryThread {
  const thread = new MemoryThread();
  for (let t = 0; t < turns; t++)
    thread.append(storedDrafts(`t${t}`, turnOf(`t${t}`, blocks), `q${t}`));
  return thread;
}

describe('loadOlder', () => {
  it('loads the newest page first, then older pages before the oldest seq, to the start', async () => {
    const thread = threadOfTurns(4, 4); // 20 rows
    const requests: LoadPageRequest[] = [];
    const window = new ChunkWindow({
      limit: 100,
      pageSize: 8,
      loadPage: (r) => {
        requests.push(r);
        return thread.page(r);
      },
    });
    expect(window.hasOlder).toBe(true);
    await window.loadOlder();
    expect(seqs(window)).toEqual([13, 14, 15, 16, 17, 18, 19, 20]);
    expect(window.total).toBe(20);
    await window.loadOlder();
    await window.loadOlder();
    expect(seqs(window)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(window.oldestSeq).toBe(1);
    expect(window.hasOlder).toBe(false);
    await window.loadOlder(); // nothing older: no request
    expect(requests).toEqual([{ limit: 8 }, { limit: 8, before: 13 }, { limit: 8, before: 5 }]);
    expect(window.groups).toEqual(groupRowsToMessages(thread.rows));
  });

  it('merges overlapping pages with each seq once, in seq order', async () => {
    const thread = threadOfTurns(3, 3); // 12 rows
    let calls = 0;
    const window = new ChunkWindow({
      limit: 100,
      pageSize: 4,
      loadPage: (r): ChunkPage => {
        calls++;
        // A sloppy server: every older page also repeats three newer rows.
        const page = thread.page(r);
        const before = r.before;
        if (before === undefined) return page;
        const chunks = thread.rows.filter(
          (row) => row.seq >= (page.oldestSeq ?? 1) && row.seq < before + 3,
        );
        return { ...page, chunks };
      },
    });
    await window.loadOlder();
    await window.loadOlder();
    await window.loadOlder();
    expect(calls).toBe(3);
    expect(seqs(window)).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
    expect(new Set(window.log.map((e) => e.id)).size).toBe(12);
    expect(window.groups).toEqual(groupRowsToMessages(thread.rows));
  });

  it('rejoins a turn split at a page boundary into one message', async () => {
    const thread = new MemoryThread();
    const events: ChunkEvent[] = [
      { type: 'turn-start', turnId: 'split' },
      { type: 'tool-call', toolCallId: 'a', toolName: 'read', input: {} },
      { type: 'tool-call', toolCallId: 'b', toolName: 'read', input: {} },
      { type: 'tool-result', toolCallId: 'a', toolName: 'read', output: 'A' },
      { type: 'tool-result', toolCallId: 'b', toolName: 'read', output: 'B' },
      ...textBlock('done'),
      { type: 'turn-end' },
    ];
    // user text, call a, call b, result a, result b, text: the boundary falls between the calls
    // and their results.
    thread.append(storedDrafts('split', events, 'go'));
    const window = new ChunkWindow({ limit: 100, pageSize: 3, loadPage: (r) => thread.page(r) });
    await window.loadOlder();
    expect(seqs(window)).toEqual([4, 5, 6]);
    const before = window.groups;
    expect(before.map((m) => m.id)).toEqual(['split:assistant']);
    expect(before[0]?.chunks[0]).toMatchObject({ type: 'tool-batch' });
    await window.loadOlder();
    expect(seqs(window)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(window.groups.map((m) => m.id)).toEqual(['split:user', 'split:assistant']);
    expect(window.groups).toEqual(groupRowsToMessages(thread.rows));
    const batch = window.groups[1]?.chunks[0];
    expect(
      batch?.type === 'tool-batch' && batch.calls.map((c) => [c.id, c.result, c.orphan]),
    ).toEqual([
      ['a', 'A', undefined],
      ['b', 'B', undefined],
    ]);
  });

  it('shares one request between concurrent calls', async () => {
    const thread = threadOfTurns(2, 2);
    const source = controlledSource(thread);
    const window = new ChunkWindow({ limit: 100, loadPage: source.loadPage });
    const a = window.loadOlder();
    const b = window.loadOlder();
    expect(a).toBe(b);
    expect(source.requests).toHaveLength(1);
    expect(window.getSnapshot().loadingOlder).toBe(true);
    source.next().resolve();
    await Promise.all([a, b]);
    expect(window.getSnapshot().loadingOlder).toBe(false);
    expect(seqs(window)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('leaves the state as it was when a load fails, with a typed error, and can retry', async () => {
    const thread = threadOfTurns(3, 2); // 9 rows
    let fail = false;
    const window = new ChunkWindow({
      limit: 100,
      pageSize: 5,
      loadPage: (r) => {
        if (fail) throw new Error('network down');
        return thread.page(r);
      },
    });
    await window.loadOlder();
    const log = window.log;
    fail = true;
    const error = await window.loadOlder().catch((e: unknown) => e);
    expect(ChunklogError.hasCode(error, 'load-failed')).toBe(true);
    expect((error as ChunklogError).message).toContain('network down');
    expect(((error as ChunklogError).cause as Error).message).toBe('network down');
    expect(window.log).toBe(log);
    expect(window.oldestSeq).toBe(5);
    expect(window.getSnapshot().loadingOlder).toBe(false);
    fail = false;
    await window.loadOlder();
    expect(seqs(window)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it('rejects a malformed page with load-failed caused by invalid-page', async () => {
    const bad: unknown[] = [
      { chunks: [{ seq: 1 }], total: 1, oldestSeq: 1, hasMore: false },
      { chunks: [], total: 0, oldestSeq: 3, hasMore: false },
      'not a page',
    ];
    for (const page of bad) {
      const window = new ChunkWindow({ limit: 10, loadPage: () => page as ChunkPage });
      const error = await window.loadOlder().catch((e: unknown) => e);
      expect(ChunklogError.hasCode(error, 'load-failed')).toBe(true);
      expect(ChunklogError.hasCode((error as ChunklogError).cause, 'invalid-page')).toBe(true);
      expect(window.log).toEqual([]);
      expect(window.hasOlder).toBe(true);
    }
    // Rows of another thread than the one held.
    const thread = threadOfTurns(2, 1);
    const other = new MemoryThread('thread-2');
    other.append(storedDrafts('x', turnOf('x', 1)));
    let source = thread;
    const window = new ChunkWindow({ limit: 10, pageSize: 3, loadPage: (r) => source.page(r) });
    await window.loadOlder();
    source = other;
    const error = await window.loadOlder().catch((e: unknown) => e);
    expect(ChunklogError.hasCode((error as ChunklogError).cause, 'invalid-page')).toBe(true);
  });

  it('drops a page that no longer joins the held rows', async () => {
    const thread = threadOfTurns(4, 4); // 20 rows
    const source = controlledSource(thread);
    const window = new ChunkWindow({ limit: 6, pageSize: 6, loadPage: source.loadPage });
    const first = window.loadOlder();
    source.next().resolve();
    await first;
    expect(seqs(window)).toEqual([15, 16, 17, 18, 19, 20]);
    const older = window.loadOlder(); // before 15
    // Meanwhile the user scrolls up, a live turn streams and a forced eviction drops stored rows:
    // the cursor moves to 18, and the page (rows 9-14) no longer joins.
    window.setScrolledUp(true);
    window.apply({ type: 'turn-start', turnId: 'live' });
    for (const e of [...textBlock('a'), ...textBlock('b'), ...textBlock('c')]) window.apply(e);
    expect(window.evict({ force: true })).toBe(3);
    expect(window.oldestSeq).toBe(18);
    const log = window.log;
    source.next().resolve();
    await older;
    expect(window.log).toBe(log);
    expect(seqs(window)).toEqual([18, 19, 20, null, null, null]);
    // The next call asks for the page before the new cursor.
    const again = window.loadOlder();
    expect(source.requests[0]?.request).toEqual({ limit: 6, before: 18 });
    source.next().resolve();
    await again;
    expect(seqs(window)).toEqual([12, 13, 14, 15, 16, 17, 18, 19, 20, null, null, null]);
  });

  it('replaces a live turn that the page shows is already stored', async () => {
    const thread = new MemoryThread();
    const events = turnOf('t', 2);
    const window = new ChunkWindow({ limit: 50, loadPage: (r) => thread.page(r) });
    for (const e of events) window.apply(e);
    expect(window.log.every((e) => e.live)).toBe(true);
    thread.append(storedDrafts('t', events));
    await window.loadOlder();
    expect(seqs(window)).toEqual([1, 2]);
    expect(window.liveTurnId).toBe(null);
    // Late events of that turn are dropped, the next turn streams normally.
    window.apply({ type: 'turn-start', turnId: 't' });
    for (const e of textBlock('again')) window.apply(e);
    expect(seqs(window)).toEqual([1, 2]);
    for (const e of turnOf('u', 1)) window.apply(e);
    expect(seqs(window)).toEqual([1, 2, null]);
  });

  it('keeps concurrent loads and tool rows of different pages consistent', async () => {
    const thread = new MemoryThread();
    thread.append(
      storedDrafts('tools', [{ type: 'turn-start', turnId: 'tools' }, ...toolRound('c', 'out')]),
    );
    const window = new ChunkWindow({ limit: 50, pageSize: 1, loadPage: (r) => thread.page(r) });
    await window.loadOlder();
    expect(window.groups[0]?.chunks[0]).toMatchObject({
      type: 'tool-batch',
      calls: [{ id: 'c', orphan: true, result: 'out' }],
    });
    await window.loadOlder();
    await flush();
    expect(window.groups).toEqual(groupRowsToMessages(thread.rows));
    expect(window.hasOlder).toBe(false);
  });
});
