import { invalidOption } from '../errors/invalid-option.js';
import type { ChunkEvent } from '../schema/chunk-event.js';
import type { ChunkRow } from '../schema/chunk-row.js';
import type { TurnHandle, TurnResult, TurnStatus } from './types.js';

interface Deferred<T> {
  readonly promise: Promise<T>;
  resolve(value: T): void;
  reject(error: unknown): void;
}

/**
 * A promise with its settle functions, already marked as handled so that a caller who never
 * looks at it does not get an unhandled rejection.
 */
export function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  promise.catch(() => {});
  return { promise, resolve, reject };
}

/**
 * The session's side of a {@link TurnHandle}: it settles the rows and result promises, and
 * buffers the turn's events for its iterators. Every iterator started before the turn settled
 * sees every event, from `turn-start`; the buffer is dropped once the turn has settled and each
 * of those iterators has finished (or returned), so a handle that is kept does not keep its
 * turn's events. An iterator started after the turn settled ends at once: the turn is in the
 * store (`rows`).
 */
export class TurnHandleImpl implements TurnHandle {
  readonly turnId: string;
  readonly text: string;
  readonly signal: AbortSignal | undefined;
  status: TurnStatus = 'queued';
  #events: ChunkEvent[] = [];
  /** Iterators started before the turn settled that have not finished yet. */
  #iterators = 0;
  #closed = false;
  #waiters: Array<() => void> = [];
  readonly #rows = deferred<readonly ChunkRow[]>();
  readonly #result = deferred<TurnResult>();
  readonly #onCancel: (handle: TurnHandleImpl, reason: string | undefined) => void;
  #settled: Array<() => void> = [];

  /**
   * @param turnId - the turn's id
   * @param text - the user's message
   * @param signal - the caller's abort signal
   * @param onCancel - what cancelling this handle does (the session decides)
   */
  constructor(
    turnId: string,
    text: string,
    signal: AbortSignal | undefined,
    onCancel: (handle: TurnHandleImpl, reason: string | undefined) => void,
  ) {
    this.turnId = turnId;
    this.text = text;
    this.signal = signal;
    this.#onCancel = onCancel;
  }

  get rows(): Promise<readonly ChunkRow[]> {
    return this.#rows.promise;
  }

  get result(): Promise<TurnResult> {
    return this.#result.promise;
  }

  cancel(reason?: string): void {
    this.#onCancel(this, checkCancelReason(reason, 'TurnHandle.cancel'));
  }

  /** Buffers an event and wakes the iterations waiting for one. */
  push(event: ChunkEvent): void {
    if (this.#closed) return;
    this.#events.push(event);
    this.#wake();
  }

  /** Ends the event iterations; the buffer goes once the iterators already started are done. */
  close(): void {
    this.#closed = true;
    this.#release();
    this.#wake();
  }

  /** How many events the handle holds (0 once the turn settled and its iterators finished). */
  get retainedEvents(): number {
    return this.#events.length;
  }

  /** Drops the buffer when no iterator can read it any more. */
  #release(): void {
    if (this.#closed && this.#iterators === 0) this.#events = [];
  }

  /** Calls `callback` once the turn settles (stored, dropped or failed). */
  onSettled(callback: () => void): void {
    this.#settled.push(callback);
  }

  #runSettled(): void {
    const callbacks = this.#settled;
    this.#settled = [];
    for (const callback of callbacks) callback();
  }

  /** Settles the turn as stored. */
  settle(result: TurnResult): void {
    this.status = result.outcome === 'dropped' ? 'dropped' : 'done';
    this.close();
    this.#runSettled();
    this.#rows.resolve(result.rows);
    this.#result.resolve(result);
  }

  /** Settles the turn as not stored (the write failed). */
  fail(error: unknown): void {
    this.status = 'done';
    this.close();
    this.#runSettled();
    this.#rows.reject(error);
    this.#result.reject(error);
  }

  #wake(): void {
    const waiters = this.#waiters;
    if (waiters.length === 0) return;
    this.#waiters = [];
    for (const wake of waiters) wake();
  }

  [Symbol.asyncIterator](): AsyncIterator<ChunkEvent> {
    const done: IteratorResult<ChunkEvent> = { done: true, value: undefined };
    // Started after the turn settled: its events are no longer kept (they are in the store).
    if (this.#closed) return { next: async () => done, return: async () => done };
    let next = 0;
    let active = true;
    this.#iterators++;
    const finish = () => {
      if (!active) return;
      active = false;
      this.#iterators--;
      this.#release();
    };
    return {
      next: async (): Promise<IteratorResult<ChunkEvent>> => {
        while (active && next >= this.#events.length && !this.#closed) {
          await new Promise<void>((resolve) => this.#waiters.push(resolve));
        }
        if (active && next < this.#events.length) {
          return { done: false, value: this.#events[next++] as ChunkEvent };
        }
        finish();
        return done;
      },
      return: async (): Promise<IteratorResult<ChunkEvent>> => {
        finish();
        return done;
      },
    };
  }
}

/**
 * Checks a cancel reason: it becomes the text of the turn's `cancelled` system chunk, which must
 * be a string for the turn to be stored.
 *
 * @param reason - the untrusted reason
 * @param where - the public method, for the message
 * @returns the reason
 * @throws {ChunklogError} `invalid-option` (option `reason`)
 */
export function checkCancelReason(reason: unknown, where: string): string | undefined {
  if (reason !== undefined && typeof reason !== 'string') {
    invalidOption(where, 'reason', 'the reason must be a string', reason);
  }
  return reason;
}
