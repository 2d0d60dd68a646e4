// The conformance kit: alternatives inside a conversation — what getAlternatives answers (the
// active path, its branch points, every version) before and after addAlternative,
// switchAlternative, truncate and delete, and the errors of the alternatives calls.
import type { ChunkRow } from '../../schema/chunk-row.js';
import type { Alternatives, ThreadFork } from '../../store/types.js';
import { as, turnDrafts } from './drafts.js';
import type { Kit } from './kit.js';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Thread ids of one test: the conversation's (`alt-${label}`) and its versions'
 * (`alt-${label}-${letter}`). Made in the order of their letters, the versions' ids sort in the
 * order they were made (a digit sorts before a letter), so that two made in the same millisecond
 * are still ordered as made ("creation time, then id").
 */
function ids(kit: Kit, label: string) {
  return {
    conversation: kit.thread(`alt-${label}`),
    version: (letter: string) => kit.thread(`alt-${label}-${letter}`),
  };
}

/** A conversation of turns t1, t2 and t3, two rows each (seqs 1–6). */
async function threeTurns(kit: Kit, id: string): Promise<ChunkRow[]> {
  const rows: ChunkRow[] = [];
  for (const turnId of ['t1', 't2', 't3']) {
    rows.push(...(await kit.store.appendTurn(id, turnDrafts(turnId, 2))));
  }
  return rows;
}

/** The branch points in short: each version as `threadId/turnId`, `-` for a turn not written. */
function branchesOf(answer: Alternatives) {
  return answer.branches.map((b) => ({
    atSeq: b.atSeq,
    active: b.active,
    versions: b.alternatives.map((v) => `${v.threadId}/${v.turnId ?? '-'}`),
  }));
}

/** The versions in short: `[threadId, forkOf, turnId, total]`. */
function versionsOf(answer: Alternatives) {
  return answer.versions.map((v) => [v.threadId, v.forkOf, v.turnId, v.total]);
}

/** A version in short, as {@link versionsOf} gives it. */
const version = (
  threadId: string,
  forkOf: ThreadFork | undefined,
  turnId: string | undefined,
  total: number,
) => [threadId, forkOf, turnId, total];

/** Checks that each version's `createdAt` is its thread's. */
async function expectCreatedAt(kit: Kit, answer: Alternatives): Promise<void> {
  for (const v of answer.versions) {
    kit.api
      .expect(v.createdAt, `createdAt of version ${v.threadId}`)
      .toBe((await kit.store.getThread(v.threadId)).createdAt);
  }
}

/**
 * Checks the `createdAt` of each version a branch point lists: the age of the thread that wrote
 * it (`writers`, per branch point), whichever thread it is listed by.
 */
async function expectListedAges(
  kit: Kit,
  answer: Alternatives,
  writers: readonly (readonly string[])[],
): Promise<void> {
  const age = async (threadId: string) => (await kit.store.getThread(threadId)).createdAt;
  const expected = await Promise.all(writers.map((point) => Promise.all(point.map(age))));
  kit.api
    .expect(
      answer.branches.map((b) => b.alternatives.map((v) => v.createdAt)),
      "createdAt of each listed version: its writer's",
    )
    .toEqual(expected);
}

/**
 * A conversation with versions made inside a version: B edits t2 and goes on (t2b, t3b); C
 * regenerates B's t3 (t3c); D regenerates C's t3 and is not written yet. D is active. C and D
 * branch at seq 4, which B's own rows hold: both are B's forks.
 */
async function nested(kit: Kit) {
  const s = kit.store;
  const id = ids(kit, 'nest');
  const c = id.conversation;
  const [b, cc, d] = ['b', 'c', 'd'].map(id.version) as [string, string, string];
  await threeTurns(kit, c);
  // Made a few milliseconds apart, so that each version's age is its own.
  await pause(3);
  await s.addAlternative(c, { turnId: 't2', newThreadId: b });
  await s.appendTurn(b, turnDrafts('t2b', 2));
  await s.appendTurn(b, turnDrafts('t3b', 2));
  await pause(3);
  const madeC = await s.addAlternative(c, { turnId: 't3b', newThreadId: cc });
  await s.appendTurn(cc, turnDrafts('t3c', 2));
  await pause(3);
  const madeD = await s.addAlternative(c, { turnId: 't3c', newThreadId: d });
  const versions = [
    version(c, undefined, 't1', 6),
    version(b, { threadId: c, atSeq: 2 }, 't2b', 6),
    version(cc, { threadId: b, atSeq: 4 }, 't3c', 6),
    version(d, { threadId: b, atSeq: 4 }, undefined, 4),
  ];
  return { c, b, cc, d, madeC, madeD, versions };
}

/** Declares the kit's tests of alternatives (`addAlternative`, `getAlternatives`, `switchAlternative`). */
export function describeAlternativesSuite(kit: Kit): void {
  const { describe, it, expect } = kit.api;
  describe('alternatives', () => {
    it('a conversation without alternatives: its own path active, no branch point, one version', async () => {
      const s = kit.store;
      const id = ids(kit, 'none');
      const c = id.conversation;
      await threeTurns(kit, c);
      const thread = await s.getThread(c);
      expect(thread.activePath).toBeUndefined();
      expect(thread.alternativeOf).toBeUndefined();
      expect(await s.activePath(c)).toBe(c);
      expect(await s.getAlternatives(c)).toEqual({
        conversationId: c,
        activePath: c,
        branches: [],
        versions: [
          { threadId: c, createdAt: thread.createdAt, forkOf: undefined, turnId: 't1', total: 6 },
        ],
      });
      // A thread with no rows: no turn to start with.
      const empty = await s.createThread(kit.thread('alt-empty'));
      expect(versionsOf(await s.getAlternatives(empty.id))).toEqual([
        version(empty.id, undefined, undefined, 0),
      ]);
      // A fork made by forkThread is a conversation of its own: its version branches where the
      // fork does, and starts with its own first turn once it has one.
      const f = kit.thread('alt-fork');
      await s.forkThread(c, { atSeq: 4, newThreadId: f });
      const forked = await s.getAlternatives(f);
      expect(forked).toMatchObject({ conversationId: f, activePath: f, branches: [] });
      expect(versionsOf(forked)).toEqual([version(f, { threadId: c, atSeq: 4 }, undefined, 4)]);
      await s.appendTurn(f, turnDrafts('f1', 3));
      expect(versionsOf(await s.getAlternatives(f))).toEqual([
        version(f, { threadId: c, atSeq: 4 }, 'f1', 7),
      ]);
      expect(versionsOf(await s.getAlternatives(c))).toEqual([version(c, undefined, 't1', 6)]);
    });

    it('addAlternative makes a version of a turn, active, listed at its branch point and in versions', async () => {
      const s = kit.store;
      const id = ids(kit, 'add');
      const c = id.conversation;
      const a = id.version('a');
      const rows = await threeTurns(kit, c);
      const conversation = await s.getThread(c);
      const made = await s.addAlternative(c, { turnId: 't2', newThreadId: a });
      expect(made).toMatchObject({
        id: a,
        alternativeOf: c,
        total: 2,
        forkOf: { threadId: c, atSeq: 2 },
      });
      expect(await s.activePath(c)).toBe(a);
      expect((await s.getThread(c)).activePath).toBe(a);
      expect((await s.getThread(a)).alternativeOf).toBe(c);
      const own = {
        threadId: c,
        createdAt: conversation.createdAt,
        forkOf: undefined,
        turnId: 't1',
        total: 6,
      };
      // Made, nothing written yet: a version with no turn, on the active path.
      expect(await s.getAlternatives(c)).toEqual({
        conversationId: c,
        activePath: a,
        branches: [
          {
            atSeq: 2,
            active: 1,
            alternatives: [
              { threadId: c, turnId: 't2', createdAt: conversation.createdAt },
              { threadId: a, turnId: undefined, createdAt: made.createdAt },
            ],
          },
        ],
        versions: [
          own,
          {
            threadId: a,
            createdAt: made.createdAt,
            forkOf: { threadId: c, atSeq: 2 },
            turnId: undefined,
            total: 2,
          },
        ],
      });
      const written = await s.appendTurn(a, turnDrafts('t2b', 3));
      expect(written.map((r) => r.seq)).toEqual([3, 4, 5]);
      const listed = await s.getAlternatives(c);
      expect(branchesOf(listed)).toEqual([
        { atSeq: 2, active: 1, versions: [`${c}/t2`, `${a}/t2b`] },
      ]);
      expect(listed.versions).toEqual([
        own,
        {
          threadId: a,
          createdAt: made.createdAt,
          forkOf: { threadId: c, atSeq: 2 },
          turnId: 't2b',
          total: 5,
        },
      ]);
      // The version reads the conversation up to its branch point, then its own rows; the
      // original is whole.
      expect(await s.getRows(a)).toEqual([...as(rows.slice(0, 2), a), ...written]);
      expect(await s.getRows(c)).toEqual(rows);
    });

    it('switchAlternative moves the active path and answers what getAlternatives then does; versions stay', async () => {
      const s = kit.store;
      const id = ids(kit, 'switch');
      const c = id.conversation;
      const a = id.version('a');
      await threeTurns(kit, c);
      await s.addAlternative(c, { turnId: 't2', newThreadId: a });
      await s.appendTurn(a, turnDrafts('t2b', 2));
      const before = await s.getAlternatives(c);
      const back = await s.switchAlternative(c, c);
      expect(back).toEqual(await s.getAlternatives(c));
      expect(back.activePath).toBe(c);
      expect(branchesOf(back)).toEqual([
        { atSeq: 2, active: 0, versions: [`${c}/t2`, `${a}/t2b`] },
      ]);
      expect(back.versions).toEqual(before.versions);
      expect(await s.activePath(c)).toBe(c);
      expect((await s.getThread(c)).activePath).toBeUndefined();
      const again = await s.switchAlternative(c, a);
      expect(again).toEqual(before);
      expect(await s.getAlternatives(c)).toEqual(before);
      expect(await s.activePath(c)).toBe(a);
      expect((await s.getThread(c)).activePath).toBe(a);
      // An alternative's own id is its own active path.
      expect(await s.activePath(a)).toBe(a);
    });

    it('versions made inside a version: each branch point of the active path lists its versions oldest first, the active one by the active thread', async () => {
      const s = kit.store;
      const n = await nested(kit);
      // C and D branch at seq 4, which B's own rows hold: they are B's forks.
      expect(n.madeC.forkOf).toEqual({ threadId: n.b, atSeq: 4 });
      expect(n.madeD.forkOf).toEqual({ threadId: n.b, atSeq: 4 });
      const onD = await s.getAlternatives(n.c);
      expect(onD.activePath).toBe(n.d);
      expect(branchesOf(onD)).toEqual([
        { atSeq: 2, active: 1, versions: [`${n.c}/t2`, `${n.d}/t2b`] },
        { atSeq: 4, active: 2, versions: [`${n.b}/t3b`, `${n.cc}/t3c`, `${n.d}/-`] },
      ]);
      expect(versionsOf(onD)).toEqual(n.versions);
      await expectCreatedAt(kit, onD);
      // D lists B's t2b at seq 2: it is as old as B, not D.
      await expectListedAges(kit, onD, [
        [n.c, n.b],
        [n.b, n.cc, n.d],
      ]);
      const onB = await s.switchAlternative(n.c, n.b);
      expect(branchesOf(onB)).toEqual([
        { atSeq: 2, active: 1, versions: [`${n.c}/t2`, `${n.b}/t2b`] },
        { atSeq: 4, active: 0, versions: [`${n.b}/t3b`, `${n.cc}/t3c`, `${n.d}/-`] },
      ]);
      expect(versionsOf(onB)).toEqual(n.versions);
      const onC = await s.switchAlternative(n.c, n.cc);
      expect(branchesOf(onC)).toEqual([
        { atSeq: 2, active: 1, versions: [`${n.c}/t2`, `${n.cc}/t2b`] },
        { atSeq: 4, active: 1, versions: [`${n.b}/t3b`, `${n.cc}/t3c`, `${n.d}/-`] },
      ]);
      expect(versionsOf(onC)).toEqual(n.versions);
      await expectListedAges(kit, onC, [
        [n.c, n.b],
        [n.b, n.cc, n.d],
      ]);
    });

    it('a version off the active path is in versions alone, and is switched to like any other', async () => {
      const s = kit.store;
      const n = await nested(kit);
      // The conversation's own path branches at t2 (itself, B) and never reaches seq 4 of B.
      const own = await s.switchAlternative(n.c, n.c);
      expect(branchesOf(own)).toEqual([
        { atSeq: 2, active: 0, versions: [`${n.c}/t2`, `${n.b}/t2b`] },
      ]);
      expect(versionsOf(own)).toEqual(n.versions);
      expect((await s.switchAlternative(n.c, n.cc)).activePath).toBe(n.cc);
      expect((await s.getRows(n.cc)).map((r) => r.turnId)).toEqual([
        't1',
        't1',
        't2b',
        't2b',
        't3c',
        't3c',
      ]);
      // A version whose branch point lies beyond the end of a truncated active path.
      const id = ids(kit, 'cut');
      const c = id.conversation;
      const v = id.version('a');
      await threeTurns(kit, c);
      await s.addAlternative(c, { turnId: 't3', newThreadId: v });
      await s.appendTurn(v, turnDrafts('t3b', 2));
      await s.switchAlternative(c, c);
      expect(await s.truncateAfter(c, 4)).toBe(2);
      const cut = await s.getAlternatives(c);
      expect(cut.branches).toEqual([]);
      expect(versionsOf(cut)).toEqual([
        version(c, undefined, 't1', 4),
        version(v, { threadId: c, atSeq: 4 }, 't3b', 6),
      ]);
      expect((await s.switchAlternative(c, v)).activePath).toBe(v);
    });

    it('versions are in the order they were made, by creation time before id; a version of the first turn branches at seq 0', async () => {
      const s = kit.store;
      const id = ids(kit, 'order');
      const c = id.conversation;
      // Made z, then m, then a (apart in time): the order of the ids is the reverse.
      const [z, m, a] = ['z', 'm', 'a'].map(id.version) as [string, string, string];
      await threeTurns(kit, c);
      await s.addAlternative(c, { turnId: 't3', newThreadId: z });
      await pause(20);
      await s.switchAlternative(c, c);
      const first = await s.addAlternative(c, { turnId: 't1', newThreadId: m });
      expect(first).toMatchObject({ total: 0, forkOf: { threadId: c, atSeq: 0 } });
      expect(branchesOf(await s.getAlternatives(c))).toEqual([
        { atSeq: 0, active: 1, versions: [`${c}/t1`, `${m}/-`] },
      ]);
      await pause(20);
      await s.switchAlternative(c, c);
      await s.addAlternative(c, { turnId: 't2', newThreadId: a });
      const listed = await s.getAlternatives(c);
      expect(versionsOf(listed)).toEqual([
        version(c, undefined, 't1', 6),
        version(z, { threadId: c, atSeq: 4 }, undefined, 4),
        version(m, { threadId: c, atSeq: 0 }, undefined, 0),
        version(a, { threadId: c, atSeq: 2 }, undefined, 2),
      ]);
      await expectCreatedAt(kit, listed);
    });

    it('deleting a version takes it from versions, an active one making the conversation’s own path active; deleting the conversation takes its versions', async () => {
      const s = kit.store;
      const id = ids(kit, 'delete');
      const c = id.conversation;
      const [a, b, x] = ['a', 'b', 'x'].map(id.version) as [string, string, string];
      await threeTurns(kit, c);
      await s.addAlternative(c, { turnId: 't3', newThreadId: a });
      await s.switchAlternative(c, c);
      await s.addAlternative(c, { turnId: 't2', newThreadId: b });
      await s.appendTurn(b, turnDrafts('t2b', 2));
      expect(await s.deleteThread(b)).toBe(true);
      expect(await s.activePath(c)).toBe(c);
      expect((await s.getThread(c)).activePath).toBeUndefined();
      const left = await s.getAlternatives(c);
      expect(left.activePath).toBe(c);
      expect(branchesOf(left)).toEqual([{ atSeq: 4, active: 0, versions: [`${c}/t3`, `${a}/-`] }]);
      expect(versionsOf(left)).toEqual([
        version(c, undefined, 't1', 6),
        version(a, { threadId: c, atSeq: 4 }, undefined, 4),
      ]);
      expect(await s.deleteThread(a)).toBe(true);
      expect(await s.getAlternatives(c)).toMatchObject({ activePath: c, branches: [] });
      expect(versionsOf(await s.getAlternatives(c))).toEqual([version(c, undefined, 't1', 6)]);
      await s.addAlternative(c, { turnId: 't1', newThreadId: x });
      await s.appendTurn(x, turnDrafts('t1x', 2));
      expect(await s.deleteThread(c)).toBe(true);
      await kit.expectCode(s.getThread(x), 'thread-not-found');
      await kit.expectCode(s.getAlternatives(c), 'thread-not-found');
    });

    it('refused alternatives calls: typed errors, and nothing changes', async () => {
      const s = kit.store;
      const missing = kit.thread('alt-missing');
      for (const call of [
        () => s.getAlternatives(missing),
        () => s.switchAlternative(missing, missing),
        () => s.addAlternative(missing, { turnId: 't1' }),
        () => s.activePath(missing),
      ]) {
        const error = await kit.expectCode(call(), 'thread-not-found');
        expect(error.threadId).toBe(missing);
      }
      const id = ids(kit, 'refuse');
      const c = id.conversation;
      const a = id.version('a');
      const other = kit.thread('alt-other');
      const fork = kit.thread('alt-fork');
      await threeTurns(kit, c);
      await s.addAlternative(c, { turnId: 't3', newThreadId: a });
      await s.appendTurn(a, turnDrafts('t3b', 2));
      await s.appendTurn(other, turnDrafts('o1', 2));
      await s.forkThread(a, { atSeq: 6, newThreadId: fork });
      const before = await s.getAlternatives(c);
      // Each refusal names the argument that was wrong (`option`).
      const refused = async (call: Promise<unknown>, option: string) => {
        expect((await kit.expectCode(call, 'invalid-option')).option).toBe(option);
      };
      // An alternative is no conversation: give its conversation.
      await refused(s.getAlternatives(a), 'conversationId');
      await refused(s.addAlternative(a, { turnId: 't1' }), 'conversationId');
      await refused(s.switchAlternative(a, a), 'conversationId');
      // A turn not on the active path (t3 is the conversation's, not A's), or none at all.
      await refused(s.addAlternative(c, { turnId: 't3' }), 'turnId');
      await refused(s.addAlternative(c, { turnId: 'nope' }), 'turnId');
      await kit.expectCode(s.addAlternative(c, { turnId: 't1', newThreadId: a }), 'thread-exists');
      // Not part of the conversation: a plain thread, a fork made by forkThread from a version.
      await refused(s.switchAlternative(c, other), 'threadId');
      await refused(s.switchAlternative(c, fork), 'threadId');
      // A thread that does not exist is named as the one not found.
      const nowhere = kit.thread('alt-nowhere');
      expect(
        (await kit.expectCode(s.switchAlternative(c, nowhere), 'thread-not-found')).threadId,
      ).toBe(nowhere);
      expect(await s.getAlternatives(c)).toEqual(before);
      expect(await s.activePath(c)).toBe(a);
      expect(versionsOf(await s.getAlternatives(fork))).toEqual([
        version(fork, { threadId: a, atSeq: 6 }, undefined, 6),
      ]);
    });
  });
}
