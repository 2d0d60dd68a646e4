import { ChunklogError } from '../errors/chunklog-error.js';

/** What an operation that ran out of time is told, as the reason of its deadline. */
export class DeadlineReached extends Error {
  constructor() {
    super('deadline reached');
    this.name = 'DeadlineReached';
  }
}

/**
 * The time a store operation may take: a timer started with the operation, which rejects
 * {@link Deadline.race} once it fires. Nothing in it measures time for a result: an operation
 * that finishes first is never affected, whatever the clock says.
 */
export class Deadline {
  readonly #timer: ReturnType<typeof setTimeout>;
  readonly #expired: Promise<never>;
  #reached = false;

  /** @param ms - the time the operation may take */
  constructor(readonly ms: number) {
    let reject: (reason: unknown) => void = () => {};
    this.#expired = new Promise<never>((_, rejectExpired) => {
      reject = rejectExpired;
    });
    // Never an unhandled rejection: only `race` callers observe it.
    this.#expired.catch(ignore);
    this.#timer = setTimeout(() => {
      this.#reached = true;
      reject(new DeadlineReached());
    }, ms);
    (this.#timer as { unref?: () => void }).unref?.();
  }

  /** Whether the time is up. */
  get expired(): boolean {
    return this.#reached;
  }

  /**
   * `work`'s result, or a {@link DeadlineReached} rejection when the time is up first. `work`
   * goes on in the background then; its own failure is ignored.
   */
  race<T>(work: Promise<T>): Promise<T> {
    work.catch(ignore);
    if (this.#reached) return Promise.reject(new DeadlineReached());
    return Promise.race([work, this.#expired]);
  }

  /** Stops the timer (the operation is over). */
  clear(): void {
    clearTimeout(this.#timer);
  }
}

/** Handles a rejection nobody else waits for. */
function ignore(): void {}

/**
 * The `store-timeout` error of an operation that did not finish within `ms`.
 *
 * @param what - the operation (`appendTurn`)
 * @param threadId - the thread, when there is one
 * @param ms - the store's `timeoutMs`
 * @param wrote - whether the operation writes (its transaction was rolled back, unless the
 *   COMMIT was in flight)
 */
export function storeTimeout(
  what: string,
  threadId: string | undefined,
  ms: number,
  wrote: boolean,
): ChunklogError {
  const where = threadId === undefined ? '' : ` on thread ${JSON.stringify(threadId)}`;
  const outcome = wrote
    ? ' Its transaction was rolled back (unless its COMMIT was already on its way); a retry of appendTurn with the same turn id stores the turn exactly once.'
    : '';
  return new ChunklogError(
    'store-timeout',
    `${what}${where} did not finish within ${ms} ms (timeoutMs): the database did not answer in time.${outcome}`,
    { threadId },
  );
}
