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

/** A snapshot over a {@link LogView}; the view computes `log` and `groups` lazily. */
export class WindowSnapshot implements ChunkWindowSnapshot {
  readonly hasOlder: boolean;
  readonly total: number;
  readonly oldestSeq: number | null;
  readonly liveTurnId: string | null;
  readonly liveTurn: TurnState | null;
  readonly scrolledUp: boolean;
  readonly loadingOlder: boolean;
  readonly reconcileStatus: ReconcileStatus;
  private readonly view: LogView;

  /**
   * @param state - the window's state
   * @param view - the projections of that state
   * @param flags - the window's flags
   */
  constructor(state: WindowState, view: LogView, flags: WindowFlags) {
    const turn = newestTurn(state);
    this.view = view;
    this.hasOlder = state.sealed.hasOlder;
    this.total = state.sealed.total;
    this.oldestSeq = state.sealed.oldestSeq;
    this.liveTurnId = turn?.turnId ?? null;
    this.liveTurn = turn?.state ?? null;
    this.scrolledUp = flags.scrolledUp;
    this.loadingOlder = flags.loadingOlder;
    this.reconcileStatus = flags.reconcileStatus;
    Object.freeze(this);
  }

  get log(): readonly LogEntry[] {
    return this.view.log;
  }

  get groups(): readonly ChatMessage[] {
    return this.view.groups;
  }
}
