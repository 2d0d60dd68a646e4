import type { ChunkRow, ChunkRowDraft } from '../schema/chunk-row.js';
import type { TurnStatus } from '../schema/turn-status.js';
import type { StepUsage } from './usage-types.js';

export type { TurnStatus } from '../schema/turn-status.js';
export { TURN_STATUSES } from '../schema/turn-status.js';

/** The statuses a turn can end with: every {@link TurnStatus} but `running`. */
export type EndedTurnStatus = Exclude<TurnStatus, 'running'>;

/**
 * A turn as the store describes it (`getTurnInfo`, `listTurns`).
 *
 * @example
 * ```ts
 * const info: TurnInfo | null = await store.getTurnInfo('thread-1', 'turn-7');
 * if (info?.status === 'running') console.log('rows so far end at', info.nextSeq - 1);
 * ```
 */
export interface TurnInfo {
  readonly threadId: string;
  readonly turnId: string;
  readonly status: TurnStatus;
  /** The seq of the turn's first row. */
  readonly firstSeq: number;
  /** The seq after the turn's last stored row. */
  readonly nextSeq: number;
  /** When the turn began (ISO 8601); for a turn without a status row, when its rows were stored. */
  readonly startedAt: string;
  /** When its status or rows last changed (ISO 8601). */
  readonly updatedAt: string;
  /** The lease holder that began it, when it was begun under a lease. */
  readonly holder: string | null;
}

/**
 * A lease's fencing: the holder and the token it got with the lease. A write given a fence is
 * refused with `lease-lost` unless the thread's lease still has that holder and token and has
 * not expired on the store's clock.
 *
 * @example
 * ```ts
 * const fence: LeaseFence = { holder: lease.holder, token: lease.token };
 * ```
 */
export interface LeaseFence {
  readonly holder: string;
  readonly token: number;
}

/**
 * A thread's lease (`acquireLease`, `renewLease`, `getLease`).
 *
 * @example
 * ```ts
 * const { acquired, lease } = await store.acquireLease('thread-1', 'worker-a', { ttlMs: 30_000 });
 * if (acquired) console.log('token', lease.token, 'until', lease.expiresAt);
 * ```
 */
export interface Lease extends LeaseFence {
  readonly threadId: string;
  /** When it expires, in milliseconds since the epoch on the store's clock (`now`); 0 when released. */
  readonly expiresAtMs: number;
  /** The same, as ISO 8601. */
  readonly expiresAt: string;
}

/** Options of {@link ChunkStoreTurns.acquireLease} and {@link ChunkStoreTurns.renewLease}. */
export interface LeaseOptions {
  /** How long the lease lasts from now (the store's clock), in milliseconds: 1 to 86,400,000. */
  readonly ttlMs: number;
}

/** What {@link ChunkStoreTurns.acquireLease} found. */
export interface AcquireLeaseResult {
  /** Whether the caller holds the lease now. */
  readonly acquired: boolean;
  /** The lease now: the caller's when `acquired`, else the live holder's. */
  readonly lease: Lease;
  /**
   * Whether the lease was taken over from another holder whose lease had expired (its holder
   * died, or stalled): the thread may hold a turn that holder left `running`.
   */
  readonly tookOver: boolean;
}

/** Options of {@link ChunkStoreTurns.beginTurn}. */
export interface BeginTurnOptions {
  /** Begin only while this lease holds (fencing); otherwise `lease-lost` and nothing is written. */
  readonly fence?: LeaseFence | undefined;
}

/** What {@link ChunkStoreTurns.beginTurn} did. */
export interface BeginTurnResult {
  /** False when the turn id was stored already: nothing was written, `rows` are the stored ones. */
  readonly created: boolean;
  /** The turn's status now. */
  readonly status: TurnStatus;
  /** The rows written (`created`), or every stored row of the turn. */
  readonly rows: ChunkRow[];
}

/** Options of {@link ChunkStoreTurns.appendSteps}. */
export interface AppendStepsOptions {
  /** Ends the turn with this status in the same transaction. Default: it stays `running`. */
  readonly status?: EndedTurnStatus | undefined;
  /** Write only while this lease holds (fencing); otherwise `lease-lost` and nothing is written. */
  readonly fence?: LeaseFence | undefined;
  /** Step usage of the turn, recorded in the same transaction (as `recordUsage` does). */
  readonly usage?: readonly StepUsage[] | undefined;
}

/** Options of {@link ChunkStoreTurns.setTurnStatus}. */
export interface SetTurnStatusOptions {
  /** Write only while this lease holds (fencing). */
  readonly fence?: LeaseFence | undefined;
}

/** Options of {@link ChunkStoreTurns.listTurns}. */
export interface ListTurnsOptions {
  /** Only turns with this status (`'running'`: the turns a dead writer may have left). */
  readonly status?: TurnStatus | undefined;
}

/** Options of {@link ChunkStoreTurns.findInterruptedTurns}. */
export interface FindInterruptedTurnsOptions {
  /** The most turns to return (1 to 1,000). Default 100. */
  readonly limit?: number | undefined;
}

/**
 * The store's durable-turn methods (migration `0002`): turns begun and written step by step,
 * their status, and the thread lease that keeps one writer per thread across processes. Part of
 * every {@link ChunkStore}.
 *
 * @example
 * ```ts
 * const fence = (await store.acquireLease('t', 'me', { ttlMs: 30_000 })).lease;
 * await store.beginTurn('t', [{ turnId: 'u1', step: 0, role: 'user', type: 'text', data: { text: 'Hi' } }], { fence });
 * await store.appendSteps('t', 'u1', stepDrafts, { fence });
 * await store.appendSteps('t', 'u1', lastStepDrafts, { fence, status: 'completed' });
 * ```
 */
export interface ChunkStoreTurns {
  /**
   * Begins a turn: stores its first rows (the user's message) and its `running` status in one
   * transaction. When the turn id is stored already, writes nothing and returns what is stored.
   *
   * @throws {ChunklogError} `invalid-row`; `lease-lost`; `store-failed`
   */
  beginTurn(
    threadId: string,
    drafts: readonly ChunkRowDraft[],
    options?: BeginTurnOptions,
  ): Promise<BeginTurnResult>;
  /**
   * Appends one or more finished steps' rows to a `running` turn, in one transaction, right after
   * its rows so far (a turn's rows stay contiguous); with `status`, ends the turn too.
   *
   * @throws {ChunklogError} `turn-not-running`; `lease-lost`; `invalid-row`; `store-failed`
   */
  appendSteps(
    threadId: string,
    turnId: string,
    drafts: readonly ChunkRowDraft[],
    options?: AppendStepsOptions,
  ): Promise<ChunkRow[]>;
  /**
   * Ends a `running` turn with a status, writing no rows.
   *
   * @throws {ChunklogError} `turn-not-running`; `lease-lost`; `store-failed`
   */
  setTurnStatus(
    threadId: string,
    turnId: string,
    status: EndedTurnStatus,
    options?: SetTurnStatusOptions,
  ): Promise<TurnInfo>;
  /** A turn's status and place, or null when the thread holds no such turn. */
  getTurnInfo(threadId: string, turnId: string): Promise<TurnInfo | null>;
  /** The thread's turns that have a status row (begun with `beginTurn`, or sealed with one), oldest first. */
  listTurns(threadId: string, options?: ListTurnsOptions): Promise<TurnInfo[]>;
  /**
   * The turns of every thread left `running` by a writer that is gone: the thread's lease is
   * missing or expired (by the store's clock). Least recently updated first. A sweep (a cron job,
   * a queue worker) closes or continues them: see `recoverInterruptedTurns` in `chunklog/session`.
   * The query reads the turns table without an index on the status: run it now and then, not per
   * request.
   *
   * @throws {ChunklogError} `invalid-option` (`limit`); `store-failed`
   */
  findInterruptedTurns(options?: FindInterruptedTurnsOptions): Promise<TurnInfo[]>;
  /**
   * Takes the thread's lease for `holder` when it is free, expired, or already the holder's
   * (then it is renewed). A new holder gets a fencing token one above the last.
   */
  acquireLease(
    threadId: string,
    holder: string,
    options: LeaseOptions,
  ): Promise<AcquireLeaseResult>;
  /** Extends a held lease from now; false when it was lost (expired and taken, or released). */
  renewLease(threadId: string, fence: LeaseFence, options: LeaseOptions): Promise<boolean>;
  /** Gives a held lease up (it expires now); false when it was not held any more. */
  releaseLease(threadId: string, fence: LeaseFence): Promise<boolean>;
  /** The thread's lease as stored (maybe expired), or null when none was ever taken. */
  getLease(threadId: string): Promise<Lease | null>;
}
