import { type ChatMessage, messageId } from '../schema/chat-message.js';
import type { Chunk } from '../schema/chunk.js';
import { groupRows } from '../transforms/group-rows.js';
import type { LiveEntry, LogEntry } from './log-entry.js';
import type { PendingSegment } from './pending-segment.js';
import type { SealedRows } from './sealed-rows.js';
import { pushTurnEntries, type TurnSegment } from './turn-segment.js';
import { type Segment, segmentSize } from './window-state.js';

/** What holds entries grouped once and kept: the stored rows, a pending segment. */
type GroupedPart = SealedRows | PendingSegment;

const partGroups = new WeakMap<GroupedPart, readonly ChatMessage[]>();

/** `groupRows` of a part's entries, built once per part (each part is immutable). */
function cachedGroups(part: GroupedPart): readonly ChatMessage[] {
  let groups = partGroups.get(part);
  if (groups === undefined) {
    groups = groupRows(part.entries);
    partGroups.set(part, groups);
  }
  return groups;
}

/**
 * The message of a live turn (its assistant message, or a system message for a system event
 * outside a turn), from its chunks' cached groupings; null to fall back.
 */
function turnMessage(segment: TurnSegment): ChatMessage | null | undefined {
  const { state, rows } = segment;
  const chunks: Chunk[] = [];
  for (let i = 0; i < state.chunkCount; i++) {
    const chunk = state.chunkAt(i);
    if (chunk === undefined) continue;
    const grouped = rows.groupedOf(chunk);
    if (grouped === null) return null;
    for (const c of grouped) chunks.push(c);
  }
  if (chunks.length === 0) return undefined;
  const { turnId } = segment;
  const { role } = rows;
  return { id: messageId(turnId, role), turnId, role, chunks };
}

/**
 * `groupRowsToMessages` of the entries not stored yet, built segment by segment (a live turn from
 * per-chunk groupings cached by chunk identity), or null when that could differ from grouping
 * them together (a message id met twice, a chunk that groups into another message).
 */
function liveGroups(segments: readonly Segment[]): ChatMessage[] | null {
  const out: ChatMessage[] = [];
  const ids = new Set<string>();
  for (const segment of segments) {
    const messages = segment.kind === 'pending' ? cachedGroups(segment) : [turnMessage(segment)];
    for (const message of messages) {
      if (message === undefined) continue;
      if (message === null || ids.has(message.id)) return null;
      // Two system messages in a row group into one: group them together then.
      if (message.role === 'system' && out[out.length - 1]?.role === 'system') return null;
      ids.add(message.id);
      out.push(message);
    }
  }
  return out;
}

/**
 * The projections of one window state: the flat `log` and the render `groups`, each built on
 * first read and kept. Stored rows are grouped once per change of the stored part; the part not
 * stored yet is rebuilt from per-chunk caches, so a delta costs O(entries not stored), which
 * eviction bounds by the limit.
 */
export class LogView {
  readonly sealed: SealedRows;
  readonly segments: readonly Segment[];
  private liveCache: readonly LiveEntry[] | undefined;
  private logCache: readonly LogEntry[] | undefined;
  private groupsCache: readonly ChatMessage[] | undefined;

  /**
   * @param sealed - the stored rows
   * @param segments - the segments not stored yet
   */
  constructor(sealed: SealedRows, segments: readonly Segment[]) {
    this.sealed = sealed;
    this.segments = segments;
  }

  /** The entries after the stored rows: pending messages and live turns, in log order. */
  get liveEntries(): readonly LiveEntry[] {
    if (this.liveCache === undefined) {
      const out: LogEntry[] = [];
      for (const segment of this.segments) {
        if (segment.kind === 'turn') pushTurnEntries(segment, out);
        else for (const entry of segment.entries) out.push(entry);
      }
      this.liveCache = out as LiveEntry[];
    }
    return this.liveCache;
  }

  /** Stored rows, then the entries not stored yet. */
  get log(): readonly LogEntry[] {
    if (this.logCache === undefined) {
      const live = this.liveEntries;
      const sealed = this.sealed.entries;
      this.logCache =
        live.length === 0 ? sealed : sealed.length === 0 ? live : [...sealed, ...live];
    }
    return this.logCache;
  }

  /** `groupRowsToMessages(log)`, with the stored part's messages reused while it is unchanged. */
  get groups(): readonly ChatMessage[] {
    if (this.groupsCache === undefined) this.groupsCache = this.buildGroups();
    return this.groupsCache;
  }

  private buildGroups(): readonly ChatMessage[] {
    const stored = cachedGroups(this.sealed);
    if (this.segments.every((segment) => segmentSize(segment) === 0)) return stored;
    const fresh = liveGroups(this.segments) ?? groupRows(this.liveEntries);
    if (stored.length === 0) return fresh;
    // A turn on both sides of the boundary, or two system messages meeting there, would group
    // differently together: group the whole log then.
    const turnIds = this.sealed.turnIds;
    for (const segment of this.segments) {
      const turnId = segment.kind === 'turn' ? segment.turnId : (segment.turnId ?? segment.id);
      if (turnIds.has(turnId)) return groupRows(this.log);
    }
    if (stored[stored.length - 1]?.role === 'system' && fresh[0]?.role === 'system') {
      return groupRows(this.log);
    }
    return [...stored, ...fresh];
  }
}
