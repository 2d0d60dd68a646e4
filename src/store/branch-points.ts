import { segmentOf, type ThreadOrigin } from './fork-path.js';
import { compareCodeUnits } from './validate.js';

/** A thread of a conversation (the conversation itself or an alternative), as branch points see it. */
export interface ConversationMember {
  readonly id: string;
  readonly createdAt: string;
  /** The seq of the last row of its path (0 for an empty one). */
  readonly last: number;
  readonly origin: ThreadOrigin;
}

/** A version of a turn: where it starts, who holds it, and the member to switch to for it. */
export interface BranchVersion {
  /** The member whose path to make active for this version. */
  readonly threadId: string;
  /** When the version was made: its holder's creation time (the order of versions). */
  readonly createdAt: string;
  /** The thread holding the version's first row (seq `atSeq + 1`); undefined while it has none. */
  readonly holder: string | undefined;
}

/** A seq of the active path where more than one version of the next turn starts. */
export interface BranchAt {
  readonly atSeq: number;
  readonly versions: readonly BranchVersion[];
  readonly active: number;
}

/** The thread holding the row at `seq` of a member's path; undefined beyond its ends. */
function holderAt(member: ConversationMember, seq: number): string | undefined {
  if (seq < 1 || seq > member.last) return undefined;
  if (seq > member.origin.forkSeq) return member.id;
  return segmentOf(member.origin.ancestors, seq)?.threadId;
}

/**
 * The key of the point after `seq` on a member's path: the thread that holds row `seq` (every
 * path through that row shares what comes before it), `''` at the start; undefined when the
 * path does not reach `seq`.
 */
function pointKey(member: ConversationMember, seq: number): string | undefined {
  return seq === 0 ? '' : holderAt(member, seq);
}

/**
 * The version of the turn after `seq` that a member's path takes: the thread holding row
 * `seq + 1`, or for an alternative made at `seq` with nothing written yet, the member itself.
 */
function versionAfter(member: ConversationMember, seq: number, root: string): string | undefined {
  const next = holderAt(member, seq + 1);
  if (next !== undefined) return next;
  return member.id !== root && member.origin.forkSeq === seq && member.last === seq
    ? member.id
    : undefined;
}

/** A stretch of a member's path held by one thread: seqs `from` to `to`, both included. */
interface Run {
  readonly from: number;
  readonly to: number;
  readonly holder: string;
}

/** A member's path as the stretches of the threads holding it, oldest first. */
function runsOf(member: ConversationMember): Run[] {
  const runs: Run[] = [];
  const add = (from: number, to: number, holder: string) => {
    const end = Math.min(to, member.last);
    if (from <= end) runs.push({ from, to: end, holder });
  };
  const { ancestors, forkSeq } = member.origin;
  for (let i = ancestors.length - 1; i >= 0; i--) {
    const segment = ancestors[i] as (typeof ancestors)[number];
    add(segment.after + 1, segment.upTo, segment.threadId);
  }
  add(forkSeq + 1, member.last, member.id);
  return runs;
}

/**
 * The seq after which two paths part: the last seq up to which the same threads hold their rows
 * (so every row up to it is the same), where one goes on with another row or ends; undefined for
 * the same path.
 */
function partingSeq(a: readonly Run[], b: readonly Run[]): number | undefined {
  let i = 0;
  let j = 0;
  let seq = 0;
  for (;;) {
    const x = a[i];
    const y = b[j];
    if (x === undefined || y === undefined) {
      return x === undefined && y === undefined ? undefined : seq;
    }
    if (x.holder !== y.holder) return seq;
    seq = Math.min(x.to, y.to);
    if (x.to === seq) i++;
    if (y.to === seq) j++;
  }
}

/**
 * The branch points of a conversation's active path: every seq where the members' paths share
 * everything up to it and go on with different versions of the next turn. Pure: the members'
 * rows (parent, fork seq, resolved path, length) say it all. A version is listed once, by the
 * member that holds it when there is one (its own rows hold it), else the oldest member whose
 * path takes it; the active path's own version is listed by the active member.
 *
 * @param members - the conversation and its alternatives, oldest first
 * @param root - the conversation's id
 * @param active - the active member
 */
export function branchPoints(
  members: readonly ConversationMember[],
  root: string,
  active: ConversationMember,
): BranchAt[] {
  const ids = new Set(members.map((m) => m.id));
  const created = new Map(members.map((m) => [m.id, m.createdAt]));
  const rank = new Map(members.map((m, i) => [m.id, i]));
  // A branch point is where a member's path parts from the active one: at its fork seq, or
  // lower, where a truncation of the thread it was forked from took that thread's own turns away
  // and the thread went on with new ones.
  const seqs = new Set<number>();
  const activeRuns = runsOf(active);
  for (const m of members) {
    if (m.id !== root) seqs.add(m.origin.forkSeq);
    const parting = m === active ? undefined : partingSeq(runsOf(m), activeRuns);
    if (parting !== undefined) seqs.add(parting);
  }
  const points: BranchAt[] = [];
  for (const seq of [...seqs].sort((a, b) => a - b)) {
    const key = pointKey(active, seq);
    if (key === undefined) continue;
    // Where the active path stops (truncated back to the branch point), no version of the next
    // turn is on it: the point is not one of its turns, and listing it would leave no index for
    // `active` to name (-1).
    const activeVersion = versionAfter(active, seq, root);
    if (activeVersion === undefined) continue;
    const versions = new Map<string, BranchVersion>();
    for (const m of members) {
      if (pointKey(m, seq) !== key) continue;
      const version = versionAfter(m, seq, root);
      if (version === undefined) continue;
      const listedBy = version === activeVersion ? active.id : ids.has(version) ? version : m.id;
      if (versions.has(version)) continue;
      versions.set(version, {
        threadId: listedBy,
        // A version held outside the conversation (before a forked conversation's own rows) is
        // its original: as old as the conversation.
        createdAt: created.get(version) ?? (created.get(root) as string),
        holder: holderAt(m, seq + 1),
      });
    }
    if (versions.size < 2) continue;
    // Oldest first; of versions as old, the one whose member comes first (a version held
    // outside the conversation counts as the conversation's), else as the members met them.
    const ordered = [...versions.entries()].sort(
      (a, b) =>
        compareCodeUnits(a[1].createdAt, b[1].createdAt) ||
        rankOf(rank, a[0], root) - rankOf(rank, b[0], root),
    );
    points.push({
      atSeq: seq,
      versions: ordered.map(([, v]) => v),
      active: ordered.findIndex(([version]) => version === activeVersion),
    });
  }
  return points;
}

/** The place among the members of the member holding a version (the conversation's, outside). */
function rankOf(rank: ReadonlyMap<string, number>, version: string, root: string): number {
  return rank.get(version) ?? (rank.get(root) as number);
}
