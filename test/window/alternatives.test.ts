// Alternatives in the window (issue 32): `ChunkWindow.reload` holds only the new active path, with
// the eviction and paging of a fresh window; `ChunkAlternatives` lists each turn's versions and
// switches between them; a new version (edit, regenerate) keeps its live turn across the reload.
import { describe, expect, it } from 'vitest';

import { ChunklogError } from '../../src/errors/index.js';
import type { ChunkEvent } from '../../src/schema/index.js';
import {
  ChunkAlternatives,
  type ChunkPage,
  ChunkWindow,
  indexTurnVersions,
  type LoadPageRequest,
  parseThreadAlternatives,
} from '../../src/window/index.js';
import { verifyRowCounts } from '../../src/window/row-count.js';
import { FakeConversation } from './support/conversation.js';
import { textBlock, turnOf } from './support/events.js';
import { controlledSource, flush, storedDrafts } from './support/page-source.js';

verifyRowCounts(true);

/** A conversation of `turns` turns of `blocks` text blocks (a user row, then `blocks` rows each). */
function conversationOf(turns: number, blocks: number, prefix = 't'): FakeConversation {
  const chat = new FakeConversation();
  for (let t = 0; t < turns; t++) {
    chat.append(storedDrafts(`${prefix}${t}`, turnOf(`${prefix}${t}`, blocks), `q${t}`));
  }
  return chat;
}

function errorOf(run: () => unknown): ChunklogError {
  try {
    run();
  } catch (error) {
    if (ChunklogError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('did not throw');
}

async function rejectionOf(promise: Promise<unknown>): Promise<ChunklogError> {
  try {
    await promise;
  } catch (error) {
    if (ChunklogError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('did not reject');
}

describe('ChunkWindow.reload', () => {
  it('drops the old path and pages the new one by its own seqs', async () => {
    const chat = conversationOf(4, 4); // t0..t3, 5 rows each: seqs 1-20
    const requests: LoadPageRequest[] = [];
    const window = new ChunkWindow({
      limit: 100,
      pageSize: 6,
      loadPage: (r) => {
        requests.push(r);
        return chat.page(r);
      },
    });
    await window.loadOlder();
    await window.loadOlder();
    expect(window.log.map((e) => e.seq)).toEqual(Array.from({ length: 12 }, (_, i) => i + 9));

    // A new version of t1: the path is t0, then b1 (seqs 6-8), then b2 (seqs 9-11).
    chat.fork('t1', 'chat-1~b');
    chat.append(storedDrafts('b1', turnOf('b1', 2), 'q1 again'));
    chat.append(storedDrafts('b2', turnOf('b2', 2), 'q2 again'));
    requests.length = 0;
    await window.reload();
    expect(requests).toEqual([{ limit: 6 }]);
    expect(window.log.map((e) => e.seq)).toEqual([6, 7, 8, 9, 10, 11]);
    expect(window.log.map((e) => e.turnId)).toEqual(['b1', 'b1', 'b1', 'b2', 'b2', 'b2']);
    expect(window.total).toBe(11);
    expect(window.hasOlder).toBe(true);
    // Older pages continue below the new path's seqs, down to its start.
    await window.loadOlder();
    expect(requests.at(-1)).toEqual({ limit: 6, before: 6 });
    expect(window.log.map((e) => e.seq)).toEqual(Array.from({ length: 11 }, (_, i) => i + 1));
    expect(window.hasOlder).toBe(false);
    expect(new Set(window.log.map((e) => e.turnId))).toEqual(new Set(['t0', 'b1', 'b2']));
    expect(window.groups.map((m) => m.id)).toEqual([
      't0:user',
      't0:assistant',
      'b1:user',
      'b1:assistant',
      'b2:user',
      'b2:assistant',
    ]);
  });

  it('holds no more than `limit` entries after a reload, and evicts by the new path', async () => {
    const chat = conversationOf(6, 5); // 36 rows
    const window = new ChunkWindow({ limit: 10, pageSize: 8, loadPage: (r) => chat.page(r) });
    await window.loadOlder();
    window.setScrolledUp(true);
    await window.loadOlder();
    await window.loadOlder();
    expect(window.log.length).toBe(24); // scrolled up: nothing evicted
    window.setScrolledUp(false);
    expect(window.log.length).toBe(10);

    chat.fork('t5', 'chat-1~b');
    await window.reload();
    // The new path is t0-t4 (30 rows): the newest page of it, nothing of t5.
    expect(window.log.map((e) => e.seq)).toEqual([23, 24, 25, 26, 27, 28, 29, 30]);
    expect(window.log.some((e) => e.turnId === 't5')).toBe(false);
    // A long live turn on the new path: rolling eviction keeps the log within the limit.
    let most = 0;
    window.apply({ type: 'turn-start', turnId: 'b5' });
    for (let i = 0; i < 40; i++) {
      for (const event of textBlock(`b5-${i}`)) window.apply(event);
      most = Math.max(most, window.log.length);
    }
    expect(most).toBeLessThanOrEqual(10 + 1); // the open chunk may exceed it
    expect(window.log.every((e) => e.turnId === 'b5')).toBe(true);
  });

  it('drops a page of the old path that lands after the reload', async () => {
    const chat = conversationOf(3, 2); // 9 rows
    const source = controlledSource(chat.path);
    const window = new ChunkWindow({ limit: 50, pageSize: 4, loadPage: source.loadPage });
    const first = window.loadOlder();
    const old = source.next();
    chat.fork('t2', 'chat-1~b'); // the new path: t0, t1 (6 rows)
    const reloaded = window.reload();
    const fresh = source.next();
    expect(window.getSnapshot().loadingOlder).toBe(true);
    old.resolve(); // the old path's tail (rows of t2), landing first: dropped
    await first;
    expect(window.log).toEqual([]);
    fresh.resolve(chat.page(fresh.request));
    await reloaded;
    expect(window.log.map((e) => e.seq)).toEqual([3, 4, 5, 6]);
    expect(window.log.some((e) => e.turnId === 't2')).toBe(false);
    expect(window.getSnapshot().loadingOlder).toBe(false);
  });

  it("drops a reconcile's tail of the old path", async () => {
    const chat = conversationOf(2, 2);
    let hold: ((page: ChunkPage) => void) | undefined;
    let held = false;
    const window = new ChunkWindow({
      limit: 50,
      loadPage: (r) => {
        if (!held) return chat.page(r);
        return new Promise<ChunkPage>((resolve) => {
          hold = resolve;
        });
      },
    });
    await window.loadOlder();
    const oldTail = chat.page({ limit: 50 });
    held = true;
    const reconciled = window.reconcile();
    held = false;
    chat.fork('t1', 'chat-1~b');
    await window.reload();
    expect(window.log.map((e) => e.turnId)).toEqual(['t0', 't0', 't0']);
    hold?.(oldTail); // t1's rows, of the old path
    await reconciled;
    expect(window.log.map((e) => e.turnId)).toEqual(['t0', 't0', 't0']);
  });

  it('keeps the turn that started the new version, and leaves its running rows to its events', async () => {
    const chat = conversationOf(2, 2);
    let running: string | undefined;
    const window = new ChunkWindow({
      limit: 50,
      loadPage: (r) => {
        const page = chat.page(r);
        return running === undefined ? page : { ...page, turnStatus: { [running]: 'running' } };
      },
    });
    await window.loadOlder();
    // The regenerate's turn starts streaming before its POST answered.
    const events: ChunkEvent[] = turnOf('n1', 3);
    window.apply(events[0] as ChunkEvent);
    window.apply(events[1] as ChunkEvent);
    for (const e of textBlock('n1-0')) window.apply(e);
    chat.fork('t1', 'chat-1~b');
    chat.append(storedDrafts('n1', [], 'q1')); // its user row is stored, the answer runs
    running = 'n1';
    const reloaded = window.reload({ keepTurnId: 'n1' });
    window.addPendingUserMessage('q1', { turnId: 'n1' });
    await reloaded;
    expect(window.log.filter((e) => !e.live).map((e) => e.turnId)).toEqual(['t0', 't0', 't0']);
    for (const e of events.slice(5)) window.apply(e);
    expect(window.groups.map((m) => m.id)).toEqual([
      't0:user',
      't0:assistant',
      'n1:user',
      'n1:assistant',
    ]);
    expect(window.groups.at(-1)?.chunks.map((c) => ('text' in c ? c.text : ''))).toEqual([
      'n1-0',
      'n1-1',
      'n1-2',
    ]);
    expect(window.log.some((e) => e.turnId === 't1')).toBe(false);
  });

  it('validates its options', () => {
    const window = new ChunkWindow({
      limit: 5,
      loadPage: () => conversationOf(0, 0).page({ limit: 5 }),
    });
    expect(errorOf(() => window.reload({ keepTurnId: '' }))).toMatchObject({
      code: 'invalid-option',
      option: 'keepTurnId',
    });
    expect(
      errorOf(() => window.reload({ keepTurn: 'x' } as unknown as { keepTurnId: string })),
    ).toMatchObject({ code: 'invalid-option' });
  });
});

describe('ChunkAlternatives', () => {
  function setUp(chat: FakeConversation, pageSize = 50) {
    const window = new ChunkWindow({ limit: 100, pageSize, loadPage: (r) => chat.page(r) });
    const switched: string[] = [];
    const alternatives = new ChunkAlternatives({
      window,
      loadAlternatives: async () => chat.alternatives(),
      switchAlternative: async (threadId) => {
        switched.push(threadId);
        return chat.switchTo(threadId);
      },
    });
    return { window, alternatives, switched };
  }

  it("lists a turn's versions and switches between them, reloading the window", async () => {
    const chat = conversationOf(2, 2); // t0, t1
    chat.fork('t1', 'chat-1~b');
    chat.append(storedDrafts('r1', turnOf('r1', 2, 'again'), 'q1'));
    const { window, alternatives, switched } = setUp(chat);
    await window.loadOlder();
    await alternatives.refresh();
    const seen: boolean[] = [];
    alternatives.subscribe((s) => seen.push(s.switching));

    const v = alternatives.versionsOf('r1');
    expect(v).toMatchObject({ turnId: 'r1', atSeq: 3, index: 1, count: 2 });
    expect(v?.versions.map((x) => x.threadId)).toEqual(['chat-1', 'chat-1~b']);
    expect(alternatives.versionsOf('t0')).toBeUndefined();
    expect(window.groups.at(-1)?.chunks.map((c) => ('text' in c ? c.text : ''))).toEqual([
      'again-0',
      'again-1',
    ]);

    await alternatives.switchAlternative('chat-1');
    expect(switched).toEqual(['chat-1']);
    expect(seen).toEqual([true, true, false]); // busy, the new answer, done
    expect(alternatives.getSnapshot().switching).toBe(false);
    expect(window.log.some((e) => e.turnId === 'r1')).toBe(false);
    expect(window.groups.map((m) => m.id)).toEqual([
      't0:user',
      't0:assistant',
      't1:user',
      't1:assistant',
    ]);
    expect(alternatives.versionsOf('t1')).toMatchObject({ index: 0, count: 2 });
  });

  it('follows a new version: the reload keeps its turn and shows its user message at once', async () => {
    const chat = conversationOf(2, 2);
    const { window, alternatives } = setUp(chat);
    await window.loadOlder();
    const started = alternatives.startVersion(
      async () => {
        chat.fork('t1', 'chat-1~e');
        return { turnId: 'e1' };
      },
      { content: 'q1, edited' },
    );
    expect(alternatives.getSnapshot().switching).toBe(true);
    expect(await started).toBe('e1');
    expect(window.log.map((e) => [e.turnId, e.pending])).toEqual([
      ['t0', false],
      ['t0', false],
      ['t0', false],
      ['e1', true],
    ]);
    for (const e of turnOf('e1', 1)) window.apply(e);
    chat.append(storedDrafts('e1', turnOf('e1', 1), 'q1, edited'));
    await window.reconcile();
    await alternatives.refresh();
    expect(window.log.every((e) => !e.live)).toBe(true);
    expect(window.groups.map((m) => m.id)).toEqual([
      't0:user',
      't0:assistant',
      'e1:user',
      'e1:assistant',
    ]);
    expect(alternatives.versionsOf('e1')).toMatchObject({ index: 1, count: 2 });
  });

  it('reloads again when the new version starts, if the server made it after it answered', async () => {
    const chat = conversationOf(2, 2);
    const { window, alternatives } = setUp(chat);
    await window.loadOlder();
    // The server answers first and makes the version when the turn is admitted, later.
    await alternatives.startVersion(async () => ({ turnId: 'e1' }), { content: 'q1, edited' });
    expect(window.log.map((e) => e.turnId)).toEqual(['t0', 't0', 't0', 't1', 't1', 't1', 'e1']);
    chat.fork('t1', 'chat-1~e');
    chat.append(storedDrafts('e1', [], 'q1, edited'));
    chat.running.add('e1');
    const events = turnOf('e1', 2);
    window.apply(events[0] as ChunkEvent); // turn-start: the version exists now
    await flush();
    expect(window.log.some((e) => e.turnId === 't1')).toBe(false);
    for (const e of events.slice(1)) window.apply(e);
    expect(window.groups.map((m) => m.id)).toEqual([
      't0:user',
      't0:assistant',
      'e1:user',
      'e1:assistant',
    ]);
    expect(alternatives.versionsOf('e1')).toMatchObject({ index: 1, count: 2 });
  });

  it('drops an answer that lands after a later one', async () => {
    const chat = conversationOf(2, 2);
    chat.fork('t1', 'chat-1~b');
    chat.append(storedDrafts('r1', turnOf('r1', 1), 'q1'));
    const stale = chat.alternatives();
    let release: (() => void) | undefined;
    const window = new ChunkWindow({ limit: 100, loadPage: (r) => chat.page(r) });
    let calls = 0;
    const alternatives = new ChunkAlternatives({
      window,
      loadAlternatives: () => {
        calls++;
        if (calls > 1) return chat.alternatives();
        return new Promise((resolve) => {
          release = () => resolve({ ...stale, branches: [] });
        });
      },
      switchAlternative: async (threadId) => chat.switchTo(threadId),
    });
    const first = alternatives.refresh();
    await alternatives.refresh();
    release?.();
    await first;
    expect(alternatives.versionsOf('r1')).toMatchObject({ index: 1, count: 2 });
  });

  it('switches to a version only `versions` lists (its branch point is off the active path)', async () => {
    const chat = conversationOf(3, 1); // t0, t1, t2: 2 rows each
    chat.fork('t1', 'chat-1~b');
    chat.append(storedDrafts('b1', turnOf('b1', 1), 'q1'));
    chat.append(storedDrafts('b2', turnOf('b2', 1), 'q2'));
    chat.fork('b2', 'chat-1~c'); // an edit of B's turn 2
    chat.append(storedDrafts('c2', turnOf('c2', 1), 'q2, edited'));
    chat.switchTo('chat-1'); // branches at turn 1 only: C branches on B, which it does not go through
    const { window, alternatives, switched } = setUp(chat);
    await window.loadOlder();
    await alternatives.refresh();
    const known = alternatives.getSnapshot().alternatives;
    expect(known?.branches.flatMap((b) => b.alternatives.map((v) => v.threadId))).toEqual([
      'chat-1',
      'chat-1~b',
    ]);
    expect(known?.versions).toEqual([
      {
        threadId: 'chat-1',
        createdAt: '2026-01-01T00:00:00.000Z',
        turnId: 't0',
        total: 6,
      },
      {
        threadId: 'chat-1~b',
        createdAt: '2026-01-01T00:01:00.000Z',
        forkOf: { threadId: 'chat-1', atSeq: 2 },
        turnId: 'b1',
        total: 6,
      },
      {
        threadId: 'chat-1~c',
        createdAt: '2026-01-01T00:02:00.000Z',
        forkOf: { threadId: 'chat-1~b', atSeq: 4 },
        turnId: 'c2',
        total: 6,
      },
    ]);
    await alternatives.switchAlternative('chat-1~c');
    expect(switched).toEqual(['chat-1~c']);
    expect(window.groups.map((m) => m.id)).toEqual([
      't0:user',
      't0:assistant',
      'b1:user',
      'b1:assistant',
      'c2:user',
      'c2:assistant',
    ]);
    expect(alternatives.getSnapshot().alternatives?.activePath).toBe('chat-1~c');
  });

  it('validates its arguments and what the server answers', async () => {
    const chat = conversationOf(2, 2);
    chat.fork('t1', 'chat-1~b');
    chat.append(storedDrafts('r1', turnOf('r1', 1), 'q1'));
    const { window, alternatives, switched } = setUp(chat);
    await alternatives.refresh();
    expect(errorOf(() => alternatives.switchAlternative(''))).toMatchObject({
      code: 'invalid-option',
      option: 'threadId',
    });
    expect(errorOf(() => alternatives.switchAlternative('chat-9'))).toMatchObject({
      code: 'invalid-option',
      option: 'threadId',
    });
    expect(switched).toEqual([]);
    expect(errorOf(() => alternatives.versionsOf(3 as unknown as string))).toMatchObject({
      code: 'invalid-option',
      option: 'turnId',
    });
    expect(
      errorOf(() =>
        alternatives.startVersion('go' as unknown as () => Promise<{ turnId: string }>),
      ),
    ).toMatchObject({ code: 'invalid-option', option: 'start' });
    expect(
      errorOf(() =>
        alternatives.startVersion(async () => ({ turnId: 'x' }), {
          content: 4 as unknown as string,
        }),
      ),
    ).toMatchObject({ code: 'invalid-option', option: 'content' });
    expect(
      errorOf(
        () =>
          new ChunkAlternatives({
            window,
            loadAlternatives: 'GET' as unknown as () => unknown,
            switchAlternative: () => undefined,
          }),
      ),
    ).toMatchObject({ code: 'invalid-option', option: 'loadAlternatives' });
    expect(
      errorOf(
        () =>
          new ChunkAlternatives({
            window: {} as ChunkWindow,
            loadAlternatives: () => undefined,
            switchAlternative: () => undefined,
          }),
      ),
    ).toMatchObject({ code: 'invalid-option', option: 'window' });

    // A malformed answer: load-failed with an invalid-page cause; the snapshot stays.
    const before = alternatives.getSnapshot();
    const bad = new ChunkAlternatives({
      window,
      loadAlternatives: async () => ({
        conversationId: 'chat-1',
        activePath: 'chat-1',
        branches: [{ atSeq: 3, active: 2, alternatives: [] }],
      }),
      switchAlternative: () => undefined,
    });
    const failure = await rejectionOf(bad.refresh());
    expect(failure.code).toBe('load-failed');
    expect((failure.cause as ChunklogError).code).toBe('invalid-page');
    expect(bad.getSnapshot().alternatives).toBeNull();
    expect(alternatives.getSnapshot()).toBe(before);
    const down = new ChunkAlternatives({
      window,
      loadAlternatives: () => Promise.reject(new Error('HTTP 503')),
      switchAlternative: () => undefined,
    });
    expect(await rejectionOf(down.refresh())).toMatchObject({
      code: 'load-failed',
      message: expect.stringContaining('HTTP 503'),
    });
  });

  it('parses and indexes the wire shape', () => {
    const parsed = parseThreadAlternatives({
      conversationId: 'c',
      activePath: 'c~2',
      branches: [
        {
          atSeq: 0,
          active: 1,
          alternatives: [
            { threadId: 'c', turnId: 'a', createdAt: '2026-01-01T00:00:00.000Z' },
            { threadId: 'c~2', turnId: null, createdAt: '2026-01-02T00:00:00.000Z' },
          ],
        },
      ],
    });
    const index = indexTurnVersions(parsed);
    expect([...index.keys()]).toEqual(['a']);
    expect(index.get('a')).toMatchObject({ index: 0, count: 2, atSeq: 0 });
    expect(
      errorOf(() => parseThreadAlternatives({ conversationId: '', branches: [] })),
    ).toMatchObject({
      code: 'invalid-page',
    });
  });
});

describe('parseThreadAlternatives: versions', () => {
  const own = { threadId: 'c', createdAt: '2026-01-01T00:00:00.000Z', turnId: 'a', total: 4 };
  const other = {
    threadId: 'c~2',
    createdAt: '2026-01-02T00:00:00.000Z',
    forkOf: { threadId: 'c', atSeq: 0 },
    turnId: 'b',
    total: 2,
  };
  const answer = {
    conversationId: 'c',
    activePath: 'c~2',
    branches: [
      {
        atSeq: 0,
        active: 1,
        alternatives: [
          { threadId: 'c', turnId: 'a', createdAt: own.createdAt },
          { threadId: 'c~2', turnId: 'b', createdAt: other.createdAt },
        ],
      },
    ],
    versions: [own, other],
  };

  it('gives every version as the server listed it', () => {
    const parsed = parseThreadAlternatives(answer);
    expect(parsed.versions).toEqual([own, other]);
    // A version without a fork or a turn of its own yet: absent or null, both taken.
    const bare = { threadId: 'c~3', createdAt: '2026-01-03T00:00:00.000Z', total: 0 };
    const nulls = { ...bare, threadId: 'c~4', forkOf: null, turnId: null };
    expect(
      parseThreadAlternatives({ ...answer, versions: [own, other, bare, nulls] }).versions,
    ).toEqual([own, other, bare, nulls]);
  });

  it('takes an answer without `versions` (an older server) as listing none', () => {
    const { versions: _, ...older } = answer;
    const parsed = parseThreadAlternatives(older);
    expect(parsed.versions).toEqual([]);
    expect(parsed.branches).toEqual(answer.branches);
    expect(parseThreadAlternatives({ ...answer, versions: [] }).versions).toEqual([]);
  });

  it('refuses a bad entry with invalid-page, naming the field', () => {
    const cases: [unknown, (string | number)[], string][] = [
      [{ ...other, total: -1 }, ['versions', 1, 'total'], 'versions[1].total'],
      [{ ...other, total: 1.5 }, ['versions', 1, 'total'], 'versions[1].total'],
      [{ ...other, threadId: '' }, ['versions', 1, 'threadId'], 'versions[1].threadId'],
      [{ ...other, createdAt: 7 }, ['versions', 1, 'createdAt'], 'versions[1].createdAt'],
      [{ ...other, turnId: '' }, ['versions', 1, 'turnId'], 'versions[1].turnId'],
      [
        { ...other, forkOf: { threadId: 'c', atSeq: -2 } },
        ['versions', 1, 'forkOf', 'atSeq'],
        'versions[1].forkOf.atSeq',
      ],
      [{ ...other, forkOf: 'c' }, ['versions', 1, 'forkOf'], 'versions[1].forkOf'],
      ['c~2', ['versions', 1], 'versions[1]'],
    ];
    for (const [entry, path, shown] of cases) {
      const error = errorOf(() => parseThreadAlternatives({ ...answer, versions: [own, entry] }));
      expect(error).toMatchObject({ code: 'invalid-page', path });
      expect(error.message).toContain(`Invalid alternatives at ${shown}:`);
    }
    expect(
      errorOf(() => parseThreadAlternatives({ ...answer, versions: { c: own } })),
    ).toMatchObject({ code: 'invalid-page', path: ['versions'] });
  });

  it("refuses a list that is not the conversation's versions", () => {
    const cases: [unknown[], (string | number)[], string][] = [
      [[other, own], ['versions', 0, 'threadId'], "start with the conversation's own thread"],
      [[own, other, { ...other }], ['versions', 2, 'threadId'], 'each thread once'],
      [[own], ['activePath'], 'the active path'],
    ];
    for (const [versions, path, wording] of cases) {
      const error = errorOf(() => parseThreadAlternatives({ ...answer, versions }));
      expect(error).toMatchObject({ code: 'invalid-page', path });
      expect(error.message).toContain(wording);
    }
  });

  it('fails ChunkAlternatives.refresh with load-failed, its cause naming the field', async () => {
    const window = new ChunkWindow({
      limit: 10,
      loadPage: () => ({ chunks: [], total: 0, oldestSeq: null, hasMore: false }),
    });
    const alternatives = new ChunkAlternatives({
      window,
      loadAlternatives: async () => ({ ...answer, versions: [own, { ...other, total: 'many' }] }),
      switchAlternative: () => undefined,
    });
    const failure = await rejectionOf(alternatives.refresh());
    expect(failure.code).toBe('load-failed');
    expect(failure.cause).toMatchObject({ code: 'invalid-page', path: ['versions', 1, 'total'] });
    expect(alternatives.getSnapshot().alternatives).toBeNull();
  });
});
