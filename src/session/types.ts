import type { LanguageModelV4 } from '@ai-sdk/provider';
import type { Instructions, LanguageModel, ModelMessage, StopCondition, ToolSet } from 'ai';
import type { Replay, SessionListener } from '../live/event-meta.js';
import type { Relay } from '../live/relay.js';
import type { ContextBudget } from '../model-messages/context-budget.js';
import type { SystemKind } from '../schema/chunk.js';
import type { ChunkEvent } from '../schema/chunk-event.js';
import type { ChunkRow } from '../schema/chunk-row.js';
import type { JSONValue } from '../schema/json.js';
import type { FinishReason, TokenUsage } from '../schema/usage.js';
import type { Redactor } from '../transforms/redactor.js';
import type { SessionLeaseOptions } from './lease.js';
import type { RecoveryPolicy, SessionRecoveryOptions } from './resume-turn.js';
import type { SessionStore } from './store.js';
import type { SessionDurability } from './turn-writer.js';

export type { SessionStore } from './store.js';

/**
 * What `send` does with a turn id the thread already holds (see
 * {@link AgentSessionOptions.onExistingTurn}).
 */
export type ExistingTurnPolicy = 'return' | 'error';

/** Prompt caching a session applies to every step: Anthropic's cache breakpoints (`'anthropic'`), or none (`'none'`). */
export type SessionCaching = 'anthropic' | 'none';

export type { EventMeta, Replay, SessionListener } from '../live/event-meta.js';

/**
 * Options of {@link createAgentSession}.
 *
 * @example
 * ```ts
 * const options: AgentSessionOptions = { store, threadId: 't1', model, tools, system: 'Be brief.', maxSteps: 10 };
 * ```
 */
export interface AgentSessionOptions<TOOLS extends ToolSet = ToolSet> {
  /** Where turns are sealed and history is read from. */
  readonly store: SessionStore;
  /**
   * The thread this session runs: a conversation. With alternatives (`edit`, `regenerate`,
   * `store.switchAlternative`), each turn reads and writes the conversation's active path.
   */
  readonly threadId: string;
  /** The model. With `fallbackModels`, it must be a model object (not a gateway id). */
  readonly model: LanguageModel;
  /** Tools the model may call; their `execute` runs inside the turn. */
  readonly tools?: TOOLS | undefined;
  /**
   * The system prompt (the AI SDK's `instructions`: a string or system messages, which may carry
   * provider options such as a cache breakpoint), sent with every call and never stored.
   */
  readonly system?: Instructions | undefined;
  /**
   * Models to move to, in order, when a call fails with a rate limit (429), an overload (529,
   * 503) or another 5xx error. Each switch records a `model-changed` system chunk in the turn,
   * before the next model is called. Each model gets `maxRetries` retries first. Fallbacks, and
   * `model` with them, must be v4 model objects (a provider package made for `ai@7`, such as
   * `@ai-sdk/anthropic@^4`): an older one is a type error, and an `invalid-option` error naming it.
   */
  readonly fallbackModels?: readonly LanguageModelV4[] | undefined;
  /** Defaults to `'anthropic'` when the model's provider id starts with `anthropic`, else `'none'`. */
  readonly caching?: SessionCaching | undefined;
  /** The most steps (model calls) a turn may take. Default 20, unless `stopWhen` is given. */
  readonly maxSteps?: number | undefined;
  /** Stop conditions of the tool loop (with `maxSteps` when both are given). */
  readonly stopWhen?: StopCondition<TOOLS> | readonly StopCondition<TOOLS>[] | undefined;
  /**
   * Retries of a retryable failure on the same model before its stream starts, with exponential
   * backoff. Default 2. Without fallbacks, the AI SDK's `maxRetries`; with `fallbackModels`, the
   * retries of each model before the call moves to the next (the AI SDK's are then off).
   */
  readonly maxRetries?: number | undefined;
  /** Maximum output tokens per step. */
  readonly maxOutputTokens?: number | undefined;
  /** Sampling temperature. */
  readonly temperature?: number | undefined;
  /** Provider options passed with every call (thinking budgets, for example). */
  readonly providerOptions?: Readonly<Record<string, Record<string, JSONValue>>> | undefined;
  /** Makes turn and steering ids. Default: time-ordered random ids. */
  readonly idGenerator?: (() => string) | undefined;
  /** The clock, in milliseconds since the epoch (ids and turn timings). Default `Date.now`. */
  readonly now?: (() => number) | undefined;
  /** How many events of the live turn are kept for SSE resumption. Default 10,000. */
  readonly replayLimit?: number | undefined;
  /**
   * Called when something fails outside a turn's own record: a listener threw, or a turn could
   * not be stored. Default: ignored (the turn's `rows` promise rejects for a failed write).
   */
  readonly onError?: ((error: unknown, context: SessionErrorContext) => void) | undefined;
  /**
   * What reading the thread's history does with a stored row that no longer parses: `'skip'`
   * leaves it out of the model's input (the turn runs), `'throw'` fails the turn with
   * `corrupt-row`. Default: the store's own policy (its `onCorruptRow` option).
   */
  readonly onCorruptRow?: 'throw' | 'skip' | undefined;
  /**
   * When a turn's rows are stored. `'turn'` (default): in one transaction when the turn ends —
   * the fewest writes. `'step'`: the user's message when the turn starts (status `running`) and
   * each step's rows when the step ends, one transaction each, so a crash loses at most the step
   * in progress.
   */
  readonly durability?: SessionDurability | undefined;
  /**
   * Hold the thread's lease in the store while a turn runs, so that one process at a time runs
   * the thread's turns (see {@link SessionLeaseOptions}: `ttlMs`, `holder`, `onBusy`); every
   * write of the turn is fenced with it. `true` takes the defaults; `false` turns it off.
   * Default: on where more than one process can write the thread — with a `relay` other than an
   * in-process one, or a store on a database server (PostgreSQL, MySQL/MariaDB) — and off on a
   * SQLite store without such a relay (one process; `lease: true` for several processes on one
   * file). With a lease, a turn another holder left `running` (it died) is recovered before the
   * next turn runs (see `recovery`).
   */
  readonly lease?: SessionLeaseOptions | boolean | undefined;
  /**
   * What is done with a turn another holder left `running` (it died), found when the session
   * takes the lease (with `lease`, the first time and after every takeover) or on
   * {@link AgentSession.resumeInterruptedTurns}. `'close'` (default): the turn ends `interrupted`,
   * with an error result for each unanswered tool call and an `interrupted` system chunk.
   * `'continue'`: the model runs again from the turn's stored steps under the same turn id (a
   * `resumed` system chunk marks the point; an unanswered call runs again only when its tool is
   * in `rerunTools`, else it gets an error result); the steps it takes are appended to the turn
   * and its events go to the subscribers like a turn's. See {@link SessionRecoveryOptions}.
   */
  readonly recovery?: RecoveryPolicy | SessionRecoveryOptions | undefined;
  /**
   * Redaction at write: every event of a turn goes through it before it is folded, stored or
   * published (to subscribers, the turn's handle and the relay), and so does the user's message
   * before it is stored and sent to the model. What it replaced is recorded, by kind, in a
   * `redacted` system chunk before each step's end. Deltas of a block still streaming are held
   * back from where a secret may still be growing (`Redactor.pending`). `redactSecrets` is the
   * ready one. See `docs/session.md`, _Redaction_. Default: none.
   */
  readonly redact?: Redactor | undefined;
  /**
   * What `send` does with a turn id the thread already holds (a client retrying a POST): the
   * model is never called again. A turn of that id running or queued in this session is joined
   * (`send` returns its handle). Stored already: `'return'` (default) settles the new handle
   * with the stored turn's rows and outcome (`interrupted` reads as `failed`), without events;
   * `'error'` fails it with `turn-exists` — as does a turn `running` in another process.
   */
  readonly onExistingTurn?: ExistingTurnPolicy | undefined;
  /**
   * Where the session publishes its events and serves the thread's control messages (cancel,
   * steering, notices) while a turn runs, so that any process can follow the turn and control it
   * (`createRedisRelay`, `createPostgresRelay` from `chunklog/relay`). Default: an in-process relay
   * of the session's own (`createInProcessRelay`), which the handlers read through
   * `session.relay`: one path whether the turn runs here or elsewhere.
   */
  readonly relay?: Relay | undefined;
  /**
   * A token budget for model input: when a turn's input would exceed it, whole oldest turns are
   * left out (down to `cutTo` of it, so cuts come rarely), and the cut is recorded in the turn as
   * a `context-truncated` system chunk. Corrected by the stored usage of the previous turn.
   */
  readonly contextBudget?: ContextBudget | undefined;
  /**
   * Summarise the turns a cut leaves out with a model call, and send the summary in their place
   * (stored in the cut's `context-truncated` chunk). `true` uses the session's model.
   */
  readonly compaction?: boolean | SessionCompaction | undefined;
}

/**
 * How a session summarises the turns a context cut leaves out.
 *
 * @example
 * ```ts
 * const compaction: SessionCompaction = { instructions: 'Summarise the decisions made so far.' };
 * ```
 */
export interface SessionCompaction {
  /** The model that writes the summary. Default: the session's model. */
  readonly model?: LanguageModel | undefined;
  /** What the summary is asked for. Default `DEFAULT_COMPACTION_INSTRUCTIONS`. */
  readonly instructions?: string | undefined;
}

/** Where a reported error came from, for example `{ source: 'store', turnId: 't1' }`. */
export interface SessionErrorContext {
  readonly source: 'listener' | 'store';
  readonly turnId?: string | undefined;
}

/** What the user sends: text (`'Hi'`), or text with an explicit turn id (`{ text: 'Hi', turnId: 'msg-7' }`). */
export type SendInput = string | { readonly text: string; readonly turnId?: string | undefined };

/** Options of {@link AgentSession.send}, for example `{ signal: request.signal }`. */
export interface SendOptions {
  /** Aborting it cancels this turn (or drops it while it still waits in the queue). */
  readonly signal?: AbortSignal | undefined;
}

/** Where a turn is in its life: `queued → running → sealing → done`, or `dropped` from the queue. */
export type TurnStatus = 'queued' | 'running' | 'sealing' | 'done' | 'dropped';

/**
 * How a turn ended.
 *
 * @example
 * ```ts
 * const { outcome, rows } = await session.send('Hi').result;
 * if (outcome === 'failed') console.warn(rows.at(-1)?.data);
 * ```
 */
export interface TurnResult {
  readonly turnId: string;
  /** `completed` (the model finished), `failed` (an error ended it), `cancelled`, or `dropped` (cancelled before it started; nothing stored). */
  readonly outcome: 'completed' | 'failed' | 'cancelled' | 'dropped';
  readonly finishReason?: FinishReason | undefined;
  readonly usage?: TokenUsage | undefined;
  /** The stored rows (user message first); empty for a dropped turn. */
  readonly rows: readonly ChunkRow[];
}

/**
 * A turn started by {@link AgentSession.send}: an async iterable of its events (`turn-start`
 * first, `turn-end` last), and promises of its stored rows and result.
 *
 * Every iteration started before the turn settled (before `rows` and `result` resolve) gets all
 * of its events, however late it starts or slowly it reads. The handle keeps the events only for
 * those iterations: once the turn settled and each of them finished (or broke out), it holds
 * none, so a handle kept for its `rows` does not keep its turn's events in memory. An iteration
 * started after the turn settled ends at once: the turn is then in the store (`rows`).
 *
 * @example
 * ```ts
 * const turn = session.send('Explain X');
 * for await (const event of turn) if (event.type === 'text-delta') write(event.text);
 * const rows = await turn.rows;
 * ```
 */
export interface TurnHandle extends AsyncIterable<ChunkEvent> {
  /** The turn's id, known at once (every row of the turn carries it). */
  readonly turnId: string;
  /** The current status. */
  readonly status: TurnStatus;
  /** The rows stored when the turn sealed (the user's message, then the assistant's turn). */
  readonly rows: Promise<readonly ChunkRow[]>;
  /** How the turn ended, once it is stored. */
  readonly result: Promise<TurnResult>;
  /** Cancels this turn (or drops it from the queue). */
  cancel(reason?: string): void;
}

/** A system event for {@link AgentSession.notify}, for example `{ kind: 'config-reload', text: 'Settings changed' }`. */
export interface NotifyInput {
  readonly kind: SystemKind;
  readonly text: string;
}

/** Where a notification went: `{ routed: 'turn', turnId }` (into the running turn) or a system turn with its rows. */
export type NotifyResult =
  | { readonly routed: 'turn'; readonly turnId: string }
  | {
      readonly routed: 'system-turn';
      readonly turnId: string;
      readonly rows: readonly ChunkRow[];
    };

/**
 * What became of a steering message.
 *
 * @example
 * ```ts
 * const outcome = await session.steer('Use Paris, Texas').outcome;
 * if (outcome.type === 'delivered') console.log('joined step', outcome.step);
 * ```
 */
export type SteerOutcome =
  | {
      readonly type: 'delivered';
      readonly id: string;
      readonly turnId: string;
      /** The step whose model call received it. */
      readonly step: number;
    }
  | {
      /** It came too late for the running turn (or no turn ran): it was sent as a new turn. */
      readonly type: 'sent';
      readonly id: string;
      readonly turn: TurnHandle;
    }
  | {
      /**
       * The turn was cancelled before the message joined it (no `steering-message` event); the
       * turn's `cancelled` notice lists it in `dropped`.
       */
      readonly type: 'dropped';
      readonly id: string;
      readonly reason: string;
    };

/** A steering message on its way: its id at once, and what became of it (`const { id, outcome } = session.steer(text)`). */
export interface SteerHandle {
  readonly id: string;
  readonly outcome: Promise<SteerOutcome>;
}

/**
 * A headless agent on one thread (a conversation: each turn reads and writes its active path,
 * `store.activePath(threadId)`, resolved when the turn is admitted; its events and control are
 * the conversation's whichever path it is on). Created by {@link createAgentSession}.
 *
 * @example
 * ```ts
 * const session = createAgentSession({ store, threadId: 't1', model });
 * session.subscribe(broadcast);
 * await session.send('Hello').rows;
 * session.steer('Shorter, please');
 * await session.notify({ kind: 'notice', text: 'Deployed v2' });
 * ```
 */
export interface AgentSession {
  /** The thread this session runs. */
  readonly threadId: string;
  /** The id of the turn running (or being stored), or undefined when idle. */
  readonly runningTurnId: string | undefined;
  /** How many turns wait behind the running one. */
  readonly queued: number;
  /**
   * Whether the session runs its turns under the thread's lease (its `lease` option, or the
   * default for its store and relay): a turn sent while another process runs one waits for it.
   */
  readonly leased: boolean;
  /**
   * Aborted once the session has closed: when `close()` has cancelled the running turn, dropped
   * the queue and waited for the writes, after the last `turn-end` went out. Its reason is a
   * `ChunklogError` with code `closed`. `sessionEventStream` ends its stream on it; pass
   * it on to work that should end with the session (`AbortSignal.any([request.signal, session.signal])`).
   */
  readonly signal: AbortSignal;
  /**
   * The relay the session publishes its events to and serves its thread's control from (its
   * `relay` option, or an in-process relay of its own).
   */
  readonly relay: Relay;
  /** Starts a turn with the user's message, or queues it behind the running turn. */
  send(input: SendInput, options?: SendOptions): TurnHandle;
  /**
   * Sends the user message of stored turn `turnId` again, as a new version of that turn: queued
   * like a {@link AgentSession.send}; when its turn comes (after what was queued before it is
   * written), the conversation gets a new alternative that branches before `turnId`
   * (`store.addAlternative`), made its active path, and the message runs there as a new turn with
   * a new turn id. The old version stays in the store (`store.getAlternatives` lists both).
   *
   * @param turnId - a turn on the conversation's active path with a user message
   * @param options - `signal`, as for `send`
   * @returns the new turn's handle, as `send` returns
   * @throws {ChunklogError} `invalid-option` naming `turnId` or `signal` when malformed; `closed`.
   *   The handle fails with the store's `invalid-option` (`turnId`) when the turn is not on the
   *   active path when its time comes
   *
   * @example
   * ```ts
   * const again = session.regenerate('turn-3');
   * for await (const event of again) render(event);
   * ```
   */
  regenerate(turnId: string, options?: SendOptions): TurnHandle;
  /**
   * Sends `text` as a new version of stored turn `turnId` (an edited user message): as
   * {@link AgentSession.regenerate}, with `text` in place of the stored message. Nothing is
   * deleted: the old version stays as an alternative.
   *
   * @param turnId - a turn on the conversation's active path
   * @param text - the new user message (non-empty)
   * @param options - `signal`, as for `send`
   * @returns the new turn's handle, as `send` returns
   * @throws {ChunklogError} `invalid-option` naming `turnId`, `text` or `signal` when malformed;
   *   `closed`. The handle fails with the store's `invalid-option` (`turnId`) when the turn is not
   *   on the active path when its time comes
   *
   * @example
   * ```ts
   * const edited = session.edit('turn-3', 'Explain it with an example');
   * await edited.rows;
   * ```
   */
  edit(turnId: string, text: string, options?: SendOptions): TurnHandle;
  /** Adds a user message to the running turn at its next step boundary. */
  steer(text: string): SteerHandle;
  /**
   * Appends progress text to a tool call that runs now (its `execute` started and has not
   * settled) in the live turn, like a shell's output: a `tool-progress { toolCallId, text }`
   * event, the `progress` of the call's `tool_result` row. Never sent to the model. From inside
   * a tool, `toolProgress(options)` does the same without a reference to the session.
   *
   * @throws {ChunklogError} `tool-call-not-running` when the call does not run in the live turn
   *   (unknown, finished, of another turn, or no turn runs); `invalid-option` for an empty id or
   *   text. A refused call changes nothing.
   */
  reportToolProgress(toolCallId: string, text: string): void;
  /** Cancels the running turn. Returns whether a turn was running. */
  cancel(reason?: string): boolean;
  /** Routes a system event: into the running turn, else into a system turn of its own. */
  notify(input: NotifyInput): Promise<NotifyResult>;
  /** Calls `listener` with every event of every turn. Returns the unsubscribe function. */
  subscribe(listener: SessionListener): () => void;
  /** The events a client that saw `lastEventId` (or nothing) still needs. */
  replay(lastEventId?: string | null): Replay;
  /**
   * The messages the next model call will send (history from the store, caching applied), with
   * `input` as the new user message when given.
   */
  modelMessages(input?: SendInput): Promise<ModelMessage[]>;
  /**
   * Continues every turn of the thread left `running` (its writer died), with the `continue`
   * policy whatever `recovery` says: after the turns before it are stored, and under the lease
   * when the session has one (so a live writer's turn is never touched: the call waits for its
   * lease, or fails with `thread-busy` by `lease.onBusy`). Without a lease, call it only when
   * the writer is known dead (a restart of the only worker). The continued turns' events go to
   * the subscribers like a turn's.
   *
   * @returns how each continued turn ended, with all its stored rows
   */
  resumeInterruptedTurns(): Promise<TurnResult[]>;
  /** Resolves when no turn runs or waits and every write has landed. */
  idle(): Promise<void>;
  /**
   * Cancels the running turn, drops queued ones, waits for writes, then aborts `signal` (which
   * ends the event streams); later calls fail with `closed`.
   */
  close(): Promise<void>;
}
