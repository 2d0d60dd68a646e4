/** Reports an error thrown by a listener without stopping the others. */
function report(error: unknown): void {
  const global = globalThis as { reportError?: (error: unknown) => void };
  if (typeof global.reportError === 'function') global.reportError(error);
  else
    queueMicrotask(() => {
      throw error;
    });
}

/**
 * Listeners of one value: each change is delivered to every listener with the latest value. A
 * change made by a listener is delivered after the current round, never nested in it.
 */
export class Listeners<T> {
  private readonly set = new Set<(value: T) => void>();
  private notifying = false;
  private again = false;

  /**
   * Adds a listener; the same function may be added twice.
   *
   * @param listener - the listener
   * @returns a function that removes it
   */
  add(listener: (value: T) => void): () => void {
    const entry = (value: T): void => listener(value);
    this.set.add(entry);
    return () => {
      this.set.delete(entry);
    };
  }

  /**
   * Tells every listener about a change.
   *
   * @param latest - reads the value to deliver
   */
  notify(latest: () => T): void {
    if (this.notifying) {
      this.again = true;
      return;
    }
    this.notifying = true;
    try {
      do {
        this.again = false;
        const value = latest();
        for (const listener of this.set) {
          try {
            listener(value);
          } catch (error) {
            report(error);
          }
        }
      } while (this.again);
    } finally {
      this.notifying = false;
    }
  }
}
