/**
 * A wake-up signal a reader waits on: {@link Wake.notify} before or during {@link Wake.wait} is
 * never lost (a notify while the reader was busy makes its next wait return at once).
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

  /** Resolves at the next notify (at once when one came since the last wait). */
  wait(): Promise<void> {
    if (this.#pending) {
      this.#pending = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      this.#resolve = () => {
        this.#pending = false;
        resolve();
      };
    });
  }
}

/** Resolves when `signal` aborts (never when it is undefined); `off` stops listening. */
export function aborted(signal: AbortSignal | undefined): {
  promise: Promise<void>;
  off: () => void;
} {
  if (signal === undefined) return { promise: new Promise(() => {}), off: () => {} };
  let off = () => {};
  const promise = new Promise<void>((resolve) => {
    if (signal.aborted) {
      resolve();
      return;
    }
    const onAbort = () => resolve();
    signal.addEventListener('abort', onAbort, { once: true });
    off = () => signal.removeEventListener('abort', onAbort);
  });
  return { promise, off: () => off() };
}
