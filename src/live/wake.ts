/**
 * A wake-up signal a reader waits on: {@link Wake.notify} before or during {@link Wake.wait} is
 * never lost (a notify while the reader was busy makes its next wait return at once). A wait
 * holds nothing once it returns: a reader that waits a million times costs no more than one
 * that waits once.
 */
export class Wake {
  #pending = false;
  #resolve: (() => void) | undefined;

  /** Wakes the reader (now, or at its next wait). */
  notify(): void {
    this.#pending = true;
    const resolve = this.#resolve;
    this.#resolve = undefined;
    resolve?.();
  }

  /**
   * Resolves at the next notify (at once when one came since the last wait), or when `signal`
   * aborts: its listener is removed when the wait ends.
   */
  wait(signal?: AbortSignal): Promise<void> {
    if (this.#pending || signal?.aborted === true) {
      this.#pending = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const done = () => {
        this.#pending = false;
        this.#resolve = undefined;
        signal?.removeEventListener('abort', done);
        resolve();
      };
      this.#resolve = done;
      signal?.addEventListener('abort', done, { once: true });
    });
  }
}
