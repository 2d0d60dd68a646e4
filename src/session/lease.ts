import { backoffDelay, sleep } from '../errors/backoff.js';
import { ChunklogError } from '../errors/chunklog-error.js';
import { readOptions } from '../errors/invalid-option.js';
import type { AcquireLeaseResult, LeaseFence } from '../store/turn-types.js';
import type { SessionStore } from './store.js';

/** The longest `lease.holder`: the store's 255 characters, less the session's own suffix. */
const MAX_HOLDER_NAME = 246;

/**
 * The thread lease of a session (`lease` option): while a turn runs, the session holds the
 * thread's lease in the store, so that one process at a time writes the thread's turns.
 *
 * @example
 * ```ts
 * const lease: SessionLeaseOptions = { ttlMs: 30_000, onBusy: 'wait' };
 * ```
 */
export interface SessionLeaseOptions {
  /**
   * How long the lease lasts without renewal, in milliseconds of the store's clock (its `now`).
   * The session renews it every third of that while a turn runs; a holder that died loses it
   * after at most this long. Default 30,000.
   */
  readonly ttlMs?: number | undefined;
  /**
   * This session's holder id (1 to 246 characters), a name that says who holds the lease (a pod's
   * name, say). The session holds the lease as `<holder>#<8 random characters>`, so that two
   * sessions given one name (two requests on one pod) never both hold it. Default: a random UUID.
   */
  readonly holder?: string | undefined;
  /**
   * What a turn does when another live holder has the lease: `'wait'` (default) until it is
   * released or expires, or `'error'`: the turn fails at once with `thread-busy`, the model not
   * called and nothing stored.
   */
  readonly onBusy?: 'wait' | 'error' | undefined;
  /**
   * How long, after one of its turns gave the lease up, this session waits before its next
   * queued turn takes it again, in milliseconds: time for a turn another process waits with to
   * take the lease first (waiters look every 250 ms at most, so give more than that). Default 0:
   * a session runs its queued turns back to back, and another process's turn waits for the
   * queue to empty (or for the lease to expire).
   */
  readonly handoffMs?: number | undefined;
}

/** The store methods a session lease needs. */
export type LeaseStore = Pick<SessionStore, 'acquireLease' | 'renewLease' | 'releaseLease'>;

/** The checked lease options. */
export interface LeaseConfig {
  readonly ttlMs: number;
  readonly holder: string;
  readonly onBusy: 'wait' | 'error';
  readonly handoffMs: number;
}

/** The default lease duration: 30 s. */
export const DEFAULT_LEASE_TTL_MS = 30_000;

/**
 * Checks the `lease` option.
 *
 * @returns the lease configuration, or undefined for none
 * @throws {ChunklogError} `invalid-option`, naming the option
 */
export function checkLeaseOption(value: unknown): LeaseConfig | undefined {
  if (value === undefined || value === false) return undefined;
  const invalid = (option: string, message: string, v: unknown): never => {
    throw new ChunklogError('invalid-option', `createAgentSession: ${message}`, {
      option,
      value: v,
    });
  };
  if (value !== true && (typeof value !== 'object' || value === null)) {
    invalid(
      'lease',
      '`lease` must be true, false or { ttlMs?, holder?, onBusy?, handoffMs? }',
      value,
    );
  }
  const o = (
    value === true
      ? {}
      : readOptions(
          value,
          'createAgentSession',
          ['ttlMs', 'holder', 'onBusy', 'handoffMs'],
          'lease',
        )
  ) as SessionLeaseOptions;
  const ttlMs = o.ttlMs ?? DEFAULT_LEASE_TTL_MS;
  if (!Number.isSafeInteger(ttlMs) || ttlMs < 3 || ttlMs > 86_400_000) {
    invalid('lease.ttlMs', '`lease.ttlMs` must be an integer from 3 to 86,400,000', ttlMs);
  }
  const named = o.holder;
  if (
    named !== undefined &&
    (typeof named !== 'string' || named.length === 0 || named.length > MAX_HOLDER_NAME)
  ) {
    invalid('lease.holder', '`lease.holder` must be a string of 1 to 246 characters', named);
  }
  // The store renews a live lease for its own holder: each session's id must be its own.
  const holder =
    named === undefined
      ? globalThis.crypto.randomUUID()
      : `${named}#${globalThis.crypto.randomUUID().replaceAll('-', '').slice(0, 8)}`;
  const onBusy = o.onBusy ?? 'wait';
  if (onBusy !== 'wait' && onBusy !== 'error') {
    invalid('lease.onBusy', "`lease.onBusy` must be 'wait' or 'error'", onBusy);
  }
  const handoffMs = o.handoffMs ?? 0;
  if (!Number.isSafeInteger(handoffMs) || handoffMs < 0 || handoffMs > 60_000) {
    invalid('lease.handoffMs', '`lease.handoffMs` must be an integer from 0 to 60,000', handoffMs);
  }
  return { ttlMs, holder, onBusy, handoffMs };
}

/** How long a waiting turn sleeps between two attempts at a busy lease, at most, in milliseconds. */
const MAX_WAIT_STEP_MS = 250;

/**
 * A held lease: renewed in the background until {@link HeldLease.release}; `onLost` is called
 * once if a renewal finds it lost.
 */
export class HeldLease {
  readonly fence: LeaseFence;
  /** Whether the lease was taken over from a holder whose lease had expired. */
  readonly tookOver: boolean;
  readonly #store: LeaseStore;
  readonly #threadId: string;
  readonly #config: LeaseConfig;
  #timer: ReturnType<typeof setInterval> | undefined;
  #renewing: Promise<unknown> = Promise.resolve();

  constructor(
    store: LeaseStore,
    threadId: string,
    config: LeaseConfig,
    result: AcquireLeaseResult,
    onLost: (error: ChunklogError) => void,
  ) {
    this.#store = store;
    this.#threadId = threadId;
    this.#config = config;
    this.fence = { holder: result.lease.holder, token: result.lease.token };
    this.tookOver = result.tookOver;
    let lost = false;
    const renew = () => {
      this.#renewing = this.#store
        .renewLease(this.#threadId, this.fence, { ttlMs: this.#config.ttlMs })
        .then(
          (held) => {
            if (held || lost) return;
            lost = true;
            this.#stop();
            onLost(leaseLost(this.#threadId, this.fence));
          },
          () => {
            // A failed renewal is tried again at the next tick; the writes are fenced anyway.
          },
        );
    };
    this.#timer = setInterval(renew, Math.max(1, Math.floor(config.ttlMs / 3)));
    (this.#timer as { unref?: () => void }).unref?.();
  }

  #stop(): void {
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
  }

  /** Stops renewing and gives the lease up (best effort: it expires anyway). */
  async release(): Promise<void> {
    this.#stop();
    await this.#renewing;
    await this.#store.releaseLease(this.#threadId, this.fence).catch(() => false);
  }
}

function leaseLost(threadId: string, fence: LeaseFence): ChunklogError {
  return new ChunklogError(
    'lease-lost',
    `The session's lease on thread ${JSON.stringify(threadId)} (${fence.holder}, token ${fence.token}) was lost: it expired and another holder took it.`,
    { threadId },
  );
}

/**
 * The `thread-busy` error.
 *
 * @param threadId - the thread
 * @param holder - the live holder
 */
export function threadBusy(threadId: string, holder: string): ChunklogError {
  return new ChunklogError(
    'thread-busy',
    `Thread ${JSON.stringify(threadId)} is busy: ${JSON.stringify(holder)} holds its lease and runs a turn there. The model was not called and nothing was stored.`,
    { threadId, value: holder },
  );
}

/**
 * Takes the thread's lease for a turn: at once when it is free or expired; when another live
 * holder has it, waits (`onBusy: 'wait'`, until `signal` aborts) or fails with `thread-busy`.
 *
 * @returns the held lease, renewed until released
 * @throws {ChunklogError} `thread-busy`; `aborted` when `signal` aborts while waiting; the store's errors
 */
export async function takeLease(
  store: LeaseStore,
  threadId: string,
  config: LeaseConfig,
  signal: AbortSignal,
  onLost: (error: ChunklogError) => void,
): Promise<HeldLease> {
  for (let attempt = 0; ; attempt++) {
    const result = await store.acquireLease(threadId, config.holder, { ttlMs: config.ttlMs });
    if (result.acquired) return new HeldLease(store, threadId, config, result, onLost);
    if (config.onBusy === 'error') throw threadBusy(threadId, result.lease.holder);
    if (signal.aborted) {
      throw new ChunklogError(
        'aborted',
        `Waiting for the lease of thread ${threadId} was cancelled.`,
      );
    }
    // 5 ms, doubling to a quarter of the lease (at most 250 ms), jittered; an abort ends it.
    const maxMs = Math.min(MAX_WAIT_STEP_MS, config.ttlMs / 4);
    await sleep(
      backoffDelay({ initialMs: Math.min(5, maxMs), maxMs, jitter: true }, attempt),
      signal,
    );
  }
}
