import type { ChunkEvent, TurnStartEvent } from '../schema/chunk-event.js';
import { bindPending, createPending, type PendingSegment } from './pending-segment.js';
import {
  foldRecoveryEvent,
  foldTurnEvent,
  startTurnSegment,
  type TurnSegment,
} from './turn-segment.js';
import {
  newestTurn,
  replaceSegment,
  type Segment,
  targetTurn,
  type WindowState,
} from './window-state.js';

/** Hands out increasing keys; a key doubles as the window's clock. */
export type NextKey = () => number;

/**
 * A `turn-start` of a turn continued after a crash (numbered after 0, or with an epoch): its
 * continuation's epoch, the seq of the `resumed` row it stored, when its id carries one.
 */
export interface Continuation {
  readonly epoch: number | undefined;
}

function closeTarget(state: WindowState): readonly Segment[] {
  const current = targetTurn(state);
  if (current === undefined || current.closed) return state.segments;
  return replaceSegment(state.segments, current, { ...current, closed: true });
}

/**
 * The pending messages a turn that just started takes: those naming it, else the oldest unnamed
 * one, unless the turn is a system notice (which answers no user message). When it takes none,
 * `userText` (of the `turn-start` of a turn another client sent: a second tab, a page reloaded
 * mid-turn) as a new pending message naming the turn, which the turn's stored rows replace at
 * the next reconcile, as they replace this window's own.
 */
function pendingTakenBy(
  segments: readonly Segment[],
  event: TurnStartEvent,
  userText: string | undefined,
  nextKey: NextKey,
): readonly PendingSegment[] {
  const named = segments.filter(
    (s): s is PendingSegment => s.kind === 'pending' && s.turnId === event.turnId,
  );
  if (named.length > 0 || event.role === 'system') return named;
  const unnamed = segments.find(
    (s): s is PendingSegment => s.kind === 'pending' && s.turnId === null && s.boundTo === null,
  );
  if (unnamed !== undefined) return [unnamed];
  if (userText === undefined) return [];
  const key = nextKey();
  const text = { type: 'text', step: 0, text: userText } as const;
  return [createPending(key, key, [text], event.turnId)];
}

/**
 * Places a turn that just started after the turns held (they stay in the order they started),
 * right after the pending messages it takes, which move there bound to it: a pending message sits
 * right before its turn, and the messages of turns not started yet (queued) stay after it.
 */
function placeStartedTurn(
  segments: readonly Segment[],
  turn: TurnSegment,
  taken: readonly PendingSegment[],
): readonly Segment[] {
  const rest = segments.filter((s) => s.kind !== 'pending' || !taken.includes(s));
  const at = rest.findLastIndex((s) => s.kind === 'turn') + 1;
  const bound = taken.map((pending) => bindPending(pending, turn.turnId, turn.key));
  return [...rest.slice(0, at), ...bound, turn, ...rest.slice(at)];
}

function startTurn(
  state: WindowState,
  event: TurnStartEvent,
  nextKey: NextKey,
  continuation: Continuation | undefined,
): WindowState {
  const continued = continuation !== undefined;
  // A turn continued after a crash: the turn followed live folds on.
  if (continued && newestTurn(state)?.turnId === event.turnId) return state;
  const segments = closeTarget(state);
  // Its steps stored before the crash stay, and its events follow them live.
  const continuesStored = continued && state.sealed.running.has(event.turnId);
  if (state.sealed.turnIds.has(event.turnId) && !continuesStored) {
    // The steps stored so far of a turn that still ran when its rows were loaded: its events,
    // from its start, show it whole and live.
    const sealed = state.sealed.withoutRunningTurn(event.turnId);
    if (sealed !== undefined) {
      return startTurn({ ...state, sealed, segments }, event, nextKey, continuation);
    }
    // Already stored: a replay. Its events are in the rows; drop them.
    return { ...state, segments, target: { kind: 'ignore', turnId: event.turnId } };
  }
  const known = segments.find(
    (s): s is TurnSegment => s.kind === 'turn' && !s.provisional && s.turnId === event.turnId,
  );
  if (known !== undefined) {
    // The turn is replayed from its start (a reconnect): fold it again from scratch.
    const restarted = startTurnSegment(known.key, known.startedAt, event);
    return {
      ...state,
      segments: replaceSegment(segments, known, restarted),
      target: { kind: 'turn', key: known.key },
    };
  }
  // A continued turn's user message is stored already.
  const taken = pendingTakenBy(segments, event, continued ? undefined : event.userText, nextKey);
  const key = nextKey();
  const epoch = continuation?.epoch;
  // Its rows held up to its epoch (its recovery rows with them): those after go, as its events
  // bring them, and its recovery events are skipped.
  const sealed = epoch === undefined ? undefined : state.sealed.withTurnUpTo(event.turnId, epoch);
  const started = startTurnSegment(key, key, event, continued, epoch, sealed !== undefined);
  return {
    ...state,
    sealed: sealed ?? state.sealed,
    segments: placeStartedTurn(segments, started, taken),
    target: { kind: 'turn', key: started.key },
  };
}

/**
 * Folds one validated event into the window's state: `turn-start` begins a turn (closing the one
 * before); any other event goes to the current turn, or to a new provisional turn when the
 * current one is over or there is none. A `turn-start` numbered after 0 or with an epoch
 * (`continuation`: another process continues the turn after a crash) folds on into the turn
 * followed live, or follows the stored steps of a turn its page said was running: with an epoch
 * the window holds rows up to, the rows after it go (its events bring them) and its recovery
 * events are skipped.
 *
 * @param state - the state
 * @param event - a validated event
 * @param nextKey - hands out segment keys
 * @param continuation - the event is a `turn-start` of a continued turn (numbered after 0, or
 *   with an epoch)
 * @returns the new state, the same object when nothing changed
 */
export function applyEvent(
  state: WindowState,
  event: ChunkEvent,
  nextKey: NextKey,
  continuation?: Continuation,
): WindowState {
  if (event.type === 'turn-start') return startTurn(state, event, nextKey, continuation);
  if (state.target.kind === 'ignore') {
    // The end of a turn followed live that a reconcile found stored first: over, and shown.
    const ended = event.type === 'turn-end' && state.target.followed === true;
    return ended ? { ...state, target: { kind: 'none' } } : state;
  }
  const current = targetTurn(state);
  if (current !== undefined && !current.closed) {
    const next =
      current.recovering === undefined
        ? foldTurnEvent(current, event)
        : foldRecoveryEvent(current, event);
    if (next === current) return state;
    return { ...state, segments: replaceSegment(state.segments, current, next) };
  }
  const key = nextKey();
  const fresh = startTurnSegment(key, key, undefined);
  const folded = foldTurnEvent(fresh, event);
  if (folded.rowCount === 0 && folded.closed) return state;
  return {
    ...state,
    segments: [...state.segments, folded],
    target: { kind: 'turn', key },
  };
}
