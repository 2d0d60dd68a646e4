/**
 * Counts the open event streams of each thread, so that one thread cannot hold more than
 * `max` of the server's connections (each holds a socket and a queue of up to
 * `maxQueuedBytes`).
 */
export class ThreadConnections {
  readonly #open = new Map<string, number>();
  readonly #max: number;

  /** @param max - the most open streams of one thread */
  constructor(max: number) {
    this.#max = max;
  }

  /**
   * Takes a connection slot of a thread.
   *
   * @param threadId - the thread
   * @returns the function that gives the slot back (once, however often it is called), or
   *   undefined when the thread has `max` open streams
   */
  acquire(threadId: string): (() => void) | undefined {
    const open = this.#open.get(threadId) ?? 0;
    if (open >= this.#max) return undefined;
    this.#open.set(threadId, open + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.#open.get(threadId) ?? 1) - 1;
      if (left === 0) this.#open.delete(threadId);
      else this.#open.set(threadId, left);
    };
  }
}
