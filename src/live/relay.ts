import type { SystemKind } from '../schema/chunk.js';
import type { ChunkEvent } from '../schema/chunk-event.js';
import type { EventMeta } from './event-meta.js';

/**
 * What a reader of a relay gets: the next event of the thread (with its id `turnId:index`, or
 * `turnId:r<epoch>.index` for a turn continued after a crash), or
 * word that some events it asked for are gone (the client reloads the thread from the store and
 * goes on with the events that follow).
 *
 * @example
 * ```ts
 * // assumes: relay
 * for await (const read of relay.follow('thread-1', { lastEventId: 't1:41' })) {
 *   if (read.type === 'gap') console.log('reload from the store');
 *   else console.log(read.meta.id, read.event.type);
 * }
 * ```
 */
export type RelayRead =
  | { readonly type: 'event'; readonly event: ChunkEvent; readonly meta: EventMeta }
  | { readonly type: 'gap' };

/** Options of {@link Relay.follow}, for example `{ lastEventId: 't1:41', signal }`. */
export interface RelayFollowOptions {
  /** The id of the last event the reader saw (`Last-Event-ID`); none: the turns not stored yet. */
  readonly lastEventId?: string | null | undefined;
  /** Aborting it ends the iteration. */
  readonly signal?: AbortSignal | undefined;
}

/**
 * A control message for the turn running on a thread, from any process to the one that runs it.
 *
 * @example
 * ```ts
 * const stop: ControlMessage = { type: 'cancel', reason: 'Stop pressed' };
 * ```
 */
export type ControlMessage =
  | {
      readonly type: 'cancel';
      /** Cancel only this turn (otherwise: the running one). */
      readonly turnId?: string | undefined;
      readonly reason?: string | undefined;
      /**
       * Cancel only a turn that has started: one that holds the thread's lease and runs, not one
       * that waits for the lease (which a cancel without it drops). The cancel route sends this
       * first, so that a stop pressed for a running turn leaves another instance's waiting turn
       * alone, as a queued turn is left.
       */
      readonly onlyStarted?: boolean | undefined;
    }
  | { readonly type: 'steer'; readonly text: string }
  | { readonly type: 'notice'; readonly kind: SystemKind; readonly text: string };

/**
 * The answer of the process that runs the turn to a {@link ControlMessage}: the same facts the
 * handlers answer with on that process (`202 { turnId }` for a cancel, `{ steeringId }` for a
 * steer, `{ routed, turnId }` for a notice), or `not-running` when no turn (or not the one named)
 * runs on the thread.
 *
 * @example
 * ```ts
 * const answer: ControlAnswer = { type: 'cancelled', turnId: 't1' };
 * ```
 */
export type ControlAnswer =
  | { readonly type: 'cancelled'; readonly turnId: string }
  | { readonly type: 'steered'; readonly steeringId: string; readonly turnId: string }
  | { readonly type: 'noticed'; readonly turnId: string }
  | {
      readonly type: 'not-running';
      /**
       * The turn that waits for the thread's lease on the answering process, which a cancel
       * `onlyStarted` left: the cancel route then cancels it by name, and asks no second time
       * when no turn waits anywhere.
       */
      readonly waiting?: string | undefined;
    };

/** Answers the control messages of one thread: the session that runs its turn. */
export type ControlHandler = (message: ControlMessage) => Promise<ControlAnswer>;

/**
 * One answer for a control message several processes (or sessions) answered: the one that
 * reached the turn, else `not-running` naming a turn that waits for the lease, if one does.
 *
 * @param answers - every answer that came
 * @returns the answer to give the sender
 * @example
 * ```ts
 * joinAnswers([{ type: 'not-running' }, { type: 'cancelled', turnId: 't1' }]); // the cancel
 * ```
 */
export function joinAnswers(answers: readonly ControlAnswer[]): ControlAnswer {
  const reached = answers.find((answer) => answer.type !== 'not-running');
  if (reached !== undefined) return reached;
  return (
    answers.find((answer) => answer.type === 'not-running' && answer.waiting !== undefined) ?? {
      type: 'not-running',
    }
  );
}

/**
 * Carries a thread's live events and control messages between processes. The process that runs a
 * turn publishes each event (in order, with its id `turnId:index`, or `turnId:r<epoch>.index` for
 * a continued turn) and serves the control of the thread while the turn runs; any process follows
 * the events from any id and sends control messages. Readers get each event with the id it was
 * published with, and an id the relay did not give (of another epoch of the turn) is a gap. A relay never takes the running turn down: a failed publish is reported to its
 * `onError` and readers see a gap.
 *
 * Implementations: {@link createInProcessRelay} (one process), `createRedisRelay` and
 * `createPostgresRelay` (several) from `chunklog/relay`.
 *
 * @example
 * ```ts
 * // assumes: relay
 * relay.publish('thread-1', { type: 'turn-start', turnId: 't1' }, { id: 't1:0', turnId: 't1', index: 0 });
 * const answer = await relay.control('thread-1', { type: 'cancel' });
 * ```
 */
export interface Relay {
  /**
   * Publishes an event of a running turn. Returns at once; the events of a thread reach readers
   * in the order they were published. A turn's `turn-end` means it is stored: what is older than
   * it may be pruned.
   */
  publish(threadId: string, event: ChunkEvent, meta: EventMeta): void;
  /**
   * The thread's events after `lastEventId` (without one: those of the turns not stored yet),
   * then each new one as it is published, until `signal` aborts (the events kept by then are
   * still given: a reader aborted when its session closed gets the session's last events). Throws a `ChunklogError` with
   * code `relay-unavailable` when the relay cannot be reached (resume later with the last id).
   */
  follow(threadId: string, options?: RelayFollowOptions): AsyncIterable<RelayRead>;
  /**
   * The index of the last event the relay holds of a turn, or undefined when it holds none. A
   * session that takes over a turn whose process died (`recovery: 'continue'`) numbers the
   * continued turn's events after it, so readers go on with no id twice.
   */
  lastIndex(threadId: string, turnId: string): Promise<number | undefined>;
  /**
   * The id of the last event the relay holds of a turn, as it gives it to its readers (with the
   * epoch of a continued turn's numbering: `t1:r12.40`), or undefined when it holds none. A turn
   * closed after its process died is ended on the relay with the id after it, in its numbering
   * (`t1:r12.41`). Optional, for relays written before it: without it, that end gets a plain id.
   */
  lastEventId?(threadId: string, turnId: string): Promise<string | undefined>;
  /** The turn that runs on the thread (on any process), or undefined. */
  runningTurn(threadId: string): Promise<string | undefined>;
  /** Sends a control message to the process that runs the thread's turn and returns its answer. */
  control(threadId: string, message: ControlMessage): Promise<ControlAnswer>;
  /**
   * Serves the thread's control messages with `handler` (the running process calls it when its
   * turn starts). Returns the function that stops serving.
   */
  serveControl(threadId: string, handler: ControlHandler): () => void;
  /**
   * Drops everything the relay keeps of a thread: the events kept for replay and the thread's
   * metadata (on Redis its keys, on PostgreSQL its rows of the relay's table). Call it after
   * `store.eraseThread` or `store.deleteThread`, once no turn runs on the thread: the relay holds
   * its recent events in clear. A reader that resumes from an event id of before then gets a
   * `gap` (it reloads the thread from the store), and so does a reader that follows the thread
   * across it, before the next turn's events; the events of turns that start after it are
   * relayed as usual. It cancels no running turn (close the thread's session first): what such
   * a turn publishes after it may be dropped. Forgetting a thread the relay holds nothing of
   * does nothing.
   *
   * @param threadId - the thread
   * @throws {ChunklogError} `invalid-option` when `threadId` is not a valid id;
   *   `relay-unavailable` when the relay cannot be reached (call it again later)
   *
   * @example
   * ```ts
   * // assumes: store, relay
   * await store.eraseThread('thread-1');
   * await relay.forget('thread-1');
   * ```
   */
  forget(threadId: string): Promise<void>;
  /** Releases the relay's connections (the clients given to it are the caller's to close). */
  close(): Promise<void>;
}
