import { type Backoff, backoffDelay, sleep } from '../errors/backoff.js';
import type { ChunkPage } from './page.js';
import type { ReconcileStatus } from './snapshot.js';

/**
 * How long a reconcile waits before fetching the tail again while an ended turn is not in it yet
 * (its write has not committed); after the last one, such a turn is taken as never stored.
 */
const RECONCILE_BACKOFF: Backoff = { initialMs: 25, maxMs: 1600, jitter: false };

/** How many times a reconcile fetches the tail again (25 ms to 1.6 s apart: 3.2 s in all). */
const RECONCILE_RETRIES = 7;

/** What a {@link Reconciler} needs of its window. */
export interface ReconcilerHost {
  /** Fetches and validates the tail. */
  fetchTail(): Promise<ChunkPage>;
  /** Whether the user is scrolled up (a reconcile waits, and drops an answer that comes then). */
  scrolledUp(): boolean;
  /** Keys of the live turns that are over. */
  endedTurns(): ReadonlySet<number>;
  /**
   * Merges the tail.
   *
   * @returns the ended turns it does not hold yet
   */
  merge(page: ChunkPage, ended: ReadonlySet<number>, giveUp: boolean): ReadonlySet<number>;
  /** Publishes whatever changed (the state, the status). */
  commit(): void;
}

interface Waiter {
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
}

/**
 * The reconcile state machine of a window: callers wait for the next run; one run at a time;
 * none while the user is scrolled up; a run fetches again, after a delay, while ended turns are
 * missing from the tail.
 */
export class Reconciler {
  /** Where it is, for the snapshot. */
  status: ReconcileStatus = 'idle';
  private readonly host: ReconcilerHost;
  private running = false;
  private waiters: Waiter[] = [];

  /** @param host - the window */
  constructor(host: ReconcilerHost) {
    this.host = host;
  }

  /**
   * Asks for a reconcile.
   *
   * @returns a promise that settles when a run that started after this call has merged the tail
   */
  request(): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.waiters.push({ resolve, reject });
      this.pump();
    });
  }

  /** Starts a run when one is wanted and can run. Does not commit. */
  pump(): void {
    if (this.running) return;
    if (this.waiters.length === 0) {
      this.status = 'idle';
      return;
    }
    if (this.host.scrolledUp()) {
      this.status = 'waiting';
      return;
    }
    const waiters = this.waiters;
    this.waiters = [];
    this.running = true;
    this.status = 'loading';
    this.fetch(waiters, this.host.endedTurns(), 0);
  }

  private fetch(waiters: Waiter[], ended: ReadonlySet<number>, attempt: number): void {
    this.host.fetchTail().then(
      (page) => {
        if (this.host.scrolledUp()) {
          // The user scrolled up meanwhile: wait for the bottom again, then fetch afresh.
          this.waiters.unshift(...waiters);
          this.finish();
          return;
        }
        const giveUp = attempt >= RECONCILE_RETRIES;
        const waiting = this.host.merge(page, ended, giveUp);
        if (waiting.size > 0) {
          this.host.commit();
          void sleep(backoffDelay(RECONCILE_BACKOFF, attempt)).then(() =>
            this.fetch(waiters, waiting, attempt + 1),
          );
          return;
        }
        this.finish();
        for (const waiter of waiters) waiter.resolve();
      },
      (error: unknown) => {
        this.finish();
        for (const waiter of waiters) waiter.reject(error);
      },
    );
  }

  private finish(): void {
    this.running = false;
    this.pump();
    this.host.commit();
  }
}
