// branchPoints (src/store/branch-points.ts) over random conversations built by appending,
// forking and truncating, with each member's path also kept as the list of the threads that hold
// its rows (seq by seq, independent of fork-path.ts's stretches). For any active member: every
// branch point's `active` names the version the active path takes, listed under the active
// member; versions are distinct and oldest first; each is listed under a member whose path takes
// it (switching there gives that version); and the points are exactly the seqs where the active
// path goes on and two versions or more start.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { branchPoints, type ConversationMember } from '../../src/store/branch-points.js';
import {
  forkPathOf,
  PLAIN_ORIGIN,
  pathUpTo,
  type ThreadOrigin,
} from '../../src/store/fork-path.js';

/** A member, and the thread holding each row of its path (index `seq - 1`). */
interface Built {
  member: ConversationMember;
  holders: string[];
}

type Op =
  | { readonly op: 'append'; readonly who: number; readonly rows: number }
  | { readonly op: 'fork'; readonly who: number; readonly at: number }
  | { readonly op: 'truncate'; readonly who: number; readonly at: number };

const ROOT = 'root';

/**
 * The members a sequence of operations makes, oldest first. The root is a fork of a thread
 * outside the conversation at `outside` (a plain thread for 0). Forks and truncations go at any
 * seq (turn boundaries are the store's concern); a truncation that would cut rows a member's
 * fork reads is skipped, as the store refuses it. One that cuts only rows the thread reads of
 * others goes through, and the thread may go on with new turns below a fork of those rows.
 */
function build(outside: number, ops: readonly Op[]): Built[] {
  const origin: ThreadOrigin =
    outside === 0
      ? PLAIN_ORIGIN
      : {
          parentId: 'outside',
          forkSeq: outside,
          ancestors: [{ threadId: 'outside', after: 0, upTo: outside }],
        };
  const built: Built[] = [
    {
      member: { id: ROOT, createdAt: iso(0), last: outside, origin },
      holders: Array.from({ length: outside }, () => 'outside'),
    },
  ];
  for (const o of ops) {
    const at = built[o.who % built.length] as Built;
    const { member } = at;
    switch (o.op) {
      case 'append':
        at.member = { ...member, last: member.last + o.rows };
        at.holders = [...at.holders, ...Array.from({ length: o.rows }, () => member.id)];
        break;
      case 'fork': {
        const seq = o.at % (member.last + 1);
        const id = `m${built.length}`;
        built.push({
          member: {
            id,
            createdAt: iso(built.length),
            last: seq,
            origin: {
              // A fork is the fork of the thread holding the row it ends with (notes/0110), so
              // a thread whose own rows a fork does not read may be truncated under it.
              parentId: seq === 0 ? member.id : (at.holders[seq - 1] as string),
              forkSeq: seq,
              ancestors: forkPathOf(member.id, member.origin, seq),
            },
          },
          holders: at.holders.slice(0, seq),
        });
        break;
      }
      case 'truncate': {
        const seq = o.at % (member.last + 1);
        const held = built.some(
          (b) => b.member.origin.parentId === member.id && b.member.origin.forkSeq > seq,
        );
        if (held) break;
        const cut = seq < member.origin.forkSeq;
        at.member = {
          ...member,
          last: seq,
          origin: cut
            ? { ...member.origin, forkSeq: seq, ancestors: pathUpTo(member.origin.ancestors, seq) }
            : member.origin,
        };
        at.holders = at.holders.slice(0, seq);
        break;
      }
    }
  }
  return built;
}

function iso(n: number): string {
  return new Date(Date.UTC(2026, 0, 1) + n * 1000).toISOString();
}

const sameStart = (a: readonly string[], b: readonly string[], seq: number) =>
  a.length >= seq && b.length >= seq && a.slice(0, seq).every((h, i) => h === b[i]);

/** The version of the turn after `seq` a member takes: its holder, or itself while pending. */
function takes(b: Built, seq: number): string | undefined {
  const next = b.holders[seq];
  if (next !== undefined) return `row ${next}`;
  const { member } = b;
  return member.id !== ROOT && member.origin.forkSeq === seq && member.last === seq
    ? `pending ${member.id}`
    : undefined;
}

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    op: fc.constant('append' as const),
    who: fc.nat(20),
    rows: fc.integer({ min: 1, max: 3 }),
  }),
  fc.record({ op: fc.constant('fork' as const), who: fc.nat(20), at: fc.nat(20) }),
  fc.record({ op: fc.constant('truncate' as const), who: fc.nat(20), at: fc.nat(20) }),
);

describe('branchPoints', () => {
  it('a conversation truncated below a version that reads rows of another thread, then sent a new turn, branches where the two part', () => {
    // The conversation forks `outside` at 1; a version forks it there (reading `outside`'s row);
    // the conversation is truncated to 0 and goes on with a row of its own.
    const built = build(1, [
      { op: 'fork', who: 0, at: 1 },
      { op: 'truncate', who: 0, at: 0 },
      { op: 'append', who: 0, rows: 1 },
    ]);
    const [root, version] = built.map((b) => b.member) as [ConversationMember, ConversationMember];
    expect(version.origin.parentId).toBe('outside');
    const points = branchPoints([root, version], ROOT, root);
    expect(points).toEqual([
      {
        atSeq: 0,
        active: 0,
        versions: [
          { threadId: ROOT, createdAt: root.createdAt, holder: ROOT },
          { threadId: version.id, createdAt: root.createdAt, holder: 'outside' },
        ],
      },
    ]);
  });

  it('names the active version right, lists distinct versions oldest first under members that take them, at exactly the seqs where the active path branches', () => {
    fc.assert(
      fc.property(
        fc.nat(3),
        fc.array(opArb, { maxLength: 25 }),
        fc.nat(),
        (outside, ops, pickActive) => {
          const built = build(outside, ops);
          const active = built[pickActive % built.length] as Built;
          const members = built.map((b) => b.member);
          const byId = new Map(built.map((b) => [b.member.id, b]));
          const points = branchPoints(members, ROOT, active.member);
          // The seqs where the active path goes on and two versions or more start.
          const expected: number[] = [];
          for (let seq = 0; seq <= active.holders.length; seq++) {
            if (takes(active, seq) === undefined) continue;
            const versions = new Set(
              built
                .filter((b) => sameStart(b.holders, active.holders, seq))
                .map((b) => takes(b, seq))
                .filter((v) => v !== undefined),
            );
            if (versions.size > 1) expected.push(seq);
          }
          expect(points.map((p) => p.atSeq)).toEqual(expected);
          for (const p of points) {
            const mine = p.versions[p.active];
            expect(mine?.threadId).toBe(active.member.id);
            expect(mine?.holder).toBe(active.holders[p.atSeq]);
            const listed = p.versions.map((v) => {
              const by = byId.get(v.threadId) as Built;
              // Switching to the member it is listed under gives this version.
              expect(sameStart(by.holders, active.holders, p.atSeq)).toBe(true);
              expect(by.holders[p.atSeq]).toBe(v.holder);
              return takes(by, p.atSeq);
            });
            expect(new Set(listed).size).toBe(listed.length);
            expect(new Set(p.versions.map((v) => v.threadId)).size).toBe(p.versions.length);
            const times = p.versions.map((v) => v.createdAt);
            expect(times).toEqual([...times].sort());
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});
