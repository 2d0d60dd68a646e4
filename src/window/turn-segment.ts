import {
  createTurnState,
  evictLeadingChunks,
  reduceTurn,
  type TurnState,
} from '../reducer/index.js';
import type { ChunkEvent, TurnStartEvent } from '../schema/chunk-event.js';
import type { LogEntry } from './log-entry.js';
import { nextRowCount } from './row-count.js';
import { TurnRows } from './turn-rows.js';

/**
 * A turn the window holds that is not stored yet: its reducer state, folded event by event, and
 * the bookkeeping eviction needs. Immutable.
 */
export interface TurnSegment {
  readonly kind: 'turn';
  /** Unique in the window. */
  readonly key: number;
  /** The turn's id, or a provisional `~live-${key}` when events came without a `turn-start`. */
  readonly turnId: string;
  readonly provisional: boolean;
  readonly state: TurnState;
  readonly rows: TurnRows;
  /** Rows of the chunks `state` holds. */
  readonly rowCount: number;
  /** Rows of the chunks evicted so far (the id offset of the first held row). */
  readonly evictedRows: number;
  /** Whether the turn is over: `turn-end` seen, or a later turn started. */
  readonly closed: boolean;
  /**
   * Whether it follows a turn continued after a crash from its `turn-start` numbered after 0:
   * the steps before that are stored rows, not in `state`.
   */
  readonly continued: boolean;
  /**
   * For a turn continued with an epoch (`t1:r12.0`): the seq of the first stored row its rows
   * stand for (rows of the turn from there on are left out of pages while it runs): the epoch
   * plus one, less the rows its recovery events folded to once its `resumed` notice came.
   * Undefined for any other turn.
   */
  readonly liveFrom: number | undefined;
  /**
   * While a continuation's recovery events come (the results it stored for unanswered calls,
   * then its `resumed` notice: its rows up to the epoch), whether they are folded (`fold`) or,
   * when the window holds their rows, skipped (`skip`). Undefined once they came.
   */
  readonly recovering: 'fold' | 'skip' | undefined;
  /** The window's clock when the turn started. */
  readonly startedAt: number;
  /** Events folded since the row count was last recounted in full. */
  readonly sinceRecount: number;
}

/**
 * A new turn segment.
 *
 * @param key - its key
 * @param startedAt - the window's clock
 * @param event - the `turn-start` event, or undefined for events without one
 * @param continued - the `turn-start` of a turn continued after a crash (numbered after 0)
 * @param epoch - its continuation's epoch, if its id had one
 * @param skip - whether the window holds the rows of its recovery events (up to the epoch)
 * @returns the segment
 */
export function startTurnSegment(
  key: number,
  startedAt: number,
  event: TurnStartEvent | undefined,
  continued = false,
  epoch?: number,
  skip = false,
): TurnSegment {
  const turnId = event?.turnId ?? `~live-${key}`;
  const state = event === undefined ? createTurnState() : reduceTurn(createTurnState(), event);
  return {
    kind: 'turn',
    key,
    turnId,
    provisional: event === undefined,
    state,
    rows: new TurnRows(turnId, event?.role ?? 'assistant'),
    rowCount: 0,
    evictedRows: 0,
    closed: state.ended,
    continued,
    liveFrom: epoch === undefined ? undefined : epoch + 1,
    recovering: epoch === undefined ? undefined : skip ? 'skip' : 'fold',
    startedAt,
    sinceRecount: 0,
  };
}

/**
 * Folds one event into a turn.
 *
 * @param segment - the turn
 * @param event - a validated event (not `turn-start`)
 * @returns the new segment, or the same one when the reducer changed nothing
 */
export function foldTurnEvent(segment: TurnSegment, event: ChunkEvent): TurnSegment {
  const state = reduceTurn(segment.state, event);
  if (state === segment.state) return segment;
  const { count, sinceRecount } = nextRowCount(
    segment.rows,
    segment.state,
    state,
    event,
    segment.rowCount,
    segment.sinceRecount,
  );
  return {
    ...segment,
    state,
    rowCount: count,
    sinceRecount,
    closed: segment.closed || state.ended,
  };
}

/**
 * Folds one of a continuation's recovery events (see {@link TurnSegment.recovering}): skipped
 * when the window holds their rows, else folded; after its `resumed` notice, the turn's rows
 * start right after the stored rows of the events folded.
 *
 * @param segment - the turn, while `recovering`
 * @param event - a validated event (not `turn-start`)
 * @returns the new segment
 */
export function foldRecoveryEvent(segment: TurnSegment, event: ChunkEvent): TurnSegment {
  const skip = segment.recovering === 'skip' && event.type !== 'turn-end';
  const next = skip ? segment : foldTurnEvent(segment, event);
  if (event.type !== 'system' || event.kind !== 'resumed') return next;
  const folded = skip ? 0 : next.rowCount + next.evictedRows;
  return { ...next, recovering: undefined, liveFrom: (segment.liveFrom as number) - folded };
}

/** What {@link evictTurnRows} did. */
export interface TurnEviction {
  readonly segment: TurnSegment;
  /** Rows dropped. */
  readonly dropped: number;
  /** Whether it stopped at the open chunk (nothing after it may be evicted). */
  readonly blocked: boolean;
}

/**
 * Drops leading chunks of a turn until at least `want` rows are gone, never the open chunk.
 *
 * @param segment - the turn
 * @param want - how many rows should go
 * @returns the new segment and what was dropped
 */
export function evictTurnRows(segment: TurnSegment, want: number): TurnEviction {
  const { state, rows } = segment;
  const stop = state.openIndex ?? state.chunkCount;
  let dropped = 0;
  let k = 0;
  while (dropped < want && k < stop) {
    dropped += rows.countOf(state.chunkAt(k));
    k++;
  }
  const blocked = dropped < want && stop < state.chunkCount;
  if (k === 0) return { segment, dropped: 0, blocked };
  const next = evictLeadingChunks(state, k);
  const actual = next.evicted - state.evicted;
  dropped = 0;
  for (let i = 0; i < actual; i++) {
    const chunk = state.chunkAt(i);
    dropped += rows.countOf(chunk);
    if (chunk !== undefined) rows.forgetCalls(chunk, state.evicted + i);
  }
  return {
    segment: {
      ...segment,
      state: next,
      rowCount: segment.rowCount - dropped,
      evictedRows: segment.evictedRows + dropped,
    },
    dropped,
    blocked: blocked || actual < k,
  };
}

/**
 * Appends a turn's entries to `out`.
 *
 * @param segment - the turn
 * @param out - the log being built
 */
export function pushTurnEntries(segment: TurnSegment, out: LogEntry[]): void {
  const { state, rows } = segment;
  let offset = segment.evictedRows;
  for (let i = 0; i < state.chunkCount; i++) {
    const chunk = state.chunkAt(i);
    if (chunk === undefined) continue;
    const entries = rows.entriesOf(chunk, offset);
    for (const entry of entries) out.push(entry);
    offset += entries.length;
  }
}
