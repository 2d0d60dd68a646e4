import type { ModelMessage } from 'ai';
import { sleep } from '../errors/backoff.js';
import { ChunklogError } from '../errors/index.js';
import { invalidOption, readOptions } from '../errors/invalid-option.js';
import { isAbortSignal } from '../live/abort-signal.js';
import type { EventMeta, Replay } from '../live/event-meta.js';
import { createInProcessRelay, type InProcessRelay } from '../live/in-process-relay.js';
import type { Relay } from '../live/relay.js';
import { SYSTEM_KINDS } from '../schema/chunk.js';
import type { ChunkEvent } from '../schema/chunk-event.js';
import type { ChunkRow } from '../schema/chunk-row.js';
import { idProblem } from '../schema/id.js';
import { userTextOf } from '../schema/user-text.js';
import { activePathOf } from '../store/active-path-of.js';
import type { LeaseFence } from '../store/turn-types.js';
import { answerControl } from './answer-control.js';
import { budgetedInput } from './context-input.js';
import { KeptHistory } from './kept-history.js';
import { type HeldLease, takeLease } from './lease.js';
import {
  type Command,
  type Effect,
  INITIAL_LIFECYCLE,
  type Job,
  type LifecycleState,
  transition,
} from './lifecycle.js';
import { type EventNumbering, LiveTurn } from './live-turn.js';
import { buildModelMessages, userMessage } from './model-input.js';
import type { SessionConfig } from './options.js';
import { applyAnthropicCaching, explodeChunks } from './pipeline.js';
import { closeInterruptedTurns, endOnRelay, endRunningOnRelay } from './recovery.js';
import { planResume } from './resume-turn.js';
import { runTurn, type TurnStart } from './run-turn.js';
import { withToolModelOutputs } from './tool-model-output.js';
import { checkProgressText, notRunning } from './tool-progress.js';
import { checkCancelReason, TurnHandleImpl } from './turn-handle.js';
import { TurnWriter, turnExists, type WriteMode } from './turn-writer.js';
import type {
  AgentSession,
  NotifyInput,
  NotifyResult,
  SendInput,
  SendOptions,
  SessionListener,
  SteerHandle,
  SteerOutcome,
  TurnHandle,
  TurnResult,
} from './types.js';

/** Checks a turn id by the one id rule (`idProblem`). */
function checkTurnId(turnId: unknown, option: string): string {
  const problem = idProblem(turnId);
  if (problem !== undefined) {
    throw new ChunklogError('invalid-option', `A turn id ${problem} (${option}).`, {
      option,
      value: turnId,
    });
  }
  return turnId as string;
}

function readInput(input: SendInput, where: string): { text: string; turnId: string | undefined } {
  if (typeof input === 'object' && input !== null) readOptions(input, where, ['text', 'turnId']);
  const text = typeof input === 'string' ? input : input?.text;
  if (typeof text !== 'string' || text.length === 0) {
    throw new ChunklogError(
      'invalid-option',
      `${where}: the message text must be a non-empty string`,
      {
        option: 'text',
        value: text,
      },
    );
  }
  const turnId = typeof input === 'string' ? undefined : input.turnId;
  return { text, turnId: turnId === undefined ? undefined : checkTurnId(turnId, 'turnId') };
}

/** The `signal` of a turn's options, checked. */
function readSignal(options: SendOptions | undefined, where: string): AbortSignal | undefined {
  const { signal } = readOptions(options, where, ['signal']);
  if (signal !== undefined && !isAbortSignal(signal)) {
    invalidOption(where, 'signal', '`signal` must be an AbortSignal', signal);
  }
  return signal as AbortSignal | undefined;
}

function reasonOf(signal: AbortSignal): string | undefined {
  const reason: unknown = signal.reason;
  if (typeof reason === 'string') return reason;
  if (reason instanceof Error && reason.name !== 'AbortError') return reason.message;
  return undefined;
}

/** What the session keeps of a job besides the lifecycle's view of it. */
interface JobRecord {
  readonly job: Job;
  /** A user's turn: its handle. */
  readonly handle?: TurnHandleImpl;
  /** A system notice of its own: the event and the caller's promise. */
  readonly notice?: {
    readonly event: ChunkEvent;
    readonly settle: (result: NotifyResult) => void;
    readonly fail: (error: unknown) => void;
  };
  /** A resume of interrupted turns: the caller's promise. */
  readonly resume?: {
    readonly settle: (results: TurnResult[]) => void;
    readonly fail: (error: unknown) => void;
  };
  /** A new version of a stored turn (`edit`, `regenerate`): made at admission. */
  readonly alternative?: AlternativeRequest;
  /** Stops the job's admission (a lease wait). */
  admission?: AbortController | undefined;
  /** The path the job reads and writes (the conversation's active path), resolved at admission. */
  path?: string | undefined;
  /** A regenerated turn's user text, read from the stored turn at admission. */
  text?: string | undefined;
  /** The active path an edit or regenerate replaced, while its alternative is not written. */
  previous?: string | undefined;
  /** The path's lease, held for the job. */
  lease?: HeldLease | undefined;
}

/** What `edit` and `regenerate` ask for: a new version of turn `turnId`, on a new alternative. */
interface AlternativeRequest {
  readonly turnId: string;
  /** The edited text; undefined to send the stored turn's user text again (regenerate). */
  readonly text: string | undefined;
}

/** The user text of a stored turn (its `text` rows of role `user`; steering is not part of it). */
function storedUserText(rows: readonly ChunkRow[]): string {
  return rows
    .map(userTextOf)
    .filter((text) => text !== undefined)
    .join('\n');
}

/** The `closed` error of a session. */
function closedError(threadId: string, what?: string): ChunklogError {
  return new ChunklogError(
    'closed',
    `${what === undefined ? '' : `${what}: `}the session of thread ${threadId} is closed`,
    { threadId },
  );
}

/**
 * A headless agent on one thread: its public calls become commands of the lifecycle
 * (lifecycle.ts), and it carries out the effects the lifecycle asks for — admitting a job (the
 * thread's lease, recovery of interrupted turns, a turn id stored already), running it (one
 * {@link runTurn} for fresh and continued turns), dropping it — feeding their ends back as
 * commands. Its events go to one relay (its `relay`, or an in-process one of its own), and to its
 * own listeners through an in-process relay too.
 */
class Session implements AgentSession {
  readonly threadId: string;
  readonly relay: Relay;
  readonly #config: SessionConfig;
  /** The session's own listeners and replay. */
  readonly #local: InProcessRelay;
  readonly #history: KeptHistory;
  #state: LifecycleState = INITIAL_LIFECYCLE;
  readonly #jobs = new Map<number, JobRecord>();
  #nextJob = 1;
  /** The turn whose model runs now (a user's turn, or one continued by recovery). */
  #live: LiveTurn | undefined;
  /** The write in progress, if any (a model input waits for it). */
  #writes: Promise<unknown> = Promise.resolve();
  /** The paths whose interrupted turns were recovered since their lease was first taken. */
  readonly #recovered = new Set<string>();
  /** When (`now`) a turn of this session last gave the thread's lease up. */
  #leaseReleasedAt: number | undefined;
  /** Turn ids the caller chose (a retry may repeat one): checked in the store before they run. */
  readonly #explicit = new Set<string>();
  readonly #closedController = new AbortController();
  #idleWaiters: Array<() => void> = [];
  #stopServing: (() => void) | undefined;

  constructor(config: SessionConfig) {
    this.#config = config;
    this.threadId = config.turn.threadId;
    this.#local = createInProcessRelay({
      replayLimit: config.replayLimit,
      onListenerError: (error, meta) =>
        config.onError(error, { source: 'listener', turnId: meta.turnId }),
    });
    this.relay = config.relay ?? this.#local;
    this.#history = new KeptHistory(config.turn.store, this.threadId, config.onCorruptRow);
  }

  // --- the lifecycle ---------------------------------------------------------------------------

  /** Applies a command and carries out its effects; returns the job a cancel reached. */
  #dispatch(command: Command): Job | undefined {
    const next = transition(this.#state, command);
    this.#state = next.state;
    for (const effect of next.effects) this.#carryOut(effect);
    return next.hit;
  }

  #carryOut(effect: Effect): void {
    const record = effect.type === 'idle' ? undefined : this.#jobs.get(effect.job.id);
    switch (effect.type) {
      case 'admit':
        if (record !== undefined) this.#admit(record);
        return;
      case 'stop-admission':
        record?.admission?.abort(effect.reason);
        return;
      case 'run':
        if (record !== undefined) void this.#run(record);
        return;
      case 'abort':
        this.#live?.cancel(effect.reason);
        return;
      case 'drop':
        if (record !== undefined) this.#drop(record);
        return;
      case 'idle':
        this.#becameIdle();
        return;
    }
  }

  #enqueue(record: JobRecord, front: boolean): void {
    this.#jobs.set(record.job.id, record);
    this.#dispatch({ type: 'enqueue', job: record.job, front });
  }

  #newJob(kind: Job['kind'], turnId?: string): Job {
    return { id: this.#nextJob++, kind, ...(turnId === undefined ? {} : { turnId }) };
  }

  /** The thread's control is served while the session has work. */
  #serveControl(): void {
    this.#stopServing ??= this.relay.serveControl(this.threadId, async (message) => {
      try {
        const live = this.#live;
        return await answerControl(this, message, live?.ended === false ? live.turnId : undefined);
      } catch (error) {
        this.#config.onError(error, { source: 'listener', turnId: this.runningTurnId });
        return { type: 'not-running' };
      }
    });
  }

  #becameIdle(): void {
    this.#stopServing?.();
    this.#stopServing = undefined;
    const waiters = this.#idleWaiters;
    this.#idleWaiters = [];
    for (const resolve of waiters) resolve();
  }

  #drop(record: JobRecord): void {
    this.#jobs.delete(record.job.id);
    void record.lease?.release();
    const closed = closedError(this.threadId);
    record.handle?.settle({ turnId: record.handle.turnId, outcome: 'dropped', rows: [] });
    record.notice?.fail(closed);
    record.resume?.fail(closed);
  }

  // --- admission -------------------------------------------------------------------------------

  #admit(record: JobRecord): void {
    const { job } = record;
    if (job.kind === 'notice') {
      this.#dispatch({ type: 'admitted', job: job.id, run: true });
      return;
    }
    this.#serveControl();
    const needed =
      this.#config.lease !== undefined ||
      record.alternative !== undefined ||
      (job.kind === 'turn' && this.#explicit.has(job.turnId as string));
    if (!needed) {
      // Nothing to wait for: it runs now, and reads the active path as it starts (#runOne).
      this.#dispatch({ type: 'admitted', job: job.id, run: true });
      return;
    }
    void this.#admitAsync(record);
  }

  /** The conversation's active path (one indexed read; see `activePathOf`). */
  #activePath(): Promise<string> {
    return activePathOf(this.#config.turn.store, this.threadId);
  }

  /**
   * The path a job reads and writes: the active path, or for `edit` and `regenerate` a new
   * alternative of the conversation made now (after the turns queued before it were written),
   * which becomes the active path. A regenerate's text is read from the stored turn first.
   *
   * @throws {ChunklogError} `invalid-option` when the turn is not on the active path
   */
  async #pathOf(record: JobRecord, signal: AbortSignal): Promise<string> {
    const wanted = record.alternative;
    if (wanted === undefined) return await this.#activePath();
    const { store } = this.#config.turn;
    if (typeof store.addAlternative !== 'function') {
      invalidOption(
        'edit/regenerate',
        'store',
        '`store` has no `addAlternative` (a ChunkStore has): a new version of a turn needs it',
        store,
      );
    }
    const rows = await store.getTurn(await this.#activePath(), wanted.turnId).catch((error) => {
      if (ChunklogError.hasCode(error, 'thread-not-found')) return null; // no rows yet
      throw error;
    });
    if (rows === null) {
      invalidOption(
        wanted.text === undefined ? 'regenerate' : 'edit',
        'turnId',
        `turn ${JSON.stringify(wanted.turnId)} is not on the active path of thread ${JSON.stringify(this.threadId)}`,
        wanted.turnId,
      );
    }
    const text = wanted.text ?? this.#regeneratedText(rows, wanted.turnId);
    if (signal.aborted) throw new ChunklogError('aborted', 'The turn was cancelled.');
    const made = await store.addAlternative(this.threadId, { turnId: wanted.turnId });
    record.path = made.id;
    record.previous = made.forkOf?.threadId;
    record.text = text;
    return made.id;
  }

  #regeneratedText(rows: readonly ChunkRow[], turnId: string): string {
    const text = storedUserText(rows);
    if (text === '') {
      invalidOption(
        'regenerate',
        'turnId',
        `turn ${JSON.stringify(turnId)} has no user message to send again`,
        turnId,
      );
    }
    return text;
  }

  /**
   * Resolves the path the job reads and writes (the conversation's active path, or a new
   * alternative for `edit` and `regenerate`), takes that path's lease (waiting for it, or failing
   * with `thread-busy`), recovers the turns a dead holder left `running` there (the first time,
   * and after every takeover), and finds a turn id the caller sent again stored already (the
   * model is not called again).
   */
  async #admitAsync(record: JobRecord): Promise<void> {
    const { job, handle } = record;
    const controller = new AbortController();
    record.admission = controller;
    const { lease, turn } = this.#config;
    try {
      const path = await this.#pathOf(record, controller.signal);
      record.path = path;
      if (lease !== undefined) {
        await this.#handOff(lease.handoffMs, controller.signal);
        const held = await takeLease(turn.store, path, lease, controller.signal, (error) => {
          this.#config.onError(error, { source: 'store', turnId: job.turnId });
          this.#live?.cancel('The thread lease was lost');
        });
        record.lease = held;
        // A resume job is the recovery itself (with the `continue` policy, whatever `recovery` says).
        if (job.kind !== 'resume' && (held.tookOver || !this.#recovered.has(path))) {
          try {
            await this.#recover(path, held.fence, controller.signal, job);
            this.#recovered.add(path);
          } catch (error) {
            this.#config.onError(error, { source: 'store', turnId: job.turnId });
          }
        }
        if (held.tookOver) await this.#endLostTurn(path, job);
      }
      if (job.kind === 'turn' && handle !== undefined && this.#explicit.delete(handle.turnId)) {
        const stored = await this.#storedTurn(path, handle.turnId);
        if (stored !== undefined) {
          await this.#releaseLease(record);
          handle.settle(stored);
          this.#jobs.delete(job.id);
          this.#dispatch({ type: 'admitted', job: job.id, run: false });
          return;
        }
      }
    } catch (error) {
      await this.#releaseLease(record);
      await this.#undoAlternative(record);
      this.#jobs.delete(job.id);
      if (controller.signal.aborted || ChunklogError.hasCode(error, 'aborted')) {
        handle?.settle({ turnId: handle.turnId, outcome: 'dropped', rows: [] });
        record.resume?.fail(error);
      } else {
        handle?.fail(error);
        record.resume?.fail(error);
      }
      this.#dispatch({ type: 'admitted', job: job.id, run: false });
      return;
    }
    // Cancelled while it was admitted: it will not run, so its alternative is not left active.
    if (controller.signal.aborted) await this.#undoAlternative(record);
    this.#dispatch({ type: 'admitted', job: job.id, run: true });
  }

  /**
   * An edit or regenerate that will not run after its alternative was made: the path it
   * replaced is made active again (unless the conversation was switched since), before the next
   * job reads the active path. The empty alternative stays listed; nothing is deleted.
   */
  async #undoAlternative(record: JobRecord): Promise<void> {
    const { previous, path } = record;
    record.previous = undefined;
    const { store } = this.#config.turn;
    if (previous === undefined || typeof store.switchAlternative !== 'function') return;
    try {
      if ((await this.#activePath()) === path)
        await store.switchAlternative(this.threadId, previous);
    } catch (error) {
      this.#config.onError(error, { source: 'store', turnId: record.job.turnId });
    }
  }

  async #releaseLease(record: JobRecord): Promise<void> {
    const held = record.lease;
    record.lease = undefined;
    if (held === undefined) return;
    await held.release();
    this.#leaseReleasedAt = this.#config.now();
  }

  /** Waits out what is left of `lease.handoffMs` since this session last gave the lease up. */
  async #handOff(handoffMs: number, signal: AbortSignal): Promise<void> {
    if (handoffMs === 0 || this.#leaseReleasedAt === undefined) return;
    const left = this.#leaseReleasedAt + handoffMs - this.#config.now();
    if (left > 0 && !(await sleep(left, signal))) {
      throw new ChunklogError(
        'aborted',
        `Waiting to take the lease of thread ${this.threadId} was cancelled.`,
      );
    }
  }

  /**
   * The turn of this id stored already, as the handle of a retried `send` settles with it, or
   * undefined when it is not stored.
   *
   * @throws {ChunklogError} `turn-exists` with `onExistingTurn: 'error'`, or when the stored turn
   *   is still `running` (in another process)
   */
  async #storedTurn(path: string, turnId: string): Promise<TurnResult | undefined> {
    const { store } = this.#config.turn;
    const info = await store.getTurnInfo(path, turnId);
    if (info === null) return undefined;
    if (this.#config.onExistingTurn === 'error' || info.status === 'running') {
      throw turnExists(path, turnId, info.status);
    }
    const rows = (await store.getTurn(path, turnId)) ?? [];
    const outcome =
      info.status === 'completed'
        ? 'completed'
        : info.status === 'cancelled'
          ? 'cancelled'
          : 'failed';
    return { turnId, outcome, rows };
  }

  /**
   * Recovers the turns a dead holder left `running` on the path, by the `recovery` policy, in the
   * admission of `job`.
   */
  async #recover(path: string, fence: LeaseFence, signal: AbortSignal, job: Job): Promise<void> {
    if (this.#config.recovery.policy === 'close') {
      const closed = await closeInterruptedTurns(this.#config.turn.store, path, { fence });
      try {
        await endOnRelay(
          this.relay,
          this.threadId,
          closed.map((turn) => turn.turnId),
        );
      } catch (error) {
        this.#config.onError(error, { source: 'listener', turnId: closed[0]?.turnId });
      }
    } else {
      await this.#continueInterrupted(path, fence, signal, job);
    }
  }

  /**
   * Ends on the relay a turn it still names running when this session took the lease from a
   * dead holder, of which the store holds nothing: its process died before storing any of it
   * (`durability: 'turn'` stores a turn whole at its end), so no recovery closes it. Without this
   * its readers would wait for its end until the next turn starts, and a send would read it as
   * running. A turn the store holds is the recovery's (closed or continued above). Only on the
   * conversation's own path: the relay key is the conversation's, and a turn it names may run on
   * another of its paths under a lease this session does not hold.
   */
  async #endLostTurn(path: string, job: Job): Promise<void> {
    if (path !== this.threadId) return;
    try {
      const running = await this.relay.runningTurn(this.threadId);
      if (running === undefined || running === job.turnId) return;
      if ((await this.#config.turn.store.getTurnInfo(path, running)) !== null) return;
      await endRunningOnRelay(this.relay, this.threadId, running);
    } catch (error) {
      this.#config.onError(error, { source: 'listener', turnId: job.turnId });
    }
  }

  // --- running ---------------------------------------------------------------------------------

  async #run(record: JobRecord): Promise<void> {
    const { job } = record;
    const path = record.path;
    try {
      if (job.kind === 'turn' && record.handle !== undefined) {
        const mode: WriteMode = this.#config.durability === 'step' ? 'steps' : 'whole';
        await this.#runOne(
          () => this.#dispatch({ type: 'ended', job: job.id }),
          record.handle,
          path,
          { kind: 'fresh', text: record.text ?? record.handle.text },
          record.lease?.fence,
          mode,
        );
      } else if (job.kind === 'notice' && record.notice !== undefined) {
        await this.#runNotice(job, record.notice);
      } else if (job.kind === 'resume' && record.resume !== undefined) {
        const at = path ?? (await this.#activePath());
        const results = await this.#continueInterrupted(at, record.lease?.fence, undefined);
        this.#recovered.add(at);
        record.resume.settle(results);
      }
    } catch (error) {
      record.handle?.fail(error);
      record.notice?.fail(error);
      record.resume?.fail(error);
    } finally {
      await this.#releaseLease(record);
      this.#jobs.delete(job.id);
      this.#dispatch({ type: 'sealed', job: job.id });
    }
  }

  /**
   * Runs one turn, fresh or continued, and stores it: the one path of every turn with events.
   * Its `turn-end` is published once the turn is stored (or its write failed). `path` is the one
   * admission resolved; undefined when admission had nothing to wait for: the turn is live at
   * once (a steer joins it, a cancel cancels it) and reads the active path as it starts, before
   * any other store call. `onEnded` is called once its `turn-end` is folded.
   */
  async #runOne(
    onEnded: () => void,
    handle: TurnHandleImpl,
    path: string | undefined,
    start: TurnStart,
    fence: LeaseFence | undefined,
    mode: WriteMode,
    stored: readonly ChunkRow[] = [],
    numbering: EventNumbering = { first: 0 },
  ): Promise<TurnResult> {
    const { turn } = this.#config;
    handle.status = 'running';
    const live: LiveTurn = new LiveTurn(
      handle,
      this.#sink,
      numbering,
      onEnded,
      this.#config.redact,
    );
    this.#live = live;
    let outcome: Awaited<ReturnType<typeof runTurn>>;
    let writer: TurnWriter;
    let at: string;
    try {
      at = path ?? (await this.#activePath());
      writer = new TurnWriter(
        turn.store,
        at,
        handle.turnId,
        mode,
        fence,
        (error) => {
          this.#config.onError(error, { source: 'store', turnId: handle.turnId });
          if (ChunklogError.hasCode(error, 'lease-lost')) live.cancel('The thread lease was lost');
        },
        stored,
      );
      const config = at === turn.threadId ? turn : { ...turn, threadId: at };
      outcome = await runTurn(live, config, this.#history, writer, start);
    } finally {
      this.#live = undefined;
    }
    handle.status = 'sealing';
    const writing = writer.finish(
      outcome.userChunks,
      outcome.chunks,
      outcome.outcome,
      outcome.steps,
    );
    this.#writes = writing.catch(() => {});
    try {
      const rows = await writing;
      live.publishEnd();
      const result: TurnResult = {
        turnId: handle.turnId,
        outcome: outcome.outcome,
        finishReason: outcome.finishReason,
        usage: outcome.usage,
        rows,
      };
      handle.settle(result);
      return result;
    } catch (error) {
      this.#config.onError(error, { source: 'store', turnId: handle.turnId });
      // A turn begun in the store (durability `step`, or continued) may be left `running`:
      // the next turn's admission recovers the path by the `recovery` policy, as after a takeover.
      if (mode !== 'whole') this.#recovered.delete(at);
      live.publishEnd();
      handle.fail(error);
      throw error;
    }
  }

  /** A system notice with no turn running: a turn of its own (role system), stored. */
  async #runNotice(job: Job, notice: NonNullable<JobRecord['notice']>): Promise<void> {
    const turnId = this.#newId();
    const handle = new TurnHandleImpl(turnId, '', undefined, () => {});
    const live = new LiveTurn(
      handle,
      this.#sink,
      { first: 0 },
      () => this.#dispatch({ type: 'ended', job: job.id }),
      this.#config.redact,
    );
    live.emit({ type: 'turn-start', turnId, role: 'system' });
    live.emit(notice.event);
    live.emit({ type: 'turn-end' });
    const drafts = explodeChunks(turnId, live.state.chunks, 'system');
    const writing = this.#activePath().then((path) =>
      this.#config.turn.store.appendTurn(path, drafts),
    );
    this.#writes = writing.catch(() => {});
    try {
      const rows = await writing;
      notice.settle({ routed: 'system-turn', turnId, rows });
    } catch (error) {
      this.#config.onError(error, { source: 'store', turnId });
      notice.fail(error);
    } finally {
      live.publishEnd();
    }
  }

  /**
   * Continues every turn of the thread left `running`, one after another (the `continue`
   * policy): stores the results of its unanswered calls and a `resumed` chunk, then runs the model
   * from its stored steps, each step written as it ends, through the same path as a new turn.
   * Inside the admission of `admitting` (a takeover), each is the running turn while it runs.
   */
  async #continueInterrupted(
    path: string,
    fence: LeaseFence | undefined,
    signal: AbortSignal | undefined,
    admitting?: Job,
  ): Promise<TurnResult[]> {
    const { store } = this.#config.turn;
    const running = await store.listTurns(path, { status: 'running' });
    const results: TurnResult[] = [];
    for (const info of running) {
      if (signal?.aborted === true) break;
      results.push(await this.#continueOne(path, info.turnId, fence, admitting));
    }
    return results;
  }

  async #continueOne(
    path: string,
    turnId: string,
    fence: LeaseFence | undefined,
    admitting: Job | undefined,
  ): Promise<TurnResult> {
    const { turn, recovery } = this.#config;
    const stored = (await turn.store.getTurn(path, turnId)) ?? [];
    const handle = new TurnHandleImpl(turnId, '', undefined, () => this.#live?.cancel(undefined));
    const controller = new AbortController();
    const plan = await planResume(turnId, stored, {
      tools: turn.tools,
      rerun: recovery.rerun,
      messages: async () =>
        withToolModelOutputs(
          buildModelMessages(await this.#history.messages(path), undefined, false),
          turn.tools,
        ),
      signal: controller.signal,
    });
    const recoveryRows = await turn.store.appendSteps(path, turnId, plan.drafts, {
      ...(fence === undefined ? {} : { fence }),
      ...(plan.finished ? { status: 'completed' as const } : {}),
    });
    const all = [...stored, ...recoveryRows];
    // Its events carry the seq of the `resumed` row just stored (the last recovery row): an id
    // the process that died gave of the turn is never one of this continuation's.
    const numbering: EventNumbering = {
      first: await this.#continuedIndex(turnId),
      epoch: (recoveryRows.at(-1) ?? all.at(-1))?.seq,
    };
    if (!plan.finished) {
      // Run inside an admission, it is the running turn until its `turn-end` (the lifecycle's
      // `recovering`): a cancel of the running turn is its, and the admitted job runs after it.
      const recovery = (running: boolean) => {
        if (admitting !== undefined) {
          this.#dispatch({ type: 'recovery', job: admitting.id, running });
        }
      };
      recovery(true);
      try {
        return await this.#runOne(
          () => recovery(false),
          handle,
          path,
          { kind: 'continued', plan },
          fence,
          'continued',
          all,
          numbering,
        );
      } finally {
        recovery(false); // also when it failed before its `turn-end`
      }
    }
    // The stored steps ended the turn already (only its status was not written): its events go
    // out, and nothing more is stored.
    const live = new LiveTurn(handle, this.#sink, numbering);
    live.emit({ type: 'turn-start', turnId });
    for (const event of plan.events) live.announce(event);
    live.emit({ type: 'turn-end' });
    live.publishEnd();
    const result: TurnResult = { turnId, outcome: 'completed', rows: all };
    handle.settle(result);
    return result;
  }

  /**
   * The index a continued turn's first event gets: the one after the last event the relay holds
   * of it (published by the process that died), so readers following the thread through the
   * relay read on with no id twice. 0 when the relay cannot say (readers see a gap and reload).
   */
  async #continuedIndex(turnId: string): Promise<number> {
    try {
      const last = await this.relay.lastIndex(this.threadId, turnId);
      return last === undefined ? 0 : last + 1;
    } catch (error) {
      this.#config.onError(error, { source: 'listener', turnId });
      return 0;
    }
  }

  /** Every event of the session: its own listeners and replay, and its relay. */
  readonly #sink = (event: ChunkEvent, meta: EventMeta): void => {
    this.#local.publish(this.threadId, event, meta);
    if (this.relay === this.#local) return;
    try {
      this.relay.publish(this.threadId, event, meta);
    } catch (error) {
      this.#config.onError(error, { source: 'listener', turnId: meta.turnId });
    }
  };

  // --- the public calls ------------------------------------------------------------------------

  get runningTurnId(): string | undefined {
    const live = this.#live;
    if (live !== undefined && !live.ended) return live.turnId;
    const current = this.#state.current;
    if (current?.job.kind !== 'turn') return undefined;
    // A turn whose rows have resolved is done, even before the next job starts.
    const status = this.#jobs.get(current.job.id)?.handle?.status;
    return status === undefined || status === 'done' || status === 'dropped'
      ? undefined
      : current.job.turnId;
  }

  get queued(): number {
    return this.#state.queue.length;
  }

  get leased(): boolean {
    return this.#config.lease !== undefined;
  }

  get signal(): AbortSignal {
    return this.#closedController.signal;
  }

  #checkOpen(what: string): void {
    if (this.#state.closed) throw closedError(this.threadId, what);
  }

  #newId(): string {
    return checkTurnId(this.#config.idGenerator(), 'idGenerator');
  }

  send(input: SendInput, options?: SendOptions): TurnHandle {
    this.#checkOpen('send');
    const { text, turnId } = readInput(input, 'send');
    if (typeof options === 'object' && options !== null && 'turnId' in options) {
      invalidOption(
        'send',
        'turnId',
        'a turn id goes with the text: `send({ text, turnId })` (the options take only `signal`)',
        (options as { turnId?: unknown }).turnId,
      );
    }
    const signal = readSignal(options, 'send');
    if (turnId !== undefined) {
      // The same turn id sent again while it runs or waits here: join it.
      const same = this.#pending(turnId);
      if (same !== undefined) return same;
    }
    return this.#enqueueTurn(text, turnId ?? this.#newId(), turnId !== undefined, signal, false);
  }

  regenerate(turnId: string, options?: SendOptions): TurnHandle {
    this.#checkOpen('regenerate');
    const stored = checkTurnId(turnId, 'turnId');
    const signal = readSignal(options, 'regenerate');
    return this.#enqueueTurn('', this.#newId(), false, signal, false, {
      turnId: stored,
      text: undefined,
    });
  }

  edit(turnId: string, text: string, options?: SendOptions): TurnHandle {
    this.#checkOpen('edit');
    const stored = checkTurnId(turnId, 'turnId');
    if (typeof text !== 'string' || text.length === 0) {
      invalidOption('edit', 'text', 'the message text must be a non-empty string', text);
    }
    const signal = readSignal(options, 'edit');
    return this.#enqueueTurn(text, this.#newId(), false, signal, false, { turnId: stored, text });
  }

  /** The running or queued turn of this id, if any. */
  #pending(turnId: string): TurnHandleImpl | undefined {
    for (const record of this.#jobs.values()) {
      const handle = record.handle;
      if (handle?.turnId === turnId && handle.status !== 'done' && handle.status !== 'dropped') {
        return handle;
      }
    }
    return undefined;
  }

  #enqueueTurn(
    text: string,
    turnId: string,
    explicit: boolean,
    signal: AbortSignal | undefined,
    front: boolean,
    alternative?: AlternativeRequest,
  ): TurnHandleImpl {
    const job = this.#newJob('turn', turnId);
    const handle = new TurnHandleImpl(turnId, text, signal, (_h, reason) =>
      this.#dispatch({ type: 'cancel', target: job.id, reason: reason ?? 'Cancelled' }),
    );
    if (signal?.aborted) {
      handle.settle({ turnId, outcome: 'dropped', rows: [] });
      return handle;
    }
    if (explicit) this.#explicit.add(turnId);
    if (signal !== undefined) {
      const onAbort = () =>
        this.#dispatch({ type: 'cancel', target: job.id, reason: reasonOf(signal) ?? 'Cancelled' });
      signal.addEventListener('abort', onAbort, { once: true });
      handle.onSettled(() => signal.removeEventListener('abort', onAbort));
    }
    this.#enqueue(
      alternative === undefined ? { job, handle } : { job, handle, alternative },
      front,
    );
    return handle;
  }

  cancel(reason?: string): boolean {
    checkCancelReason(reason, 'cancel');
    const why = reason ?? 'Cancelled';
    // The lifecycle knows the running turn: the current job's, or (`recovering`) the
    // interrupted turn its admission continues.
    return this.#dispatch({ type: 'cancel', target: 'current', reason: why }) !== undefined;
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
    const { text: message } = readInput(text, 'steer');
    const id = this.#newId();
    const live = this.#live;
    const sendInstead = (): SteerOutcome => ({
      type: 'sent',
      id,
      turn: this.#enqueueTurn(message, this.#newId(), false, undefined, true),
    });
    if (live === undefined || live.ended) {
      return { id, outcome: Promise.resolve(sendInstead()) };
    }
    const outcome = live.steer(message, id).then((result): SteerOutcome => {
      if (result.type === 'delivered') {
        return { type: 'delivered', id, turnId: live.turnId, step: result.stepNumber };
      }
      if (result.reason === 'aborted' || this.#state.closed) {
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
    readOptions(input, 'notify', ['kind', 'text']);
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
    // No turn in flight: a turn of its own (role system), after the job holding the thread.
    // Grouping merges it into a system message that directly precedes it.
    return await new Promise<NotifyResult>((settle, fail) => {
      this.#enqueue({ job: this.#newJob('notice'), notice: { event, settle, fail } }, true);
    });
  }

  subscribe(listener: SessionListener): () => void {
    if (typeof listener !== 'function') {
      invalidOption('subscribe', 'listener', '`listener` must be a function', listener);
    }
    return this.#local.subscribe(this.threadId, listener);
  }

  replay(lastEventId?: string | null): Replay {
    return this.#local.replay(this.threadId, lastEventId);
  }

  async modelMessages(input?: SendInput): Promise<ModelMessage[]> {
    this.#checkOpen('modelMessages');
    const next = input === undefined ? undefined : readInput(input, 'modelMessages');
    await this.#writes;
    const path = await this.#activePath();
    const history = await this.#history.messages(path);
    // The message as a turn would store and send it: redacted, when the session redacts.
    const redact = this.#config.redact;
    const text =
      next === undefined || redact === undefined ? next?.text : redact.redact(next.text).text;
    const user =
      next === undefined ? undefined : userMessage(next.turnId ?? 'next', text as string);
    const { context, caching, store, tools } = this.#config.turn;
    if (context === undefined) {
      return withToolModelOutputs(buildModelMessages(history, user, caching), tools);
    }
    // What the budget would send (a compaction the next turn would run is not run here).
    const budgeted = await budgetedInput(
      { store, threadId: path, context: { ...context, compaction: undefined }, tools },
      history,
      user,
      new AbortController().signal,
    );
    return caching ? applyAnthropicCaching(budgeted.messages) : budgeted.messages;
  }

  async resumeInterruptedTurns(): Promise<TurnResult[]> {
    this.#checkOpen('resumeInterruptedTurns');
    return await new Promise<TurnResult[]>((settle, fail) => {
      this.#enqueue({ job: this.#newJob('resume'), resume: { settle, fail } }, true);
    });
  }

  async idle(): Promise<void> {
    for (;;) {
      const state = this.#state;
      if (state.current === undefined && state.queue.length === 0) {
        const writes = this.#writes;
        await writes;
        if (writes === this.#writes && this.#state.current === undefined) return;
        continue;
      }
      await new Promise<void>((resolve) => this.#idleWaiters.push(resolve));
    }
  }

  async close(): Promise<void> {
    this.#dispatch({ type: 'close', reason: 'Session closed' });
    await this.idle();
    this.#stopServing?.();
    this.#stopServing = undefined;
    // After the last turn's `turn-end` went out: event streams end now (a second call is a no-op).
    this.#closedController.abort(closedError(this.threadId));
  }
}

/**
 * Creates the session of a thread (see `createAgentSession`).
 *
 * @param config - the checked options
 * @returns the session
 */
export function createSession(config: SessionConfig): AgentSession {
  return new Session(config);
}
