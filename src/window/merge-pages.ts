import type { ChunkRow } from '../schema/chunk-row.js';
import type { ChunkPage } from './page.js';
import { startTurnSegment, type TurnSegment } from './turn-segment.js';
import {
  type EventTarget,
  replaceSegment,
  type Segment,
  targetTurn,
  type WindowState,
} from './window-state.js';

function turnIdsOf(rows: readonly ChunkRow[]): ReadonlySet<string> {
  const ids = new Set<string>();
  for (const row of rows) ids.add(row.turnId);
  return ids;
}

/**
 * The turns a page shows to be stored: those of its rows, but for a running turn a live segment
 * continues after a crash (its rows are the steps stored before that, not the turn stored whole).
 */
function storedTurnIds(state: WindowState, page: ChunkPage): ReadonlySet<string> {
  const ids = new Set(turnIdsOf(page.chunks));
  for (const segment of state.segments) {
    if (segment.kind !== 'turn' || !segment.continued) continue;
    if (page.turnStatus?.[segment.turnId] === 'running') ids.delete(segment.turnId);
  }
  return ids;
}

/**
 * Drops the segments that stored rows now stand for: live turns whose id the rows carry or whose
 * key is in `replaced`, and pending messages bound to a dropped turn, naming a stored turn, or
 * (unbound) sent before a dropped turn started (a system notice takes no user message).
 */
function dropStoredSegments(
  state: WindowState,
  stored: ReadonlySet<string>,
  replaced: ReadonlySet<number>,
): WindowState {
  const dropped = new Set<number>();
  let latestDropped = -1;
  for (const segment of state.segments) {
    if (segment.kind !== 'turn') continue;
    if (replaced.has(segment.key) || isStored(segment, stored)) {
      dropped.add(segment.key);
      // A system notice takes no user message: one sent before it waits for its own turn.
      if (segment.rows.role !== 'system') latestDropped = Math.max(latestDropped, segment.key);
    }
  }
  const keep = (segment: Segment): boolean => {
    if (segment.kind === 'turn') return !dropped.has(segment.key);
    if (segment.boundTo !== null && dropped.has(segment.boundTo)) return false;
    if (segment.turnId !== null) return !stored.has(segment.turnId);
    return segment.boundTo !== null || segment.key > latestDropped;
  };
  if (state.segments.every(keep)) return state;
  let target: EventTarget = state.target;
  const current = targetTurn(state);
  if (current !== undefined && dropped.has(current.key)) {
    // A turn found in the store before its last event arrived: drop the rest of its events.
    target = current.closed
      ? { kind: 'none' }
      : { kind: 'ignore', turnId: current.turnId, followed: true };
  }
  return { ...state, segments: state.segments.filter(keep), target };
}

/** Whether the window holds the turn as a live segment that is over. */
function closedTurn(state: WindowState, turnId: string): boolean {
  return state.segments.some((s) => s.kind === 'turn' && s.turnId === turnId && s.closed);
}

function isStored(segment: TurnSegment, stored: ReadonlySet<string>): boolean {
  return !segment.provisional && stored.has(segment.turnId);
}

/**
 * A turn continued with an epoch that is folding its recovery events when a page brings their
 * rows (up to its epoch): started again, skipping the rest of them, as when the page came first.
 */
function skipHeldRecovery(state: WindowState, page: ChunkPage): WindowState {
  let { segments } = state;
  for (const segment of state.segments) {
    if (segment.kind !== 'turn' || segment.recovering !== 'fold') continue;
    const { turnId, key, startedAt } = segment;
    const epoch = (segment.liveFrom as number) - 1;
    if (!page.chunks.some((row) => row.seq === epoch && row.turnId === turnId)) continue;
    const start = { type: 'turn-start', turnId, role: segment.rows.role } as const;
    const skipping = startTurnSegment(key, startedAt, start, true, epoch, true);
    segments = replaceSegment(segments, segment, skipping);
  }
  return { ...state, segments };
}

/**
 * Merges a page loaded by `loadOlder()` (requested with the current cursor): rows deduplicated
 * by `seq`; live turns the page shows to be stored are replaced by their rows.
 *
 * @param state - the state
 * @param page - the validated page
 * @returns the new state
 */
export function mergeOlderPage(state: WindowState, page: ChunkPage): WindowState {
  const next = dropStoredSegments(state, storedTurnIds(state, page), new Set());
  return { ...next, sealed: next.sealed.withOlderPage(page) };
}

/**
 * Merges the first page of a path (the tail: a fresh window's, or after {@link ChunkWindow.reload}):
 * as {@link mergeOlderPage}, except that the rows of a turn the window follows live (or is about
 * to, `expected`: the turn a reload kept) are withheld while that turn runs, so that its events
 * keep streaming (live events that came before the page, with `durability: 'step'`).
 *
 * @param state - the state
 * @param fetched - the validated tail
 * @param expected - the turn a reload kept, if any
 * @returns the new state
 */
export function mergeFirstPage(
  state: WindowState,
  fetched: ChunkPage,
  expected: string | undefined,
): WindowState {
  const next = skipHeldRecovery(state, fetched);
  return mergeOlderPage(next, withoutLiveRunningTurns(next, fetched, expected));
}

/**
 * The tail without the stored part of a turn the window follows live: a turn the page says is
 * `running` whose live segment is still open. Its newest rows are the steps stored so far, and
 * its live events hold them and everything after: showing both would show them twice, and
 * replacing the live turn by its rows would drop its events to come. So its rows — the page's
 * last ones, as a thread's running turn is its newest — are left out (with the thread's `total`)
 * until the turn is over and stored whole. Of a turn continued with an epoch, only the rows its
 * live segment stands for ({@link TurnSegment.liveFrom} on) are left out. `expected` names a turn whose live events are about to
 * come (the turn an edit or a regenerate just started): while running, it is withheld too.
 *
 * @param state - the state
 * @param page - the validated tail
 * @param expected - a turn to withhold while it runs, though no live segment follows it yet
 * @returns the page to merge
 */
export function withoutLiveRunningTurns(
  state: WindowState,
  page: ChunkPage,
  expected?: string,
): ChunkPage {
  const status = page.turnStatus;
  if (status === undefined) return page;
  // Turn id → the seq its rows are withheld from.
  const from = new Map<string, number>();
  for (const segment of state.segments) {
    if (segment.kind !== 'turn' || segment.provisional || status[segment.turnId] !== 'running') {
      continue;
    }
    if (!segment.continued && !segment.closed) from.set(segment.turnId, 0);
    else if (segment.liveFrom !== undefined) from.set(segment.turnId, segment.liveFrom);
  }
  if (expected !== undefined && status[expected] === 'running' && !closedTurn(state, expected)) {
    from.set(expected, 0);
  }
  let end = page.chunks.length;
  while (end > 0) {
    const row = page.chunks[end - 1] as ChunkRow;
    if (row.seq < (from.get(row.turnId) ?? Number.POSITIVE_INFINITY)) break;
    end--;
  }
  if (end === page.chunks.length) return page;
  const chunks = page.chunks.slice(0, end);
  const withheld = page.chunks.length - end;
  const oldestSeq = chunks[0]?.seq ?? null;
  // Its status stays: a continued turn's live segment is not its stored rows while it runs.
  return {
    ...page,
    chunks,
    total: page.total - withheld,
    oldestSeq,
    hasMore: oldestSeq === null ? (page.chunks[0] as ChunkRow).seq > 1 : page.hasMore,
  };
}

/** What {@link mergeTail} did. */
export interface TailMerge {
  readonly state: WindowState;
  /** Keys of ended turns the tail does not hold yet (their write has not landed): retry. */
  readonly waiting: ReadonlySet<number>;
}

/**
 * Merges the tail fetched by `reconcile()`. Replaced by the stored rows, with their pending user
 * messages: every live turn whose rows the tail holds, and each turn of `ended` (over when the
 * tail was requested) that will never be in it — it has nothing to show, it has no id of its own,
 * a turn that started after it is stored (a server stores turns in order), or `giveUp`. The other
 * ended turns stay live and are returned as `waiting`. Turns that started since stay.
 *
 * @param held - the state
 * @param fetched - the validated tail
 * @param ended - keys of the turns that were over when the tail was requested
 * @param giveUp - replace the ended turns the tail does not hold too
 * @returns the new state and the turns still waiting for their rows
 */
export function mergeTail(
  held: WindowState,
  fetched: ChunkPage,
  ended: ReadonlySet<number>,
  giveUp: boolean,
): TailMerge {
  const state = skipHeldRecovery(held, fetched);
  const page = withoutLiveRunningTurns(state, fetched);
  const stored = storedTurnIds(state, page);
  let latestStored = -1;
  for (const segment of state.segments) {
    if (segment.kind === 'turn' && isStored(segment, stored)) {
      latestStored = Math.max(latestStored, segment.key);
    }
  }
  const replaced = new Set<number>();
  const waiting = new Set<number>();
  for (const segment of state.segments) {
    if (segment.kind !== 'turn' || !ended.has(segment.key) || isStored(segment, stored)) continue;
    const hasPending = state.segments.some(
      (s) => s.kind === 'pending' && s.boundTo === segment.key,
    );
    const neverStored =
      giveUp ||
      segment.provisional ||
      segment.key < latestStored ||
      (segment.rowCount === 0 && segment.evictedRows === 0 && !hasPending);
    (neverStored ? replaced : waiting).add(segment.key);
  }
  const next = dropStoredSegments(state, stored, replaced);
  // A tail that held only the live running turn's rows: the rows held stay as they are.
  const sealed =
    page.chunks.length === 0 && fetched.chunks.length > 0
      ? next.sealed
      : next.sealed.withTail(page);
  return { state: { ...next, sealed }, waiting };
}
