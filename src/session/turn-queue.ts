/**
 * Runs items one at a time, in order. `push` queues an item behind the running one (or in front
 * of the waiting ones); `remove` takes a waiting item out. Used by the session for its turns.
 */
export class TurnQueue<T> {
  readonly #run: (item: T) => Promise<void>;
  #waiting: T[] = [];
  #running: T | undefined;
  #idle: Array<() => void> = [];
  #closed = false;

  /** @param run - runs one item; the next starts when its promise settles */
  constructor(run: (item: T) => Promise<void>) {
    this.#run = run;
  }

  /** The item running now. */
  get running(): T | undefined {
    return this.#running;
  }

  /** How many items wait. */
  get size(): number {
    return this.#waiting.length;
  }

  /**
   * Queues an item; it starts at once when nothing runs.
   *
   * @param item - the item
   * @param front - put it before the other waiting items
   */
  push(item: T, front = false): void {
    if (front) this.#waiting.unshift(item);
    else this.#waiting.push(item);
    this.#pump();
  }

  /** The first waiting item that matches, if any. */
  find(match: (item: T) => boolean): T | undefined {
    return this.#waiting.find(match);
  }

  /** Takes a waiting item out; false when it is not waiting (running, done or unknown). */
  remove(item: T): boolean {
    const at = this.#waiting.indexOf(item);
    if (at === -1) return false;
    this.#waiting.splice(at, 1);
    return true;
  }

  /** Takes every waiting item out and returns them; no item starts after this. */
  close(): T[] {
    this.#closed = true;
    const dropped = this.#waiting;
    this.#waiting = [];
    if (this.#running === undefined) this.#settleIdle();
    return dropped;
  }

  /** Resolves when nothing runs or waits. */
  idle(): Promise<void> {
    if (this.#running === undefined && this.#waiting.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idle.push(resolve));
  }

  #pump(): void {
    if (this.#running !== undefined) return;
    const item = this.#closed ? undefined : this.#waiting.shift();
    if (item === undefined) {
      this.#settleIdle();
      return;
    }
    this.#running = item;
    this.#run(item)
      .catch(() => {})
      .finally(() => {
        this.#running = undefined;
        this.#pump();
      });
  }

  #settleIdle(): void {
    const waiters = this.#idle;
    this.#idle = [];
    for (const resolve of waiters) resolve();
  }
}
