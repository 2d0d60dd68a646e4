import type { ChunkRow, ChunkRowDraft } from '../../../src/schema/index.js';
import type {
  AlternativeBranch,
  ChunkPage,
  ConversationVersion,
  LoadPageRequest,
  ThreadAlternatives,
} from '../../../src/window/index.js';
import { MemoryThread } from './page-source.js';

/**
 * A conversation with alternatives, as the HTTP contract shows it: pages of the active path
 * (rows carry the conversation's id, seqs are the path's), and its branch points. A version
 * forks the active path before a turn: it holds the rows up to there, then its own.
 */
export class FakeConversation {
  readonly id: string;
  readonly paths = new Map<string, MemoryThread>();
  /** Per version thread: where it branched and what it replaced. */
  private readonly forks = new Map<string, { atSeq: number; from: string; turnId?: string }>();
  active: string;
  private created = 0;

  constructor(id = 'chat-1') {
    this.id = id;
    this.paths.set(id, new MemoryThread(id));
    this.active = id;
  }

  get path(): MemoryThread {
    return this.paths.get(this.active) as MemoryThread;
  }

  /** Appends a turn to the active path. */
  append(drafts: readonly ChunkRowDraft[]): ChunkRow[] {
    const stored = this.path.append(drafts);
    const fork = this.forks.get(this.active);
    if (fork !== undefined && fork.turnId === undefined && stored[0] !== undefined) {
      if (stored[0].seq === fork.atSeq + 1) fork.turnId = stored[0].turnId;
    }
    return stored;
  }

  /** A new version of turn `turnId` of the active path, made active (nothing written to it yet). */
  fork(turnId: string, threadId: string): void {
    const first = this.path.rows.find((row) => row.turnId === turnId);
    if (first === undefined) throw new Error(`no turn ${turnId}`);
    const atSeq = first.seq - 1;
    const copy = new MemoryThread(this.id);
    copy.rows.push(...this.path.rows.filter((row) => row.seq <= atSeq));
    this.paths.set(threadId, copy);
    this.forks.set(threadId, { atSeq, from: this.active });
    this.active = threadId;
  }

  /** Turns the pages say are `running` (their rows are the steps stored so far). */
  readonly running = new Set<string>();

  page(request: LoadPageRequest): ChunkPage {
    const page = this.path.page(request);
    const status: Record<string, 'running'> = {};
    for (const row of page.chunks) if (this.running.has(row.turnId)) status[row.turnId] = 'running';
    return Object.keys(status).length === 0 ? page : { ...page, turnStatus: status };
  }

  /**
   * Every version: the conversation's own thread, then each fork in the order it was made (forks
   * keep their insertion order in `forks`).
   */
  versions(): ConversationVersion[] {
    const own = this.paths.get(this.id) as MemoryThread;
    const versionOf = (threadId: string, index: number): ConversationVersion => {
      const fork = this.forks.get(threadId);
      const rows = (this.paths.get(threadId) as MemoryThread).rows;
      return {
        threadId,
        createdAt: new Date(Date.UTC(2026, 0, 1, 0, index)).toISOString(),
        ...(fork === undefined ? {} : { forkOf: { threadId: fork.from, atSeq: fork.atSeq } }),
        turnId: fork === undefined ? own.rows[0]?.turnId : fork.turnId,
        total: rows[rows.length - 1]?.seq ?? 0,
      };
    };
    return [this.id, ...this.forks.keys()].map(versionOf);
  }

  /** The branch points of the active path (every fork lists its versions at its seq). */
  alternatives(): ThreadAlternatives {
    const byAt = new Map<number, string[]>();
    for (const [threadId, fork] of this.forks) {
      const list = byAt.get(fork.atSeq) ?? [this.versionAt(fork.from, fork.atSeq)];
      if (!list.includes(threadId)) list.push(threadId);
      byAt.set(fork.atSeq, list);
    }
    const branches: AlternativeBranch[] = [];
    for (const [atSeq, threads] of [...byAt].sort((a, b) => a[0] - b[0])) {
      const rows = this.path.rows;
      if (rows.length < atSeq) continue;
      const activeTurn = rows.find((row) => row.seq === atSeq + 1)?.turnId;
      const alternatives = threads.map((threadId) => {
        const turnId = this.paths.get(threadId)?.rows.find((r) => r.seq === atSeq + 1)?.turnId;
        return { threadId, createdAt: new Date(++this.created).toISOString(), turnId };
      });
      let active = alternatives.findIndex((v) => v.threadId === this.active);
      if (active < 0) active = alternatives.findIndex((v) => v.turnId === activeTurn);
      if (active < 0) continue;
      branches.push({ atSeq, active, alternatives });
    }
    return {
      conversationId: this.id,
      activePath: this.active,
      branches,
      versions: this.versions(),
    };
  }

  /** The version of the turn after `atSeq` that a thread's path holds: the oldest holder. */
  private versionAt(threadId: string, atSeq: number): string {
    const fork = this.forks.get(threadId);
    return fork !== undefined && fork.atSeq >= atSeq + 1
      ? this.versionAt(fork.from, atSeq)
      : threadId;
  }

  /** Makes a version active. */
  switchTo(threadId: string): ThreadAlternatives {
    if (!this.paths.has(threadId)) throw new Error(`no version ${threadId}`);
    this.active = threadId;
    return this.alternatives();
  }
}
