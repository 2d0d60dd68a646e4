// A deliberately simple in-memory model of conversations with alternatives and forks, for
// test/store/alternatives.prop.test.ts. Every thread holds its whole path as a copy (the store
// reads forks by reference); a row is known by its turn id and seq (each turn is written once, to
// one thread, under a fresh turn id), and the model remembers which thread wrote it. Branch points
// are found by comparing the members' copied paths row by row: nothing here comes from
// src/store/branch-points.ts.
import type { ChunkRow, ChunkRowDraft } from '../../../src/schema/chunk-row.js';
import { compareCodeUnits } from '../../../src/schema/id.js';

/** A row as the model holds it: a stored row without its time. */
export type ModelRow = Omit<ChunkRow, 'createdAt'>;

/** A thread: a conversation, an alternative of one, or a fork made by forkThread (a conversation). */
export interface ModelThread {
  readonly id: string;
  /** Its path, as read through it: every row carries its id. */
  rows: ModelRow[];
  /** For an alternative: its conversation. */
  readonly conversation: string | undefined;
  /**
   * For a fork (forkThread or addAlternative): its parent, the thread that wrote the row at its
   * fork seq (the thread it was forked from, at 0); truncating below the fork seq moves it.
   */
  parent: string | undefined;
  /** The seq it forks at (0 for a plain thread); truncating below it lowers it. */
  forkSeq: number;
  /** As the store returned it when the thread was made. */
  readonly createdAt: string;
  /** For a conversation: the thread whose path is active. */
  active: string;
}

/** A version of a turn, as getAlternatives should list it. */
export interface ModelAlternative {
  readonly threadId: string;
  readonly turnId: string | undefined;
  readonly createdAt: string;
}

/** A branch point, as getAlternatives should list it. */
export interface ModelBranch {
  readonly atSeq: number;
  readonly active: number;
  readonly alternatives: readonly ModelAlternative[];
}

/** A version of a conversation, as getAlternatives should list it in `versions`. */
export interface ModelVersion {
  readonly threadId: string;
  readonly createdAt: string;
  readonly forkOf: { readonly threadId: string; readonly atSeq: number } | undefined;
  readonly turnId: string | undefined;
  readonly total: number;
}

/** A turn of a path: its id, the boundary before it, and its rows. */
export interface ModelTurn {
  readonly turnId: string;
  readonly before: number;
  readonly rows: readonly ModelRow[];
}

/** The key of a written row: its turn id and seq name it in every path that reads it. */
export const rowKey = (row: Pick<ModelRow, 'turnId' | 'seq'>): string => `${row.turnId}@${row.seq}`;

export class ConversationModel {
  /** Every live thread, in the order they were made. */
  readonly threads = new Map<string, ModelThread>();
  /** Every row written and not discarded (by truncate or delete), with the thread that wrote it. */
  readonly written = new Map<string, string>();

  thread(id: string): ModelThread {
    const thread = this.threads.get(id);
    if (thread === undefined) throw new Error(`model: no thread ${id}`);
    return thread;
  }

  /** The conversations (threads that are no alternative), oldest first. */
  conversations(): ModelThread[] {
    return [...this.threads.values()].filter((t) => t.conversation === undefined);
  }

  /**
   * A conversation and its alternatives, oldest first; threads made in the same millisecond by
   * id, as the store orders them (`compareCodeUnits`: `a10` before `a9`).
   */
  members(conversationId: string): ModelThread[] {
    return [...this.threads.values()]
      .filter((t) => t.id === conversationId || t.conversation === conversationId)
      .sort((a, b) => compareCodeUnits(a.createdAt, b.createdAt) || compareCodeUnits(a.id, b.id));
  }

  /**
   * Every version of a conversation: the conversation, then its alternatives in the order they
   * were made, each with its parent and fork seq, the turn of the first row it wrote and the
   * length of its path.
   */
  versions(conversationId: string): ModelVersion[] {
    return this.members(conversationId).map((m) => ({
      threadId: m.id,
      createdAt: m.createdAt,
      forkOf: m.parent === undefined ? undefined : { threadId: m.parent, atSeq: m.forkSeq },
      turnId: m.rows[m.forkSeq]?.turnId,
      total: m.rows.length,
    }));
  }

  /** The thread whose path is the conversation's active one. */
  active(conversationId: string): ModelThread {
    return this.thread(this.thread(conversationId).active);
  }

  /** A new plain thread (a conversation). */
  create(id: string, createdAt: string): void {
    this.threads.set(id, {
      id,
      rows: [],
      conversation: undefined,
      parent: undefined,
      forkSeq: 0,
      createdAt,
      active: id,
    });
  }

  /** Appends a turn to a thread's path; returns the rows as stored. */
  append(threadId: string, drafts: readonly ChunkRowDraft[]): ModelRow[] {
    const thread = this.thread(threadId);
    const added = drafts.map(
      (d, i) => ({ threadId, seq: thread.rows.length + i + 1, ...d }) as ModelRow,
    );
    thread.rows.push(...added);
    for (const row of added) this.written.set(rowKey(row), threadId);
    return added;
  }

  /** A fork of `sourceId` at `atSeq`: a copy of its path up to there. */
  fork(
    sourceId: string,
    atSeq: number,
    id: string,
    createdAt: string,
    conversation: string | undefined,
  ): void {
    const rows = this.thread(sourceId)
      .rows.filter((r) => r.seq <= atSeq)
      .map((r) => ({ ...r, threadId: id }));
    this.threads.set(id, {
      id,
      rows,
      conversation,
      parent: this.writerAt(rows, atSeq) ?? sourceId,
      forkSeq: atSeq,
      createdAt,
      active: id,
    });
  }

  /** The thread that wrote the row at `seq` of a path (undefined at 0). */
  writerAt(rows: readonly ModelRow[], seq: number): string | undefined {
    const row = rows.find((r) => r.seq === seq);
    return row === undefined ? undefined : this.written.get(rowKey(row));
  }

  /**
   * Whether a thread outside `ids` reads, above `seq`, a row one of them wrote: what deleting
   * them (`seq` 0) or truncating one of them after `seq` would take from another path.
   */
  forkedAbove(ids: ReadonlySet<string>, seq: number): boolean {
    for (const t of this.threads.values()) {
      if (ids.has(t.id)) continue;
      for (const row of t.rows) {
        const writer = this.written.get(rowKey(row));
        if (row.seq > seq && writer !== undefined && ids.has(writer)) return true;
      }
    }
    return false;
  }

  /** Cuts a thread's path after `seq`: the rows it wrote there are gone. */
  truncate(threadId: string, seq: number): void {
    const thread = this.thread(threadId);
    for (const row of thread.rows) {
      if (row.seq > seq && this.written.get(rowKey(row)) === threadId)
        this.written.delete(rowKey(row));
    }
    thread.rows = thread.rows.filter((r) => r.seq <= seq);
    if (thread.parent !== undefined && thread.forkSeq > seq) {
      thread.forkSeq = seq;
      thread.parent = this.writerAt(thread.rows, seq) ?? thread.parent;
    }
  }

  /** What deleting `threadId` deletes: the thread, and a conversation's alternatives. */
  deletion(threadId: string): Set<string> {
    const thread = this.thread(threadId);
    return new Set(
      thread.conversation === undefined ? this.members(threadId).map((t) => t.id) : [threadId],
    );
  }

  /** Deletes threads and the rows they wrote; a conversation whose active path goes falls back to its own. */
  delete(ids: ReadonlySet<string>): void {
    for (const id of ids) this.threads.delete(id);
    for (const [key, writer] of this.written) if (ids.has(writer)) this.written.delete(key);
    for (const t of this.threads.values()) if (ids.has(t.active)) t.active = t.id;
  }

  /** The turns of a path, in order. */
  static turns(rows: readonly ModelRow[]): ModelTurn[] {
    const turns: ModelTurn[] = [];
    for (const row of rows) {
      const last = turns.at(-1);
      if (last !== undefined && last.turnId === row.turnId) (last.rows as ModelRow[]).push(row);
      else turns.push({ turnId: row.turnId, before: row.seq - 1, rows: [row] });
    }
    return turns;
  }

  /** The seqs of a path a fork may go at: 0, the end, and every seq between two turns. */
  static boundaries(rows: readonly ModelRow[]): number[] {
    return [0, ...ConversationModel.turns(rows).map((t) => t.before + t.rows.length)];
  }

  /**
   * The branch points of a conversation's active path. At each seq `s` of the active path, the
   * members whose paths hold the same first `s` rows each go on with a version of the next turn:
   * the row after `s` (known by its key), or, for an alternative made at `s` with nothing written
   * after it yet, a version of its own still to be written. Where the active path goes on and
   * there are two versions or more, they are listed oldest first (the age of the thread that
   * wrote the version, or of the pending alternative; a row the conversation read from outside,
   * before its own, is as old as the conversation). Each is listed by the thread to switch to:
   * the active path for its own version; the member that wrote it; else (a row from outside the
   * conversation) the oldest member that reads it.
   */
  branches(conversationId: string): ModelBranch[] {
    const members = this.members(conversationId);
    const memberIds = new Set(members.map((m) => m.id));
    const rank = new Map(members.map((m, i) => [m.id, i]));
    const active = this.active(conversationId);
    const versionAt = (m: ModelThread, s: number): string | undefined => {
      const next = m.rows[s];
      if (next !== undefined) return rowKey(next);
      return m.rows.length === s && m.conversation !== undefined && m.forkSeq === s
        ? `pending ${m.id}`
        : undefined;
    };
    const sharesPrefix = (m: ModelThread, s: number) =>
      m.rows.length >= s &&
      m.rows.slice(0, s).every((r, i) => rowKey(r) === rowKey(active.rows[i] as ModelRow));
    const out: ModelBranch[] = [];
    for (let s = 0; s <= active.rows.length; s++) {
      const activeKey = versionAt(active, s);
      if (activeKey === undefined) continue;
      const versions = new Map<string, ModelAlternative & { rank: number }>();
      for (const m of members) {
        if (!sharesPrefix(m, s)) continue;
        const key = versionAt(m, s);
        if (key === undefined || versions.has(key)) continue;
        const next = m.rows[s];
        const writer = next === undefined ? m.id : this.written.get(key);
        const member = writer !== undefined && memberIds.has(writer) ? writer : undefined;
        const origin = member ?? conversationId;
        versions.set(key, {
          threadId: key === activeKey ? active.id : (member ?? m.id),
          turnId: next?.turnId,
          createdAt: this.thread(origin).createdAt,
          rank: rank.get(origin) as number,
        });
      }
      if (versions.size < 2) continue;
      const ordered = [...versions.entries()].sort((a, b) => a[1].rank - b[1].rank);
      out.push({
        atSeq: s,
        active: ordered.findIndex(([key]) => key === activeKey),
        alternatives: ordered.map(([, { threadId, turnId, createdAt }]) => ({
          threadId,
          turnId,
          createdAt,
        })),
      });
    }
    return out;
  }
}
