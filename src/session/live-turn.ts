import {
  experimental_createSteering as createSteering,
  type Experimental_Steering as Steering,
  type Experimental_SteeringOutcome as SteeringOutcome,
} from 'ai';
import { ChunklogError } from '../errors/index.js';
import type { EventMeta } from '../live/event-meta.js';
import { formatEventId } from '../live/replay-buffer.js';
import type { DroppedSteering } from '../schema/chunk.js';
import type { ChunkEvent } from '../schema/chunk-event.js';
import {
  createTurnState,
  LiveRedaction,
  type Redactor,
  reduceTurn,
  type TurnState,
} from './pipeline.js';
import type { TurnHandleImpl } from './turn-handle.js';

/** Where a live turn's events go besides its handle: the session's subscribers and replay. */
export type EventSink = (event: ChunkEvent, meta: EventMeta) => void;

/**
 * How a turn's events are numbered: from `first`, and for a turn continued after a crash with
 * the continuation's `epoch` in their ids (`t1:r12.0`), so that an id another process gave of
 * the turn is never taken for one of these.
 */
export interface EventNumbering {
  readonly first: number;
  readonly epoch?: number | undefined;
}

/**
 * A turn in flight: its reducer state, its event numbering, and the controls that reach into
 * the running `streamText` (abort, steering). Every event of the turn, from the stream or
 * injected (`notify`, `cancel`), goes through {@link LiveTurn.emit}, so its place in the turn is
 * the same for the reducer, the handle, the subscribers and the store.
 */
export class LiveTurn {
  readonly handle: TurnHandleImpl;
  readonly controller: AbortController = new AbortController();
  /** Steering messages sent before `streamText` started, waiting to be handed to it. */
  #early: Array<{ text: string; id: string; resolve: (outcome: SteeringOutcome) => void }> = [];
  #steering: Steering | undefined;
  /** Steering messages sent into the turn and not (yet) seen joining it, by id. */
  readonly #undelivered = new Map<string, string>();
  /** Who waits to learn whether a steering message's event goes out (see `#joined`). */
  readonly #joining = new Map<string, (joined: boolean) => void>();
  state: TurnState;
  /** Why the turn was cancelled, once it was. */
  cancelReason: string | undefined;
  /** Whether `turn-end` was emitted: the turn takes no more events. */
  ended = false;
  /**
   * Events emitted before `turn-start` (a notice that came while the turn read its path): they
   * follow `turn-start` when it goes out.
   */
  #beforeStart: ChunkEvent[] | undefined = [];
  #index = 0;
  readonly #epoch: number | undefined;
  #heldEnd: { event: ChunkEvent; meta: EventMeta } | undefined;
  readonly #sink: EventSink;
  readonly #onEnded: () => void;
  /** Tool calls whose `execute` runs now, with how many executions of each run. */
  readonly #running = new Map<string, number>();
  /** Tool calls whose `tool-call` event was emitted. */
  readonly #called = new Set<string>();
  /** Progress of running calls whose `tool-call` event has not been emitted yet. */
  readonly #earlyProgress = new Map<string, string[]>();
  /** The session's redaction of this turn's events, when it has one. */
  readonly #redaction: LiveRedaction | undefined;

  /**
   * @param handle - the caller's handle of the turn
   * @param sink - the session's subscribers and replay buffer
   * @param numbering - the index of its first event (0, or for a turn taken over after a crash
   *   the one after the last event the relay holds of it) and, for a continued turn, its epoch
   * @param onEnded - called when `turn-end` is folded (the turn takes no more events from then on)
   * @param redactor - the session's `redact` option: every event is redacted before anything else
   */
  constructor(
    handle: TurnHandleImpl,
    sink: EventSink,
    numbering: EventNumbering = { first: 0 },
    onEnded: () => void = () => {},
    redactor?: Redactor,
  ) {
    this.handle = handle;
    this.#redaction = redactor === undefined ? undefined : new LiveRedaction(redactor);
    this.#sink = sink;
    this.#index = numbering.first;
    this.#epoch = numbering.epoch;
    this.#onEnded = onEnded;
    this.state = createTurnState({ turnId: handle.turnId });
  }

  get turnId(): string {
    return this.handle.turnId;
  }

  /** The index the next event will get (the number of events so far, after the first index). */
  get eventCount(): number {
    return this.#index;
  }

  /** The user's message as it is stored and sent to the model: redacted, when the session redacts. */
  userText(text: string): string {
    return this.#redaction === undefined ? text : this.#redaction.text(text);
  }

  /**
   * Folds the event into the turn and sends it out. Ignored once the turn ended. A `turn-end` is
   * folded at once but held back until {@link LiveTurn.publishEnd}: the session publishes it
   * after the turn's write landed, so a client that reconciles on `turn-end` finds it stored.
   * With the session's `redact`, the event is redacted first (its held-back deltas may go out
   * later, and a `redacted` notice before `step-finish` and `turn-end`): nothing unredacted is
   * folded, stored or sent.
   */
  emit(event: ChunkEvent): void {
    if (this.ended) return;
    const early = this.#beforeStart;
    if (early !== undefined) {
      if (event.type !== 'turn-start') {
        early.push(event);
        return;
      }
      this.#beforeStart = undefined;
      this.#emitRedacted(event);
      for (const held of early) this.emit(held);
      return;
    }
    this.#emitRedacted(event);
  }

  #emitRedacted(event: ChunkEvent): void {
    if (this.#redaction === undefined) this.#emitOne(event);
    else for (const out of this.#redaction.apply(event)) this.#emitOne(out);
  }

  #emitOne(event: ChunkEvent): void {
    if (this.ended) return;
    this.state = reduceTurn(this.state, event);
    const index = this.#index++;
    const meta = this.#meta(index);
    if (event.type === 'turn-end') {
      this.ended = true;
      this.#heldEnd = { event, meta };
      for (const settle of this.#joining.values()) settle(false);
      this.#joining.clear();
      this.#running.clear();
      this.#earlyProgress.clear();
      this.#onEnded();
      return;
    }
    this.handle.push(event);
    this.#sink(event, meta);
    if (event.type === 'tool-call') this.#calledNow(event.toolCallId);
    else if (event.type === 'tool-result') this.#running.delete(event.toolCallId);
    else if (event.type === 'steering-message') {
      this.#undelivered.delete(event.id);
      this.#joining.get(event.id)?.(true);
      this.#joining.delete(event.id);
    }
  }

  /**
   * Sends out an event whose chunk is stored already (the rows the `continue` recovery policy
   * wrote before the model runs): numbered and published like any other, not folded into the
   * turn's state, so it is not stored a second time.
   */
  announce(event: ChunkEvent): void {
    if (this.ended) return;
    const index = this.#index++;
    this.handle.push(event);
    this.#sink(event, this.#meta(index));
  }

  #meta(index: number): EventMeta {
    const { turnId } = this.handle;
    return { id: formatEventId(turnId, index, this.#epoch), turnId, index };
  }

  /** A call's `tool-call` event went out: its progress can follow it now. */
  #calledNow(toolCallId: string): void {
    this.#called.add(toolCallId);
    const early = this.#earlyProgress.get(toolCallId);
    if (early === undefined) return;
    this.#earlyProgress.delete(toolCallId);
    for (const text of early) this.emit({ type: 'tool-progress', toolCallId, text });
  }

  /** A tool's `execute` started for this call. */
  toolStarted(toolCallId: string): void {
    if (this.ended) return;
    this.#running.set(toolCallId, (this.#running.get(toolCallId) ?? 0) + 1);
  }

  /** A tool's `execute` for this call settled (or its iteration ended). */
  toolEnded(toolCallId: string): void {
    const count = this.#running.get(toolCallId);
    if (count === undefined) return;
    if (count > 1) this.#running.set(toolCallId, count - 1);
    else this.#running.delete(toolCallId);
  }

  /** Whether a tool's `execute` runs now for this call, in this turn. */
  isRunning(toolCallId: string): boolean {
    return !this.ended && this.#running.has(toolCallId);
  }

  /**
   * Appends progress text to a running call, through {@link LiveTurn.emit}. The AI SDK starts a
   * tool before its `tool-call` part may have reached the session (the stream is read
   * asynchronously): such progress waits and follows the call's `tool-call` event.
   *
   * @returns false when the call is not running (nothing happens)
   */
  reportProgress(toolCallId: string, text: string): boolean {
    if (!this.isRunning(toolCallId)) return false;
    if (this.#called.has(toolCallId)) {
      this.emit({ type: 'tool-progress', toolCallId, text });
    } else {
      const early = this.#earlyProgress.get(toolCallId);
      if (early === undefined) this.#earlyProgress.set(toolCallId, [text]);
      else early.push(text);
    }
    return true;
  }

  /** Sends out the held `turn-end` (once the turn is stored, or its write failed). */
  publishEnd(): void {
    const held = this.#heldEnd;
    if (held === undefined) return;
    this.#heldEnd = undefined;
    this.handle.push(held.event);
    this.#sink(held.event, held.meta);
  }

  /**
   * Adds a user message to the turn at its next step boundary (the AI SDK's steering), redacted
   * when the session redacts. Before the model is first called, the message waits and joins the
   * first step. It counts as delivered once its `steering-message` event went out: the AI SDK
   * reports it delivered when it adds it to a step's model call, before that event reaches the
   * turn, and a cancel in between leaves it out of the record (listed as dropped), so its outcome
   * says so too.
   */
  async steer(text: string, id: string): Promise<SteeringOutcome> {
    // Redacted before the model sees it, as the user's message is (its counts go into the
    // turn's next `redacted` notice; the `steering-message` event then finds nothing left).
    const sent = this.userText(text);
    this.#undelivered.set(id, sent);
    const outcome = await (this.#steering !== undefined
      ? this.#steering.steer(sent, { id })
      : new Promise<SteeringOutcome>((resolve) => this.#early.push({ text: sent, id, resolve })));
    if (outcome.type !== 'delivered' || (await this.#joined(id))) return outcome;
    return this.#notDelivered(id, sent);
  }

  /** The steering object to give `streamText`; the messages that waited for it go in first. */
  startSteering(): Steering {
    const steering = createSteering();
    this.#steering = steering;
    for (const early of this.#early.splice(0)) {
      void steering.steer(early.text, { id: early.id }).then(early.resolve);
    }
    return steering;
  }

  /**
   * The steering messages sent into the turn that did not join it (no `steering-message` event
   * went out for them), in the order they were sent, as the model would have received them.
   */
  get undeliveredSteering(): DroppedSteering[] {
    return [...this.#undelivered].map(([id, text]) => ({ id, text }));
  }

  /** Whether steering message `id` joined the record: its event went out (true), or the turn ended first. */
  #joined(id: string): Promise<boolean> {
    if (!this.#undelivered.has(id)) return Promise.resolve(true);
    if (this.ended) return Promise.resolve(false);
    return new Promise((resolve) => this.#joining.set(id, resolve));
  }

  /** The outcome of a steering message that did not join the turn: why the turn ended. */
  #notDelivered(id: string, text: string): SteeringOutcome {
    return {
      type: 'not-delivered',
      id,
      message: { role: 'user', content: text },
      reason: this.controller.signal.aborted ? 'aborted' : 'error',
    };
  }

  /** Settles the steering messages that never reached a running `streamText`. */
  endSteering(): void {
    for (const early of this.#early.splice(0))
      early.resolve(this.#notDelivered(early.id, early.text));
  }

  /**
   * Aborts the turn; the first reason given is the one recorded.
   *
   * @returns whether the turn is cancelled (false: it had ended already)
   */
  cancel(reason: string | undefined): boolean {
    if (this.ended) return false;
    if (this.cancelReason !== undefined) return true;
    this.cancelReason = reason ?? 'Cancelled';
    this.controller.abort(
      new ChunklogError(
        'aborted',
        `Turn ${this.handle.turnId} was cancelled: ${this.cancelReason}`,
      ),
    );
    return true;
  }
}
