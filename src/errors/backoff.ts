// The one retry policy of chunklog: every place that tries something again (a store write after a
// lock conflict or a lost connection, a model call after a 429, the PostgreSQL relay after an
// outage, a turn waiting for a busy lease, the window fetching again for an ended turn) waits
// `backoffDelay` between attempts and sleeps through `sleep`, over timers and randomness it can be
// given (tests give fake ones).

/** Timers to wait on: the global ones by default, fake ones in tests. */
export interface Timers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** The global `setTimeout` and `clearTimeout`. */
export const systemTimers: Timers = {
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** How the wait between attempts grows: doubling from `initialMs`, capped at `maxMs`. */
export interface Backoff {
  /** The wait before the first retry, in milliseconds (before jitter). */
  readonly initialMs: number;
  /** The longest wait, in milliseconds (before jitter). */
  readonly maxMs: number;
  /**
   * Whether each wait is drawn between half and all of its nominal length, so that processes
   * retrying against one server spread out instead of retrying in step.
   */
  readonly jitter: boolean;
}

/**
 * The wait before retry number `retry` (0 for the first retry): `initialMs · 2^retry`, at most
 * `maxMs`, times a draw in [0.5, 1) when the policy jitters.
 *
 * @param policy - the backoff
 * @param retry - how many retries came before this one
 * @param random - a draw in [0, 1); `Math.random` by default
 * @returns milliseconds, never negative
 */
export function backoffDelay(
  policy: Backoff,
  retry: number,
  random: () => number = Math.random,
): number {
  const nominal = Math.min(policy.maxMs, policy.initialMs * 2 ** Math.min(Math.max(retry, 0), 52));
  return policy.jitter ? nominal * (0.5 + random() / 2) : nominal;
}

/**
 * Waits `ms` milliseconds, or less when `signal` aborts.
 *
 * @param ms - the wait
 * @param signal - ends the wait early
 * @param timers - what to wait on; the global timers by default
 * @returns true when the wait ran out, false when the signal aborted (at once if it already had)
 */
export function sleep(
  ms: number,
  signal?: AbortSignal | undefined,
  timers: Timers = systemTimers,
): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal?.aborted) {
      resolve(false);
      return;
    }
    const onAbort = () => {
      timers.clearTimeout(timer);
      resolve(false);
    };
    const timer = timers.setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
