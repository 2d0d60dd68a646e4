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
 * The session's side of a {@link TurnHandle}: it buffers the turn's events so that every
 * iteration, early or late, sees all of them, and settles the rows and result promises.
 */
export class TurnHandleImpl implements TurnHandle {
  readonly turnId: string;
  readonly text: string;
  readonly signal: AbortSignal | undefined;
  status: TurnStatus = 'queued';
  readonly #events: ChunkEvent[] = [];
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
    this.#events.push(event);
    this.#wake();
  }

  /** Ends the event iterations. */
  close(): void {
    this.#closed = true;
    this.#wake();
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
    let next = 0;
    return {
      next: async (): Promise<IteratorResult<ChunkEvent>> => {
        while (next >= this.#events.length && !this.#closed) {
          await new Promise<void>((resolve) => this.#waiters.push(resolve));
        }
        if (next < this.#events.length) {
          return { done: false, value: this.#events[next++] as ChunkEvent };
        }
        return { done: true, value: undefined };
      },
      return: async (): Promise<IteratorResult<ChunkEvent>> => {
        next = Number.POSITIVE_INFINITY;
        return { done: true, value: undefined };
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
