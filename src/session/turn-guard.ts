import { ChunklogError } from '../errors/chunklog-error.js';
import type { ChunkRow } from '../schema/chunk-row.js';
import type { LeaseFence, TurnInfo } from '../store/turn-types.js';
import { turnExists } from './durable-turn.js';
import { type HeldLease, type LeaseStore, takeLease } from './lease.js';
import { isRecoveryStore } from './recovery.js';
import type { TurnHandleImpl } from './turn-handle.js';
import type { SessionConfig } from './validate-options.js';

/** What a session does with a `send` whose turn id the thread already holds. */
export type ExistingTurnPolicy = 'return' | 'error';

/** The store method the existing-turn check needs. */
interface TurnInfoStore {
  getTurnInfo(threadId: string, turnId: string): Promise<TurnInfo | null>;
  getTurn(threadId: string, turnId: string): Promise<ChunkRow[] | null>;
}

function hasTurnInfo(store: unknown): store is TurnInfoStore {
  const s = store as Partial<TurnInfoStore> | null;
  return typeof s?.getTurnInfo === 'function' && typeof s.getTurn === 'function';
}

/** A turn settled from the store instead of being run. */
export interface StoredTurn {
  readonly outcome: 'completed' | 'failed' | 'cancelled';
  readonly rows: readonly ChunkRow[];
}

/**
 * What a session checks before it runs a turn: it takes the thread's lease (`lease`), closes
 * the turns a dead holder left `running` (once per session, and after every takeover), and
 * finds a turn id the client sent again (a retried POST) stored already.
 */
export class TurnGuard {
  readonly #config: SessionConfig;
  readonly #closed: AbortSignal;
  /** Turn ids the caller chose (a retry may repeat one); generated ids are new. */
  readonly #explicit = new Set<string>();
  #waiting: { handle: TurnHandleImpl; controller: AbortController } | undefined;
  #recovered = false;
  readonly #recover: (fence: LeaseFence) => Promise<unknown>;

  /**
   * @param config - the session's configuration
   * @param closed - aborts when the session closes
   * @param recover - recovers the turns a dead holder left `running` (the session's `recovery`
   *   policy), under the lease just taken
   */
  constructor(
    config: SessionConfig,
    closed: AbortSignal,
    recover: (fence: LeaseFence) => Promise<unknown>,
  ) {
    this.#config = config;
    this.#closed = closed;
    this.#recover = recover;
  }

  /**
   * Whether the turn needs {@link TurnGuard.beforeTurn}: with a lease, or a turn id the caller
   * chose. Otherwise the turn starts at once (synchronously), as without the guard.
   */
  needed(turnId: string): boolean {
    return this.#config.lease !== undefined || this.#explicit.has(turnId);
  }

  /** The caller chose this turn id: check the store for it before running the turn. */
  markExplicit(turnId: string): void {
    this.#explicit.add(turnId);
  }

  /**
   * Takes the lease (waiting for it, or failing with `thread-busy`), recovers interrupted turns,
   * and checks an explicit turn id.
   *
   * @returns the held lease (undefined without `lease`), and the stored turn when the turn id is
   *   stored already (the turn must not run)
   * @throws {ChunklogError} `thread-busy`; `turn-exists`; `aborted` (cancelled while waiting)
   */
  async beforeTurn(
    handle: TurnHandleImpl,
    onLost: (error: ChunklogError) => void,
  ): Promise<{ held: HeldLease | undefined; stored: StoredTurn | undefined }> {
    const { lease, turn } = this.#config;
    let held: HeldLease | undefined;
    if (lease !== undefined) {
      const controller = new AbortController();
      const onClose = () => controller.abort();
      this.#closed.addEventListener('abort', onClose, { once: true });
      this.#waiting = { handle, controller };
      try {
        held = await takeLease(
          turn.store as unknown as LeaseStore,
          turn.threadId,
          lease,
          controller.signal,
          onLost,
        );
      } finally {
        this.#waiting = undefined;
        this.#closed.removeEventListener('abort', onClose);
      }
      if ((held.tookOver || !this.#recovered) && isRecoveryStore(turn.store)) {
        try {
          await this.#recover(held.fence);
          this.#recovered = true;
        } catch (error) {
          this.#config.onError(error, { source: 'store', turnId: handle.turnId });
        }
      }
    }
    try {
      return { held, stored: await this.#existing(handle.turnId) };
    } catch (error) {
      await held?.release();
      throw error;
    }
  }

  async #existing(turnId: string): Promise<StoredTurn | undefined> {
    if (!this.#explicit.delete(turnId)) return undefined;
    const { store, threadId } = this.#config.turn;
    if (!hasTurnInfo(store)) return undefined;
    const info = await store.getTurnInfo(threadId, turnId);
    if (info === null) return undefined;
    if (this.#config.onExistingTurn === 'error' || info.status === 'running') {
      throw turnExists(threadId, turnId, info.status);
    }
    const rows = (await store.getTurn(threadId, turnId)) ?? [];
    const outcome =
      info.status === 'completed'
        ? 'completed'
        : info.status === 'cancelled'
          ? 'cancelled'
          : 'failed';
    return { outcome, rows };
  }

  /** Cancels the turn's wait for the lease; false when it is not waiting. */
  cancelWaiting(handle: TurnHandleImpl): boolean {
    if (this.#waiting?.handle !== handle) return false;
    this.#waiting.controller.abort();
    return true;
  }

  /** The session closes: a turn waiting for the lease stops waiting. */
  close(): void {
    this.#waiting?.controller.abort();
  }
}

/** Whether an error is the end of a wait for the lease that was cancelled. */
export function isCancelledWait(error: unknown): boolean {
  return ChunklogError.hasCode(error, 'aborted');
}
