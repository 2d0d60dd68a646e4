import type { Chunk } from '../schema/chunk.js';
import { explodeChunks } from '../transforms/explode-turn.js';
import { type LiveEntry, liveEntry } from './log-entry.js';
import type { Segment } from './window-state.js';

/**
 * An optimistic user message: shown at once, replaced by the stored rows at `reconcile()`.
 * Immutable.
 */
export interface PendingSegment {
  readonly kind: 'pending';
  /** Unique in the window. */
  readonly key: number;
  /** `~pending-${key}`: the prefix of its entries' ids, and its turn id until it has a real one. */
  readonly id: string;
  readonly chunks: readonly Chunk[];
  /** The turn it belongs to: given by the app, or taken from the next `turn-start`. */
  readonly turnId: string | null;
  /** The key of the turn segment it was bound to by a `turn-start`. */
  readonly boundTo: number | null;
  /** Its entries, without the ones evicted. */
  readonly entries: readonly LiveEntry[];
  /** How many leading entries were evicted. */
  readonly dropped: number;
  /** The window's clock when it was added. */
  readonly addedAt: number;
}

function entriesFor(
  id: string,
  turnId: string | null,
  chunks: readonly Chunk[],
  dropped: number,
): LiveEntry[] {
  return explodeChunks(turnId ?? id, chunks, 'user')
    .map((row, i) => liveEntry(row, `${id}:${i}`, true))
    .slice(dropped);
}

/**
 * A new pending user message.
 *
 * @param key - its key
 * @param addedAt - the window's clock
 * @param chunks - its content
 * @param turnId - its turn, when the app knows it
 * @returns the segment
 */
export function createPending(
  key: number,
  addedAt: number,
  chunks: readonly Chunk[],
  turnId: string | null,
): PendingSegment {
  const id = `~pending-${key}`;
  return {
    kind: 'pending',
    key,
    id,
    chunks,
    turnId,
    boundTo: null,
    entries: entriesFor(id, turnId, chunks, 0),
    dropped: 0,
    addedAt,
  };
}

/**
 * Binds a pending message to the turn that a `turn-start` began.
 *
 * @param pending - the message
 * @param turnId - the turn's id
 * @param turnKey - the turn segment's key
 * @returns the bound message
 */
export function bindPending(
  pending: PendingSegment,
  turnId: string,
  turnKey: number,
): PendingSegment {
  const entries =
    turnId === pending.turnId
      ? pending.entries
      : entriesFor(pending.id, turnId, pending.chunks, pending.dropped);
  return { ...pending, turnId, boundTo: turnKey, entries };
}

/**
 * Drops up to `count` leading entries of a pending message.
 *
 * @param pending - the message
 * @param count - how many entries should go
 * @returns the message and how many entries went
 */
export function evictPendingRows(
  pending: PendingSegment,
  count: number,
): { readonly segment: PendingSegment; readonly dropped: number } {
  const k = Math.min(count, pending.entries.length);
  if (k <= 0) return { segment: pending, dropped: 0 };
  return {
    segment: { ...pending, entries: pending.entries.slice(k), dropped: pending.dropped + k },
    dropped: k,
  };
}

/**
 * Places a new pending message: right before the live turn it names (bound to it), or last.
 *
 * @param segments - the segments not stored yet
 * @param pending - the new message
 * @returns the new segments
 */
export function insertPending(
  segments: readonly Segment[],
  pending: PendingSegment,
): readonly Segment[] {
  const turnAt =
    pending.turnId === null
      ? -1
      : segments.findIndex((s) => s.kind === 'turn' && s.turnId === pending.turnId);
  const turn = segments[turnAt];
  if (turn === undefined) return [...segments, pending];
  const out = segments.slice();
  out.splice(turnAt, 0, { ...pending, boundTo: turn.key });
  return out;
}
