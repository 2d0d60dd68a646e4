import type { ModelMessage, ToolSet } from 'ai';
import { ChunklogError } from '../errors/index.js';
import { invalidOption, readOptions } from '../errors/invalid-option.js';
import { isAbortSignal } from '../live/abort-signal.js';
import { EventHub } from '../live/event-hub.js';
import { ReplayBuffer } from '../live/replay-buffer.js';
import { SYSTEM_KINDS } from '../schema/chunk.js';
import type { ChunkEvent } from '../schema/chunk-event.js';
import type { ChunkRow, ChunkRowDraft } from '../schema/chunk-row.js';
import type { LeaseFence } from '../store/turn-types.js';
import type { StepUsage } from '../store/usage-types.js';
import { attachRelay } from './attach-relay.js';
import { budgetedInput } from './context-input.js';
import {
  type StepDurableStore,
  StepWriter,
  stepWriterFor,
  stepWritingSink,
} from './durable-turn.js';
import { buildModelMessages, loadHistory, userMessage } from './history.js';
import { type HeldLease, type LeaseStore, takeLease } from './lease.js';
import { LiveTurn } from './live-turn.js';
import { applyAnthropicCaching, explodeChunks } from './pipeline.js';
import { closeInterruptedTurns, isRecoveryStore, type RecoveryStore } from './recovery.js';
import { planResume } from './resume-turn.js';
import { recordTurnUsage } from './step-usage.js';
import { checkProgressText, notRunning } from './tool-progress.js';
import { isCancelledWait, TurnGuard } from './turn-guard.js';
import { checkCancelReason, TurnHandleImpl } from './turn-handle.js';
import { TurnQueue } from './turn-queue.js';
import { runTurn } from './turn-runner.js';
import type {
  AgentSession,
  AgentSessionOptions,
  EventMeta,
  NotifyInput,
  NotifyResult,
  Replay,
  SendInput,
  SendOptions,
  SessionListener,
  SteerHandle,
  SteerOutcome,
  TurnHandle,
  TurnResult,
} from './types.js';
import { type SessionConfig, validateOptions } from './validate-options.js';

const encoder = new TextEncoder();
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it rejects
const controlCharacters = /[\u0000-\u001f\u007f]/;

/**
 * Checks a turn id: it ends up in every row, in SSE `id:` lines and in URLs, so it must be
 * 1 to 255 UTF-8 bytes without control characters.
 */
function checkTurnId(turnId: unknown, option: string): string {
  if (
    typeof turnId !== 'string' ||
    turnId.length === 0 ||
    controlCharacters.test(turnId) ||
    encoder.encode(turnId).length > 255
  ) {
    throw new ChunklogError(
      'invalid-option',
      `A turn id must be a string of 1 to 255 bytes without control characters (${option})`,
      { option, value: turnId },
    );
  }
  return turnId;
}

function readInput(input: SendInput): { text: string; turnId: string | undefined } {
  const text = typeof input === 'string' ? input : input?.text;
  if (typeof text !== 'string' || text.length === 0) {
    throw new ChunklogError('invalid-option', 'send: the message text must be a non-empty string', {
      option: 'text',
      value: text,
    });
  }
  const turnId = typeof input === 'string' ? undefined : input.turnId;
  return { text, turnId: turnId === undefined ? undefined : checkTurnId(turnId, 'turnId') };
}

class Session implements AgentSession {
  readonly threadId: string;
  readonly #config: SessionConfig;
  readonly #hub: EventHub;
  readonly #replay: ReplayBuffer;
  readonly #queue: TurnQueue<TurnHandleImpl>;
  #live: LiveTurn | undefined;
  #writes: Promise<unknown> = Promise.resolve();
  /**
   * The turn slot: held from a turn's `turn-start` until its `turn-end` is published (after its
   * write). A turn starts only when it holds the slot, so subscribers never see two turns
   * interleave, even when a `notify` system turn and a queued turn start while another turn is
   * still being stored. Taken synchronously when free, so a `send` starts at once.
   */
  #slotBusy = false;
  readonly #slotWaiters: Array<() => void> = [];
  #closed = false;
  readonly #closedController = new AbortController();
  #detachRelay: (() => void) | undefined;
  /** The lease, the interrupted-turn recovery and the existing-turn check before each turn. */
  readonly #guard: TurnGuard;
  readonly #sink = (event: ChunkEvent, meta: EventMeta): void => {
    this.#replay.push(event, meta);
    this.#hub.publish(event, meta);
  };

  constructor(config: SessionConfig) {
    this.#config = config;
    this.threadId = config.turn.threadId;
    this.#hub = new EventHub((error, meta) =>
      config.onError(error, { source: 'listener', turnId: meta.turnId }),
    );
    this.#replay = new ReplayBuffer(config.replayLimit);
    this.#queue = new TurnQueue((handle) => this.#run(handle));
    if (config.relay !== undefined)
      this.#detachRelay = attachRelay(this, config.relay, config.onError);
    this.#guard = new TurnGuard(config, this.#closedController.signal, (fence) =>
      this.#recover(fence),
    );
  }

  get runningTurnId(): string | undefined {
    const running = this.#queue.running;
    // A turn whose rows have resolved is done, even before the queue moves on.
    return running === undefined || running.status === 'done' ? undefined : running.turnId;
  }

  get queued(): number {
    return this.#queue.size;
  }

  get signal(): AbortSignal {
    return this.#closedController.signal;
  }

  #checkOpen(what: string): void {
    if (this.#closed) {
      throw new ChunklogError(
        'closed',
        `${what}: the session of thread ${this.threadId} is closed`,
        {
          threadId: this.threadId,
        },
      );
    }
  }

  send(input: SendInput, options?: SendOptions): TurnHandle {
    this.#checkOpen('send');
    const { text, turnId } = readInput(input);
    const { signal } = readOptions(options, 'send', ['signal']);
    if (signal !== undefined && !isAbortSignal(signal)) {
      invalidOption('send', 'signal', '`signal` must be an AbortSignal', signal);
    }
    if (turnId !== undefined) {
      // The same turn id sent again while it runs or waits here: join it.
      const same = this.#pendingTurn(turnId);
      if (same !== undefined) return same;
      this.#guard.markExplicit(turnId);
    }
    return this.#enqueue(text, turnId ?? this.#newId(), signal, false);
  }

  /** The running or queued turn of this id, if any. */
  #pendingTurn(turnId: string): TurnHandleImpl | undefined {
    const running = this.#queue.running;
    if (running?.turnId === turnId && running.status !== 'done') return running;
    return this.#queue.find((handle) => handle.turnId === turnId);
  }

  #newId(): string {
    return checkTurnId(this.#config.idGenerator(), 'idGenerator');
  }

  #enqueue(
    text: string,
    turnId: string,
    signal: AbortSignal | undefined,
    front: boolean,
  ): TurnHandleImpl {
    const handle = new TurnHandleImpl(turnId, text, signal, (h, reason) =>
      this.#cancelTurn(h, reason),
    );
    if (signal?.aborted) {
      this.#drop(handle);
      return handle;
    }
    if (signal !== undefined) {
      const onAbort = () => this.#cancelTurn(handle, reasonOf(signal));
      signal.addEventListener('abort', onAbort, { once: true });
      handle.onSettled(() => signal.removeEventListener('abort', onAbort));
    }
    this.#queue.push(handle, front);
    return handle;
  }

  #drop(handle: TurnHandleImpl): void {
    handle.settle({ turnId: handle.turnId, outcome: 'dropped', rows: [] });
  }

  #cancelTurn(handle: TurnHandleImpl, reason: string | undefined): void {
    if (this.#queue.remove(handle)) this.#drop(handle);
    else if (this.#guard.cancelWaiting(handle)) return;
    else if (this.#live?.handle === handle) this.#live.cancel(reason);
  }

  cancel(reason?: string): boolean {
    checkCancelReason(reason, 'cancel');
    const live = this.#live;
    if (live === undefined || live.ended) return false;
    live.cancel(reason);
    return true;
  }

  reportToolProgress(toolCallId: string, text: string): void {
    if (typeof toolCallId !== 'string' || toolCallId === '') {
      invalidOption(
        'reportToolProgress',
        'toolCallId',
        '`toolCallId` must be a non-empty string',
        toolCallId,
      );
    }
    checkProgressText(text, 'reportToolProgress');
    if (this.#live?.reportProgress(toolCallId, text) !== true) {
      throw notRunning(toolCallId, this.threadId);
    }
  }

  steer(text: string): SteerHandle {
    this.#checkOpen('steer');
    const { text: message } = readInput(text);
    const id = this.#newId();
    const live = this.#live;
    const sendInstead = (): SteerOutcome => ({
      type: 'sent',
      id,
      turn: this.#enqueue(message, this.#newId(), undefined, true),
    });
    if (live === undefined || live.ended) {
      return { id, outcome: Promise.resolve(sendInstead()) };
    }
    const outcome = live.steer(message, id).then((result): SteerOutcome => {
      if (result.type === 'delivered') {
        return { type: 'delivered', id, turnId: live.turnId, step: result.stepNumber };
      }
      if (result.reason === 'aborted' || this.#closed) {
        return { type: 'dropped', id, reason: result.reason };
      }
      return sendInstead();
    });
    return { id, outcome };
  }

  async notify(input: NotifyInput): Promise<NotifyResult> {
    this.#checkOpen('notify');
    if (typeof input !== 'object' || input === null || !SYSTEM_KINDS.includes(input.kind)) {
      throw new ChunklogError(
        'invalid-option',
        `notify: \`kind\` must be one of ${SYSTEM_KINDS.join(', ')}`,
        {
          option: 'kind',
          value: input?.kind,
        },
      );
    }
    if (typeof input.text !== 'string') {
      throw new ChunklogError('invalid-option', 'notify: `text` must be a string', {
        option: 'text',
        value: input.text,
      });
    }
    const event: ChunkEvent = { type: 'system', kind: input.kind, text: input.text };
    const live = this.#live;
    if (live !== undefined && !live.ended) {
      live.emit(event);
      return { routed: 'turn', turnId: live.turnId };
    }
    // No turn in flight: the event is a turn of its own (role system), published after the
    // turn before it. Grouping merges it into a system message that directly precedes it (rules
    // 2 and 3 of the routing).
    const waiting = this.#acquireSlot();
    if (waiting !== undefined) await waiting;
    const started = this.#live;
    if (started !== undefined && !started.ended) {
      // A queued turn started while we waited for the one before: route into it (rule 1).
      this.#releaseSlot();
      started.emit(event);
      return { routed: 'turn', turnId: started.turnId };
    }
    const turnId = this.#newId();
    const handle = new TurnHandleImpl(turnId, '', undefined, () => {});
    const turn = new LiveTurn(handle, this.#sink);
    this.#replay.begin(turnId);
    turn.emit({ type: 'turn-start', turnId, role: 'system' });
    turn.emit(event);
    turn.emit({ type: 'turn-end' });
    try {
      const rows = await this.#write(turnId, explodeChunks(turnId, turn.state.chunks, 'system'));
      return { routed: 'system-turn', turnId, rows };
    } finally {
      turn.publishEnd();
      this.#releaseSlot();
    }
  }

  subscribe(listener: SessionListener): () => void {
    if (typeof listener !== 'function') {
      throw new ChunklogError('invalid-option', 'subscribe: the listener must be a function', {
        option: 'listener',
        value: listener,
      });
    }
    return this.#hub.subscribe(listener);
  }

  replay(lastEventId?: string | null): Replay {
    return this.#replay.since(lastEventId);
  }

  async modelMessages(input?: SendInput): Promise<ModelMessage[]> {
    this.#checkOpen('modelMessages');
    const next = input === undefined ? undefined : readInput(input);
    await this.#writes;
    const history = await loadHistory(this.#config.turn.store, this.threadId);
    const user = next === undefined ? undefined : userMessage(next.turnId ?? 'next', next.text);
    const { context, caching, store } = this.#config.turn;
    if (context === undefined) return buildModelMessages(history, user, caching);
    // What the budget would send (a compaction the next turn would run is not run here).
    const budgeted = await budgetedInput(
      store,
      this.threadId,
      { ...context, compaction: undefined },
      history,
      user,
      new AbortController().signal,
    );
    return caching ? applyAnthropicCaching(budgeted.messages) : budgeted.messages;
  }

  async resumeInterruptedTurns(): Promise<TurnResult[]> {
    this.#checkOpen('resumeInterruptedTurns');
    const waiting = this.#acquireSlot();
    if (waiting !== undefined) await waiting;
    let held: HeldLease | undefined;
    try {
      await this.#writes;
      const { lease, turn } = this.#config;
      if (lease !== undefined) {
        held = await takeLease(
          turn.store as unknown as LeaseStore,
          this.threadId,
          lease,
          this.#closedController.signal,
          (error) => {
            this.#config.onError(error, { source: 'store' });
            this.#live?.cancel('The thread lease was lost');
          },
        );
      }
      return await this.#continueAll(held?.fence);
    } finally {
      await held?.release();
      this.#releaseSlot();
    }
  }

  /** Recovers the turns a dead holder left `running`, by the `recovery` policy. */
  async #recover(fence: LeaseFence): Promise<void> {
    const store = this.#config.turn.store;
    if (!isRecoveryStore(store)) return;
    if (this.#config.recovery.policy === 'close') {
      await closeInterruptedTurns(store, this.threadId, { fence });
    } else {
      await this.#continueAll(fence);
    }
  }

  /** Continues every turn of the thread left `running`, one after another. */
  async #continueAll(fence: LeaseFence | undefined): Promise<TurnResult[]> {
    const store = this.#config.turn.store;
    if (!isRecoveryStore(store)) {
      throw new ChunklogError(
        'invalid-option',
        'resumeInterruptedTurns: the store must have `listTurns`, `getTurn` and `appendSteps` (a ChunkStore)',
        { option: 'store' },
      );
    }
    const running = await store.listTurns(this.threadId, { status: 'running' });
    const results: TurnResult[] = [];
    for (const info of running) results.push(await this.#continueTurn(store, info.turnId, fence));
    return results;
  }

  /**
   * The index a continued turn's first event gets: the one after the last event the relay holds
   * of it (published by the process that died), so readers following the thread through the
   * relay read on with no id twice. 0 without a relay, or when it cannot say (readers then see
   * a gap and reload from the store).
   */
  async #continuedIndex(turnId: string): Promise<number> {
    const relay = this.#config.relay;
    if (relay === undefined) return 0;
    try {
      const last = await relay.lastIndex(this.threadId, turnId);
      return last === undefined ? 0 : last + 1;
    } catch (error) {
      this.#config.onError(error, { source: 'listener', turnId });
      return 0;
    }
  }

  /**
   * The `continue` policy for one turn: stores the results of its unanswered calls and a
   * `resumed` chunk, then runs the model from its stored steps, writing each step as it ends
   * and the turn's status at the end. Its events go to the subscribers like a turn's.
   */
  async #continueTurn(
    store: RecoveryStore,
    turnId: string,
    fence: LeaseFence | undefined,
  ): Promise<TurnResult> {
    const { turn, recovery } = this.#config;
    const stored = (await store.getTurn(this.threadId, turnId)) ?? [];
    const handle = new TurnHandleImpl(turnId, '', undefined, (h, reason) =>
      this.#cancelTurn(h, reason),
    );
    handle.status = 'running';
    const writer = new StepWriter(
      store as unknown as StepDurableStore,
      this.threadId,
      turnId,
      fence,
      (error) => {
        this.#config.onError(error, { source: 'store', turnId });
        if (ChunklogError.hasCode(error, 'lease-lost')) live.cancel('The thread lease was lost');
      },
    );
    // Relay readers hold the dead process's events of the turn: number on after the last one.
    const firstIndex = await this.#continuedIndex(turnId);
    const live: LiveTurn = new LiveTurn(
      handle,
      stepWritingSink(writer, this.#sink, () => live.state.chunks),
      firstIndex,
    );
    this.#live = live;
    this.#replay.begin(turnId, firstIndex);
    let outcome: Awaited<ReturnType<typeof runTurn>>;
    /** The turn's rows when the stored steps had ended it already (nothing more to write). */
    let whole: readonly ChunkRow[] | undefined;
    try {
      const plan = await planResume(turnId, stored, {
        tools: turn.tools,
        rerun: recovery.rerun,
        messages: async () =>
          buildModelMessages(await loadHistory(store as never, this.threadId), undefined, false),
        signal: live.controller.signal,
      });
      const recoveryRows = await store.appendSteps(this.threadId, turnId, plan.drafts, {
        ...(fence === undefined ? {} : { fence }),
        ...(plan.finished ? { status: 'completed' as const } : {}),
      });
      writer.resume([...stored, ...recoveryRows]);
      const announce = () => {
        for (const event of plan.events) live.announce(event);
      };
      if (plan.finished) {
        // The stored steps ended the turn already (only its status was not written).
        whole = [...stored, ...recoveryRows];
        live.emit({ type: 'turn-start', turnId });
        announce();
        live.emit({ type: 'turn-end' });
        outcome = {
          outcome: 'completed',
          userChunks: [],
          chunks: [],
          finishReason: undefined,
          usage: undefined,
          steps: [],
        };
      } else {
        outcome = await runTurn(live, turn, () => Promise.resolve(), {
          lastStep: plan.lastStep,
          announce,
        });
      }
    } catch (error) {
      this.#replay.sealed(turnId);
      handle.fail(error);
      throw error;
    } finally {
      this.#live = undefined;
    }
    handle.status = 'sealing';
    const finished = outcome;
    try {
      const rows =
        whole !== undefined
          ? await this.#chainWrite(turnId, [], async () => whole)
          : await this.#chainWrite(turnId, finished.steps, () =>
              writer.finish(finished.chunks, finished.outcome),
            );
      live.publishEnd();
      const result: TurnResult = {
        turnId,
        outcome: finished.outcome,
        finishReason: finished.finishReason,
        usage: finished.usage,
        rows,
      };
      handle.settle(result);
      return result;
    } catch (error) {
      live.publishEnd();
      handle.fail(error);
      throw error;
    }
  }

  async idle(): Promise<void> {
    for (;;) {
      const writes = this.#writes;
      await this.#queue.idle();
      await writes;
      if (writes === this.#writes && this.#queue.running === undefined) return;
    }
  }

  async close(): Promise<void> {
    if (!this.#closed) {
      this.#closed = true;
      for (const handle of this.#queue.close()) this.#drop(handle);
      this.#live?.cancel('Session closed');
      this.#guard.close();
    }
    await this.idle();
    this.#detachRelay?.();
    // After the last turn's `turn-end` went out: event streams end now (a second call is a no-op).
    this.#closedController.abort(
      new ChunklogError('closed', `The session of thread ${this.threadId} is closed`, {
        threadId: this.threadId,
      }),
    );
  }

  /** Stores drafts after every write before them; the next turn reads history after it lands. */
  #write(
    turnId: string,
    drafts: readonly ChunkRowDraft[],
    steps: readonly StepUsage[] = [],
    status?: 'completed' | 'failed' | 'cancelled',
    fence?: LeaseFence,
  ): Promise<readonly ChunkRow[]> {
    const store = this.#config.turn.store;
    const options = {
      ...(status === undefined || status === 'completed' ? {} : { status }),
      ...(fence === undefined ? {} : { fence }),
    };
    return this.#chainWrite(turnId, steps, () =>
      Object.keys(options).length === 0
        ? store.appendTurn(this.threadId, drafts)
        : store.appendTurn(this.threadId, drafts, options),
    );
  }

  /**
   * Runs a turn's write after every write before it (the next turn reads history after it
   * lands), then stores the turn's usage.
   */
  #chainWrite(
    turnId: string,
    steps: readonly StepUsage[],
    work: () => Promise<readonly ChunkRow[]>,
  ): Promise<readonly ChunkRow[]> {
    const store = this.#config.turn.store;
    const write = this.#writes.then(async () => {
      const rows = await work();
      // Usage is kept apart from the log: failing to store it does not fail the turn.
      await recordTurnUsage(store, this.threadId, turnId, steps).catch((error: unknown) =>
        this.#config.onError(error, { source: 'store', turnId }),
      );
      return rows;
    });
    this.#writes = write.then(
      () => this.#replay.sealed(turnId),
      (error: unknown) => {
        // Not stored, and never will be: stop keeping it for replay.
        this.#replay.sealed(turnId);
        this.#config.onError(error, { source: 'store', turnId });
      },
    );
    return write;
  }

  /** Takes the turn slot: undefined when it was free, else a promise of getting it. */
  #acquireSlot(): Promise<void> | undefined {
    if (!this.#slotBusy) {
      this.#slotBusy = true;
      return undefined;
    }
    return new Promise((resolve) => this.#slotWaiters.push(resolve));
  }

  /** Hands the turn slot to the next waiter, or frees it. */
  #releaseSlot(): void {
    const next = this.#slotWaiters.shift();
    if (next === undefined) this.#slotBusy = false;
    else next();
  }

  async #run(handle: TurnHandleImpl): Promise<void> {
    const waiting = this.#acquireSlot();
    if (waiting !== undefined) await waiting;
    try {
      await this.#runInSlot(handle);
    } finally {
      this.#releaseSlot();
    }
  }

  async #runInSlot(handle: TurnHandleImpl): Promise<void> {
    let held: HeldLease | undefined;
    if (!this.#guard.needed(handle.turnId)) {
      await this.#runHeld(handle, undefined);
      return;
    }
    try {
      const checked = await this.#guard.beforeTurn(handle, (error) => {
        this.#config.onError(error, { source: 'store', turnId: handle.turnId });
        if (this.#live?.handle === handle) this.#live.cancel('The thread lease was lost');
      });
      held = checked.held;
      if (checked.stored !== undefined) {
        // A retried turn id: the stored turn is the answer; the model is not called again.
        await held?.release();
        handle.settle({ turnId: handle.turnId, ...checked.stored });
        return;
      }
    } catch (error) {
      if (isCancelledWait(error)) this.#drop(handle);
      else handle.fail(error);
      return;
    }
    try {
      await this.#runHeld(handle, held?.fence);
    } finally {
      await held?.release();
    }
  }

  async #runHeld(handle: TurnHandleImpl, fence: LeaseFence | undefined): Promise<void> {
    handle.status = 'running';
    const durable = stepWriterFor(this.#config, handle, fence, (error) => {
      this.#config.onError(error, { source: 'store', turnId: handle.turnId });
      if (ChunklogError.hasCode(error, 'lease-lost')) live.cancel('The thread lease was lost');
    });
    const live: LiveTurn = new LiveTurn(
      handle,
      durable === undefined ? this.#sink : durable.sink(this.#sink, () => live.state.chunks),
    );
    this.#live = live;
    this.#replay.begin(handle.turnId);
    let outcome: Awaited<ReturnType<typeof runTurn>>;
    try {
      outcome = await runTurn(
        live,
        this.#config.turn,
        durable === undefined ? () => this.#writes : () => durable.begin(this.#writes),
      );
    } finally {
      this.#live = undefined;
    }
    handle.status = 'sealing';
    const drafts = [
      ...explodeChunks(handle.turnId, outcome.userChunks, 'user'),
      ...explodeChunks(handle.turnId, outcome.chunks, 'assistant'),
    ];
    try {
      const rows =
        durable === undefined
          ? await this.#write(handle.turnId, drafts, outcome.steps, outcome.outcome, fence)
          : await this.#chainWrite(handle.turnId, outcome.steps, () =>
              durable.finish(outcome.chunks, outcome.outcome, drafts),
            );
      live.publishEnd();
      handle.settle({
        turnId: handle.turnId,
        outcome: outcome.outcome,
        finishReason: outcome.finishReason,
        usage: outcome.usage,
        rows,
      });
    } catch (error) {
      live.publishEnd();
      handle.fail(error);
    }
  }
}

function reasonOf(signal: AbortSignal): string | undefined {
  const reason: unknown = signal.reason;
  if (typeof reason === 'string') return reason;
  if (reason instanceof Error && reason.name !== 'AbortError') return reason.message;
  return undefined;
}

/**
 * Creates a headless agent session on one thread: each `send` runs a turn end to end (model →
 * events → reducer → subscribers → store) with no glue of the app's own, and the next turn's
 * model input is rebuilt from the store, so a new session over the same store (a restart) sends
 * the model exactly what this one would have.
 *
 * - `send` while a turn runs queues a new turn, in order; `steer` joins the running turn at its
 *   next step boundary (stored in place as a `steering` chunk); `cancel` ends the running turn
 *   with a `cancelled` system chunk, keeping what it had.
 * - A provider error becomes an `error` chunk with its status code; with `fallbackModels`, a
 *   429, 529/503 or other 5xx moves to the next model and records a `model-changed` chunk.
 * - `notify` routes a system event into the running turn, or into a system turn of its own.
 * - Anthropic prompt caching is applied to every step when `caching` is `'anthropic'` (the
 *   default for Anthropic models).
 *
 * @param options - the store, thread, model and the rest (see {@link AgentSessionOptions})
 * @returns the session
 * @throws {ChunklogError} `invalid-option`, naming the offending option
 *
 * @example
 * ```ts
 * import { anthropic } from '@ai-sdk/anthropic';
 * import { createAgentSession } from 'chunklog/session';
 * import { createChunkStore } from 'chunklog/store';
 *
 * const store = createChunkStore({ sqlite: 'chat.db' });
 * await store.migrate();
 * const session = createAgentSession({ store, threadId: 'thread-1', model: anthropic('claude-sonnet-4-5') });
 * const turn = session.send('Explain X');
 * for await (const event of turn) if (event.type === 'text-delta') process.stdout.write(event.text);
 * console.log((await turn.rows).length, 'rows stored');
 * ```
 */
export function createAgentSession<TOOLS extends ToolSet = ToolSet>(
  options: AgentSessionOptions<TOOLS>,
): AgentSession {
  return new Session(validateOptions(options));
}
