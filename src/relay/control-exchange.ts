import {
  type ControlAnswer,
  type ControlHandler,
  type ControlMessage,
  joinAnswers,
} from '../live/relay.js';

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
 * the turn is gone), and the threads whose control this process serves (by every session of the
 * thread on this process: one waiting for the lease serves it beside the one that runs the turn).
 *
 * A `not-running` reply settles a request only once every process that received it said so
 * ({@link ControlExchange.expect}); where the relay cannot tell how many did (PostgreSQL), only a
 * reply that reaches the turn settles it, or the timeout: a process that does not run the turn
 * cannot answer for the one that does.
 */
export class ControlExchange {
  readonly instance: string =
    `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
  readonly #pending = new Map<string, (answer: ControlAnswer | undefined) => void>();
  /** Of a request sent to a known number of processes: how many replies settle it. */
  readonly #expected = new Map<string, number>();
  /** Of a request: the `not-running` replies so far (one names a turn waiting for the lease). */
  readonly #notRunning = new Map<string, ControlAnswer[]>();
  /** The handlers serving each thread on this process (one entry per `serve`). */
  readonly #served = new Map<string, Set<{ readonly handler: ControlHandler }>>();
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
      const timer = setTimeout(() => settle(undefined), this.#timeoutMs);
      (timer as { unref?: () => void }).unref?.();
      /** Settles with the answer that reached the turn, or with the `not-running` ones so far. */
      const settle = (value: ControlAnswer | undefined) => {
        clearTimeout(timer);
        const said = this.#notRunning.get(id) ?? [];
        this.#pending.delete(id);
        this.#expected.delete(id);
        this.#notRunning.delete(id);
        resolve(value ?? joinAnswers(said));
      };
      this.#pending.set(id, settle);
    });
    return { request: { id, from: this.instance, threadId, message }, answer };
  }

  /** Settles a request that will get no reply (nobody listened). */
  abandon(id: string): void {
    this.#pending.get(id)?.(undefined);
  }

  /**
   * Says how many processes received a request (every one replies): an answer that reaches the
   * turn settles it at once; `not-running` only once every process said so, so that a process
   * that no longer runs the turn cannot answer for the one that does.
   */
  expect(id: string, listeners: number): void {
    if (!this.#pending.has(id)) return;
    if (listeners <= (this.#notRunning.get(id)?.length ?? 0)) this.abandon(id);
    else this.#expected.set(id, listeners);
  }

  /** A reply arrived. */
  replied(reply: ControlReply): void {
    if (reply.to !== this.instance) return;
    const settle = this.#pending.get(reply.id);
    if (settle === undefined) return;
    if (reply.answer.type === 'not-running') {
      const said = [...(this.#notRunning.get(reply.id) ?? []), reply.answer];
      this.#notRunning.set(reply.id, said);
      const expected = this.#expected.get(reply.id);
      if (expected === undefined || said.length < expected) return;
      settle(undefined);
      return;
    }
    settle(reply.answer);
  }

  /** Serves a thread's control; returns the function that stops (once). */
  serve(threadId: string, handler: ControlHandler): () => void {
    let served = this.#served.get(threadId);
    if (served === undefined) {
      served = new Set();
      this.#served.set(threadId, served);
    }
    const entry = { handler };
    served.add(entry);
    return () => {
      const now = this.#served.get(threadId);
      if (now?.delete(entry) === true && now.size === 0) this.#served.delete(threadId);
    };
  }

  /** The threads this process serves (a thread leaves once its last serve stopped). */
  servedThreads(): Iterable<string> {
    return this.#served.keys();
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
    const served = [...(this.#served.get(request.threadId) ?? [])];
    // Every session of the thread here is asked, as the in-process relay asks them: the one that
    // runs the turn answers, the others say `not-running`.
    const answers = await Promise.all(
      served.map(async ({ handler }): Promise<ControlAnswer> => {
        try {
          return await handler(request.message);
        } catch {
          return { type: 'not-running' };
        }
      }),
    );
    return { id: request.id, to: request.from, answer: joinAnswers(answers) };
  }

  /** Settles every waiting request (the relay closes). */
  close(): void {
    for (const settle of [...this.#pending.values()]) settle(undefined);
  }
}
