/**
 * Counts the open event streams of each thread and of all threads, so that one thread cannot
 * hold more than `perThread` of the server's connections, nor all threads together more than
 * `total` (each holds a socket and a relay reader).
 */
export class ThreadConnections {
  readonly #open = new Map<string, number>();
  readonly #perThread: number;
  readonly #total: number;
  #all = 0;

  /**
   * @param perThread - the most open streams of one thread
   * @param total - the most open streams of all threads together
   */
  constructor(perThread: number, total: number = Number.POSITIVE_INFINITY) {
    this.#perThread = perThread;
    this.#total = total;
  }

  /**
   * Takes a connection slot of a thread.
   *
   * @param threadId - the thread
   * @returns the function that gives the slot back (once, however often it is called), or
   *   undefined when the thread has `perThread` open streams, or all threads `total`
   */
  acquire(threadId: string): (() => void) | undefined {
    const open = this.#open.get(threadId) ?? 0;
    if (open >= this.#perThread || this.#all >= this.#total) return undefined;
    this.#open.set(threadId, open + 1);
    this.#all++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#all--;
      const left = (this.#open.get(threadId) ?? 1) - 1;
      if (left === 0) this.#open.delete(threadId);
      else this.#open.set(threadId, left);
    };
  }
}
