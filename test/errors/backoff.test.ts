import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Backoff, backoffDelay, sleep, type Timers } from '../../src/errors/backoff.js';

/** Timers that run only when told to, in order of their due time. */
class FakeTimers implements Timers {
  now = 0;
  private next = 0;
  private readonly due = new Map<number, { at: number; callback: () => void }>();
  setTimeout(callback: () => void, ms: number): unknown {
    const id = this.next++;
    this.due.set(id, { at: this.now + ms, callback });
    return id;
  }
  clearTimeout(handle: unknown): void {
    this.due.delete(handle as number);
  }
  get pending(): number {
    return this.due.size;
  }
  advance(ms: number): void {
    this.now += ms;
    for (const [id, timer] of [...this.due].sort((a, b) => a[1].at - b[1].at)) {
      if (timer.at > this.now) break;
      this.due.delete(id);
      timer.callback();
    }
  }
}

const policies = fc.record({
  initialMs: fc.integer({ min: 1, max: 10_000 }),
  maxMs: fc.integer({ min: 1, max: 100_000 }),
  jitter: fc.boolean(),
});
const draws = fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true });

describe('backoffDelay', () => {
  it('doubles from initialMs up to maxMs without jitter', () => {
    const policy: Backoff = { initialMs: 25, maxMs: 1600, jitter: false };
    expect([0, 1, 2, 3, 4, 5, 6, 7, 50].map((n) => backoffDelay(policy, n))).toEqual([
      25, 50, 100, 200, 400, 800, 1600, 1600, 1600,
    ]);
  });

  it('jitter draws between half and all of the nominal wait', () => {
    const policy: Backoff = { initialMs: 100, maxMs: 1000, jitter: true };
    expect(backoffDelay(policy, 0, () => 0)).toBe(50);
    expect(backoffDelay(policy, 2, () => 0.5)).toBe(300);
    expect(backoffDelay(policy, 9, () => 0.999)).toBeCloseTo(999.5);
  });

  it('property: a wait lies in [nominal/2, nominal], nominal = min(maxMs, initialMs·2^retry), and never shrinks from one retry to the next without jitter', () => {
    fc.assert(
      fc.property(policies, fc.nat(2000), draws, (policy, retry, draw) => {
        const nominal = Math.min(policy.maxMs, policy.initialMs * 2 ** retry);
        const wait = backoffDelay(policy, retry, () => draw);
        expect(Number.isFinite(wait)).toBe(true);
        expect(wait).toBeLessThanOrEqual(nominal);
        expect(wait).toBeGreaterThanOrEqual(policy.jitter ? nominal / 2 : nominal);
        if (!policy.jitter) {
          expect(backoffDelay(policy, retry + 1)).toBeGreaterThanOrEqual(wait);
        }
      }),
    );
  });
});

describe('sleep', () => {
  it('resolves true when its time runs out on the timers it is given', async () => {
    const timers = new FakeTimers();
    let result: boolean | undefined;
    void sleep(500, undefined, timers).then((ran) => {
      result = ran;
    });
    timers.advance(499);
    await Promise.resolve();
    expect(result).toBeUndefined();
    timers.advance(1);
    await Promise.resolve();
    expect(result).toBe(true);
  });

  it('resolves false at once when the signal aborts, and leaves no timer behind', async () => {
    const timers = new FakeTimers();
    const controller = new AbortController();
    const waiting = sleep(10_000, controller.signal, timers);
    expect(timers.pending).toBe(1);
    controller.abort();
    await expect(waiting).resolves.toBe(false);
    expect(timers.pending).toBe(0);
  });

  it('resolves false without a timer when the signal has already aborted', async () => {
    const timers = new FakeTimers();
    await expect(sleep(10, AbortSignal.abort(), timers)).resolves.toBe(false);
    expect(timers.pending).toBe(0);
  });

  it('drops its abort listener once its time runs out', async () => {
    const timers = new FakeTimers();
    const controller = new AbortController();
    const listeners: unknown[] = [];
    const signal = controller.signal;
    const add = signal.addEventListener.bind(signal);
    const remove = signal.removeEventListener.bind(signal);
    signal.addEventListener = ((type: string, listener: unknown, options?: unknown) => {
      listeners.push(listener);
      add(type, listener as EventListener, options as AddEventListenerOptions);
    }) as typeof signal.addEventListener;
    signal.removeEventListener = ((type: string, listener: unknown) => {
      listeners.splice(listeners.indexOf(listener), 1);
      remove(type, listener as EventListener);
    }) as typeof signal.removeEventListener;
    const waiting = sleep(5, signal, timers);
    expect(listeners).toHaveLength(1);
    timers.advance(5);
    await expect(waiting).resolves.toBe(true);
    expect(listeners).toHaveLength(0);
  });
});
