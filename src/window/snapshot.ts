import type { TurnState } from '../reducer/index.js';
import type { ChatMessage } from '../schema/chat-message.js';
import type { LogEntry } from './log-entry.js';
import type { LogView } from './log-view.js';
import { newestTurn, type WindowState } from './window-state.js';

/**
 * Where the window's `reconcile()` is: nothing to do, waiting for the user to get back to the
 * bottom, or fetching the tail.
 *
 * @example
 * ```ts
 * const syncing: boolean = window.getSnapshot().reconcileStatus !== 'idle';
 * ```
 */
export type ReconcileStatus = 'idle' | 'waiting' | 'loading';

/**
 * Everything a window shows, frozen at one moment. `getSnapshot()` returns the same object until
 * something changes. `log` and `groups` are computed on first read.
 *
 * @example
 * ```ts
 * const { groups, hasOlder, loadingOlder } = window.getSnapshot();
 * ```
 */
export interface ChunkWindowSnapshot {
  /** Stored rows (oldest first), then the rows not stored yet (pending user rows, live turns). */
  readonly log: readonly LogEntry[];
  /** `groupRowsToMessages(log)`: the render projection, keyed by stable message ids. */
  readonly groups: readonly ChatMessage[];
  /** Whether older rows may be loaded with `loadOlder()`. */
  readonly hasOlder: boolean;
  /** The thread's row count, as the latest page said (0 before any page). */
  readonly total: number;
  /** The smallest `seq` held, or null. */
  readonly oldestSeq: number | null;
  /**
   * The id of the newest turn not stored yet (provisional `~live-N` for events that came without
   * a `turn-start`), or null.
   */
  readonly liveTurnId: string | null;
  /** The reducer state of that turn (usage, finish reason, steps), or null. */
  readonly liveTurn: TurnState | null;
  /** Whether the user is scrolled up (no eviction, reconcile deferred). */
  readonly scrolledUp: boolean;
  /** Whether a `loadOlder()` request is in flight. */
  readonly loadingOlder: boolean;
  /** Where `reconcile()` is. */
  readonly reconcileStatus: ReconcileStatus;
}

/** The flags a snapshot shows besides the state. */
export interface WindowFlags {
  readonly scrolledUp: boolean;
  readonly loadingOlder: boolean;
  readonly reconcileStatus: ReconcileStatus;
}

/**
 * A snapshot over a {@link LogView}, frozen; `log` and `groups` are the view's, computed lazily.
 *
 * @param state - the window's state
 * @param view - the projections of that state
 * @param flags - the window's flags
 * @returns the snapshot
 */
export function windowSnapshot(
  state: WindowState,
  view: LogView,
  flags: WindowFlags,
): ChunkWindowSnapshot {
  const turn = newestTurn(state);
  const { hasOlder, total, oldestSeq } = state.sealed;
  return Object.freeze({
    get log(): readonly LogEntry[] {
      return view.log;
    },
    get groups(): readonly ChatMessage[] {
      return view.groups;
    },
    hasOlder,
    total,
    oldestSeq,
    liveTurnId: turn?.turnId ?? null,
    liveTurn: turn?.state ?? null,
    scrolledUp: flags.scrolledUp,
    loadingOlder: flags.loadingOlder,
    reconcileStatus: flags.reconcileStatus,
  });
}
