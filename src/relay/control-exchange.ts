import type { ControlAnswer, ControlHandler, ControlMessage } from '../live/relay.js';

/** A control request on the wire: who asks, which thread, what. */
export interface ControlRequest {
  readonly id: string;
  readonly from: string;
  readonly threadId: string;
  readonly message: ControlMessage;
}

/** A control reply on the wire. */
export interface ControlReply {
  readonly id: string;
  readonly to: string;
  readonly answer: ControlAnswer;
}

/**
 * The request/reply bookkeeping of a remote relay's control messages: the requests this
 * process waits on (answered `not-running` when no reply comes in time: the process that ran
 * the turn is gone), and the threads whose control this process serves.
 */
export class ControlExchange {
  readonly instance: string =
    `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
  readonly #pending = new Map<string, (answer: ControlAnswer) => void>();
  /** Of a request sent to a known number of processes: how many `not-running` replies settle it. */
  readonly #expected = new Map<string, { left: number }>();
  readonly #served = new Map<string, ControlHandler>();
  readonly #timeoutMs: number;
  #next = 0;

  /** @param timeoutMs - how long a request waits for its reply */
  constructor(timeoutMs: number) {
    this.#timeoutMs = timeoutMs;
  }

  /** A new request and the promise of its answer. */
  request(
    threadId: string,
    message: ControlMessage,
  ): { request: ControlRequest; answer: Promise<ControlAnswer> } {
    const id = `${this.instance}:${this.#next++}`;
    const answer = new Promise<ControlAnswer>((resolve) => {
      const timer = setTimeout(() => settle({ type: 'not-running' }), this.#timeoutMs);
      (timer as { unref?: () => void }).unref?.();
      const settle = (value: ControlAnswer) => {
        clearTimeout(timer);
        this.#pending.delete(id);
        this.#expected.delete(id);
        resolve(value);
      };
      this.#pending.set(id, settle);
    });
    return { request: { id, from: this.instance, threadId, message }, answer };
  }

  /** Settles a request that will get no reply (nobody listened). */
  abandon(id: string): void {
    this.#pending.get(id)?.({ type: 'not-running' });
  }

  /**
   * Says how many processes received a request (every one replies): an answer that reaches the
   * turn settles it at once; `not-running` only once every process said so, so that a process
   * that no longer runs the turn cannot answer for the one that does.
   */
  expect(id: string, listeners: number): void {
    if (!this.#pending.has(id)) return;
    if (listeners <= 0) this.abandon(id);
    else this.#expected.set(id, { left: listeners });
  }

  /** A reply arrived. */
  replied(reply: ControlReply): void {
    if (reply.to !== this.instance) return;
    const settle = this.#pending.get(reply.id);
    if (settle === undefined) return;
    const expected = this.#expected.get(reply.id);
    if (reply.answer.type === 'not-running' && expected !== undefined && --expected.left > 0) {
      return;
    }
    settle(reply.answer);
  }

  /** Serves a thread's control; returns the function that stops. */
  serve(threadId: string, handler: ControlHandler): () => void {
    this.#served.set(threadId, handler);
    return () => {
      if (this.#served.get(threadId) === handler) this.#served.delete(threadId);
    };
  }

  /** Whether this process serves the thread. */
  serves(threadId: string): boolean {
    return this.#served.has(threadId);
  }

  /**
   * Answers a request: the handler's answer for a thread this process serves, `not-running` for
   * another (a process still subscribed to a thread it stopped serving).
   */
  async answer(request: ControlRequest): Promise<ControlReply | undefined> {
    const handler = this.#served.get(request.threadId);
    if (handler === undefined) {
      return { id: request.id, to: request.from, answer: { type: 'not-running' } };
    }
    let answer: ControlAnswer;
    try {
      answer = await handler(request.message);
    } catch {
      answer = { type: 'not-running' };
    }
    return { id: request.id, to: request.from, answer };
  }

  /** Settles every waiting request (the relay closes). */
  close(): void {
    for (const settle of [...this.#pending.values()]) settle({ type: 'not-running' });
  }
}
