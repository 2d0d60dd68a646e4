import type { ChunkRow } from '../schema/chunk-row.js';
import { type SealedEntry, sealedEntry } from './log-entry.js';
import type { ChunkPage } from './page.js';

const NONE: ReadonlySet<string> = new Set();

/**
 * The stored rows a window holds: one contiguous run of the thread's log, oldest first, with
 * the cursor of the next older page. Immutable: every change returns a new value, so a snapshot
 * can keep the one it was made from.
 */
export class SealedRows {
  /** The held rows as log entries, in ascending `seq`, each `seq` once. */
  readonly entries: readonly SealedEntry[];
  /** The `before` of the next older page; undefined until something was loaded. */
  readonly cursor: number | undefined;
  /** Whether rows older than the held ones exist; undefined until a page said. */
  readonly olderExists: boolean | undefined;
  /** The thread's row count, as the latest page reported it (0 before any page). */
  readonly total: number;
  /** The thread of the rows, once a row was seen. */
  readonly threadId: string | undefined;
  /**
   * The turns whose held rows are the steps stored so far of a turn still running when its page
   * was loaded (`durability: 'step'`): its live events, replayed from its `turn-start`, replace
   * them ({@link SealedRows.withoutRunningTurn}).
   */
  readonly running: ReadonlySet<string>;
  private turnIdSet: ReadonlySet<string> | undefined;

  private constructor(
    entries: readonly SealedEntry[],
    cursor: number | undefined,
    olderExists: boolean | undefined,
    total: number,
    threadId: string | undefined,
    running: ReadonlySet<string> = NONE,
  ) {
    this.entries = entries;
    this.cursor = cursor;
    this.olderExists = olderExists;
    this.total = total;
    this.threadId = threadId;
    this.running = running;
  }

  /** Nothing loaded yet. */
  static readonly EMPTY: SealedRows = new SealedRows([], undefined, undefined, 0, undefined);

  /** Whether older rows may exist: true until a page says otherwise. */
  get hasOlder(): boolean {
    return this.olderExists ?? true;
  }

  /** The smallest held `seq`, or null when nothing is held. */
  get oldestSeq(): number | null {
    return this.entries[0]?.seq ?? null;
  }

  /** The turn ids of the held rows (computed once per value). */
  get turnIds(): ReadonlySet<string> {
    if (this.turnIdSet === undefined) {
      const ids = new Set<string>();
      for (const entry of this.entries) ids.add(entry.turnId);
      this.turnIdSet = ids;
    }
    return this.turnIdSet;
  }

  /**
   * Drops the `count` oldest rows.
   *
   * @param count - how many rows to drop (at most all of them)
   * @returns the rows left
   */
  evictFront(count: number): SealedRows {
    const k = Math.min(count, this.entries.length);
    if (k <= 0) return this;
    const lastDropped = (this.entries[k - 1] as SealedEntry).seq;
    const entries = this.entries.slice(k);
    const cursor = entries[0]?.seq ?? lastDropped + 1;
    return new SealedRows(entries, cursor, true, this.total, this.threadId, this.running);
  }

  /**
   * Drops the held rows of a turn that was running when they were loaded, when they are the
   * newest held (as a running turn's are): its live events, replayed from its start, show it.
   *
   * @param turnId - a turn of {@link SealedRows.running}
   * @returns the rows without it, or undefined when its rows are not the newest held
   */
  withoutRunningTurn(turnId: string): SealedRows | undefined {
    if (!this.running.has(turnId)) return undefined;
    let end = this.entries.length;
    while (end > 0 && (this.entries[end - 1] as SealedEntry).turnId === turnId) end--;
    const dropped = this.entries.length - end;
    if (dropped === 0 || this.entries.slice(0, end).some((e) => e.turnId === turnId)) {
      return undefined;
    }
    const running = new Set(this.running);
    running.delete(turnId);
    return new SealedRows(
      this.entries.slice(0, end),
      this.cursor,
      this.olderExists,
      this.total - dropped,
      this.threadId,
      running,
    );
  }

  /**
   * The rows without those of a turn continued after a crash stored after its continuation's
   * epoch (the seq of the `resumed` row it stored): the continuation's steps, which its live
   * events show, when the rows held reach the epoch.
   *
   * @param turnId - the continued turn
   * @param epoch - its continuation's epoch
   * @returns the rows, or undefined when no row of the turn at or after the epoch is held
   */
  withTurnUpTo(turnId: string, epoch: number): SealedRows | undefined {
    const { entries } = this;
    if (!entries.some((e) => e.turnId === turnId && e.seq >= epoch)) return undefined;
    const kept = entries.filter((e) => e.turnId !== turnId || e.seq <= epoch);
    const total = this.total - entries.length + kept.length;
    return new SealedRows(kept, this.cursor, this.olderExists, total, this.threadId, this.running);
  }

  /**
   * Merges a page loaded with `before` equal to this value's cursor: rows deduplicated by `seq`
   * (a held row wins over its copy), ascending `seq`. Rows at or after the cursor (a server that
   * overlaps its pages) are copies of held rows or rows evicted on purpose, and are ignored.
   *
   * @param page - the validated page
   * @returns the merged rows
   */
  withOlderPage(page: ChunkPage): SealedRows {
    const threadId = this.threadId ?? page.chunks[0]?.threadId;
    const cursor = this.cursor;
    const rows = cursor === undefined ? page.chunks : page.chunks.filter((r) => r.seq < cursor);
    const oldest = rows[0];
    if (oldest === undefined) {
      // Nothing older than the cursor.
      return new SealedRows(this.entries, this.cursor, false, page.total, threadId, this.running);
    }
    const entries = mergeBySeq(this.entries, rows);
    // The first page (the tail) says which of its turns still run; an older one has none.
    const running = cursor === undefined ? runningTurns(page) : this.running;
    return new SealedRows(entries, oldest.seq, page.hasMore, page.total, threadId, running);
  }

  /**
   * Merges the thread's tail (the newest rows). Held rows stay only where they join the tail
   * without a gap (seqs are dense); held rows the tail does not reach back to are dropped, so the
   * held rows stay one contiguous run.
   *
   * @param page - the validated tail page
   * @returns the merged rows
   */
  withTail(page: ChunkPage): SealedRows {
    const first = page.chunks[0];
    const last = page.chunks[page.chunks.length - 1];
    if (first === undefined || last === undefined) {
      return new SealedRows([], undefined, false, page.total, this.threadId);
    }
    const heldNewest = this.entries[this.entries.length - 1]?.seq;
    const joins = heldNewest !== undefined && heldNewest + 1 >= first.seq;
    const held = joins ? this.entries.filter((e) => e.seq <= last.seq) : [];
    const entries = mergeBySeq(held, page.chunks);
    const keptOlder = held.length > 0 && (held[0] as SealedEntry).seq < first.seq;
    return new SealedRows(
      entries,
      (entries[0] as SealedEntry).seq,
      keptOlder ? this.olderExists : page.hasMore,
      page.total,
      this.threadId ?? first.threadId,
      runningTurns(page),
    );
  }
}

/** The turns a page says are running. */
function runningTurns(page: ChunkPage): ReadonlySet<string> {
  const status = page.turnStatus;
  if (status === undefined) return NONE;
  const running = new Set<string>();
  for (const [turnId, value] of Object.entries(status))
    if (value === 'running') running.add(turnId);
  return running.size === 0 ? NONE : running;
}

/** Merges held entries and page rows (both ascending), each `seq` once, held entries first. */
function mergeBySeq(held: readonly SealedEntry[], rows: readonly ChunkRow[]): SealedEntry[] {
  const out: SealedEntry[] = [];
  let i = 0;
  let j = 0;
  while (i < held.length || j < rows.length) {
    const a = held[i];
    const b = rows[j];
    if (b === undefined || (a !== undefined && a.seq <= b.seq)) {
      out.push(a as SealedEntry);
      i++;
      if (b !== undefined && (a as SealedEntry).seq === b.seq) j++;
    } else {
      out.push(sealedEntry(b));
      j++;
    }
  }
  return out;
}
