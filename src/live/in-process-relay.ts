import { ChunklogError } from '../errors/index.js';
import { readOptions } from '../errors/invalid-option.js';
import type { ChunkEvent } from '../schema/chunk-event.js';
import { checkThreadId } from '../schema/id.js';
import { EventHub } from './event-hub.js';
import type { EventMeta, Replay, SessionListener } from './event-meta.js';
import type * as live from './relay.js';
import { joinAnswers } from './relay.js';
import { ReplayBuffer } from './replay-buffer.js';
import { Wake } from './wake.js';

/** Options of {@link createInProcessRelay}, for example `{ replayLimit: 20_000 }`. */
export interface InProcessRelayOptions {
  /** How many events of one turn are kept for readers that resume. Default 10,000. */
  readonly replayLimit?: number | undefined;
  /** Told about an error a {@link InProcessRelay.subscribe} listener threw. Default: ignored. */
  readonly onListenerError?: ((error: unknown, meta: EventMeta) => void) | undefined;
}

/**
 * The relay of a single process: a {@link Relay}, and the thread's events at once, synchronously,
 * for readers in this process ({@link InProcessRelay.subscribe}, {@link InProcessRelay.replay}).
 * A session's own listeners and replay are served by one.
 *
 * @example
 * ```ts
 * // assumes: relay
 * const stop = (relay as InProcessRelay).subscribe('thread-1', (event, meta) => send(meta.id, event));
 * ```
 */
export interface InProcessRelay extends live.Relay {
  /** Calls `listener` with each event published on the thread from now on; returns the unsubscribe function. */
  subscribe(threadId: string, listener: SessionListener): () => void;
  /** The thread's events a reader that saw `lastEventId` (or nothing) still needs, kept here. */
  replay(threadId: string, lastEventId?: string | null): Replay;
}

/** One thread's live state: its replay buffer and event hub. */
class ThreadChannel {
  /** Replaced by a new one when the thread is forgotten (readers read it afresh each time). */
  buffer: ReplayBuffer;
  readonly hub: EventHub;
  running: string | undefined;
  /** The sessions serving the thread's control (two when one waits for the lease meanwhile). */
  readonly control = new Set<live.ControlHandler>();

  constructor(limit: number, onListenerError: (error: unknown, meta: EventMeta) => void) {
    this.buffer = new ReplayBuffer(limit);
    this.hub = new EventHub(onListenerError);
  }
}

class InProcessRelayImpl implements InProcessRelay {
  readonly #threads = new Map<string, ThreadChannel>();
  readonly #limit: number;
  readonly #onListenerError: (error: unknown, meta: EventMeta) => void;

  constructor(limit: number, onListenerError: (error: unknown, meta: EventMeta) => void) {
    this.#limit = limit;
    this.#onListenerError = onListenerError;
  }

  #thread(threadId: string): ThreadChannel {
    let thread = this.#threads.get(threadId);
    if (thread === undefined) {
      thread = new ThreadChannel(this.#limit, this.#onListenerError);
      this.#threads.set(threadId, thread);
    }
    return thread;
  }

  subscribe(threadId: string, listener: SessionListener): () => void {
    return this.#thread(threadId).hub.subscribe(listener);
  }

  replay(threadId: string, lastEventId?: string | null): Replay {
    return this.#thread(threadId).buffer.since(lastEventId);
  }

  publish(threadId: string, event: ChunkEvent, meta: EventMeta): void {
    const thread = this.#thread(threadId);
    if (event.type === 'turn-start') {
      // A turn taken over after a crash starts again after the events kept of it.
      if (meta.index === 0 || thread.buffer.lastIndex(meta.turnId) === undefined)
        thread.buffer.begin(meta.turnId, meta.index);
      thread.running = meta.turnId;
    }
    thread.buffer.push(event, meta);
    if (event.type === 'turn-end') {
      // A published `turn-end` means the turn is stored.
      thread.buffer.sealed(meta.turnId);
      if (thread.running === meta.turnId) thread.running = undefined;
    }
    thread.hub.publish(event, meta);
  }

  async *follow(
    threadId: string,
    options: live.RelayFollowOptions = {},
  ): AsyncGenerator<live.RelayRead> {
    const thread = this.#thread(threadId);
    const wake = new Wake();
    let cursor =
      options.lastEventId == null || options.lastEventId === '' ? undefined : options.lastEventId;
    // Without an id, the first live event tells where the reader stands once it was sealed.
    let first: { event: ChunkEvent; meta: EventMeta } | undefined;
    const unsubscribe = thread.hub.subscribe((event, meta) => {
      if (cursor === undefined && first === undefined) first = { event, meta };
      wake.notify();
    });
    /** The buffer read last: another one means the thread was forgotten meanwhile. */
    let buffer = thread.buffer;
    try {
      for (;;) {
        // Aborted: one last pass gives what is kept by now (a session that closes aborts its
        // readers after its last event), then the iteration ends.
        const stopping = options.signal?.aborted === true;
        if (thread.buffer !== buffer) {
          // Forgotten: what the reader got is gone (a gap); all the buffer holds came after.
          buffer = thread.buffer;
          if (cursor !== undefined) {
            cursor = undefined;
            yield { type: 'gap' };
          }
        }
        // Without an id: from the latest turn kept, even stored (a reader that comes just as it
        // is stored still gets it).
        const replay = cursor === undefined ? thread.buffer.latest() : thread.buffer.since(cursor);
        let events = replay.events;
        if (replay.gap && events.length === 0 && cursor !== undefined) {
          // An id the buffer does not know (or no longer: the thread was forgotten): the reader
          // reloads the store and goes on after what the buffer holds now.
          cursor = thread.buffer.latest().events.at(-1)?.meta.id;
        }
        if (replay.gap) yield { type: 'gap' };
        if (events.length === 0 && cursor === undefined && first !== undefined) events = [first];
        for (const { event, meta } of events) {
          cursor = meta.id;
          yield { type: 'event', event, meta };
        }
        if (stopping) return;
        if (events.length === 0) await wake.wait(options.signal);
      }
    } finally {
      unsubscribe();
    }
  }

  async lastIndex(threadId: string, turnId: string): Promise<number | undefined> {
    return this.#threads.get(threadId)?.buffer.lastIndex(turnId);
  }

  async lastEventId(threadId: string, turnId: string): Promise<string | undefined> {
    return this.#threads.get(threadId)?.buffer.lastEventId(turnId);
  }

  async runningTurn(threadId: string): Promise<string | undefined> {
    return this.#threads.get(threadId)?.running;
  }

  async control(threadId: string, message: live.ControlMessage): Promise<live.ControlAnswer> {
    const handlers = [...(this.#threads.get(threadId)?.control ?? [])];
    // Each serving session is asked, as a cross-process relay asks every process: the one that
    // runs the turn answers, the others say `not-running`.
    const answers = await Promise.all(handlers.map((handler) => handler(message)));
    return joinAnswers(answers);
  }

  serveControl(threadId: string, handler: live.ControlHandler): () => void {
    const thread = this.#thread(threadId);
    thread.control.add(handler);
    return () => {
      thread.control.delete(handler);
    };
  }

  async forget(threadId: string): Promise<void> {
    checkThreadId(threadId, 'threadId', 'relay.forget');
    const thread = this.#threads.get(threadId);
    if (thread === undefined) return;
    // The running turn and its control stay (forget cancels nothing); its readers and those that
    // come later find no event of before, and a reader's id of before is a gap.
    thread.buffer = new ReplayBuffer(this.#limit);
    if (thread.hub.size === 0 && thread.running === undefined && thread.control.size === 0)
      this.#threads.delete(threadId);
  }

  async close(): Promise<void> {
    this.#threads.clear();
  }
}

/** Every option of {@link createInProcessRelay}: any other key is refused. */
const IN_PROCESS_RELAY_OPTIONS: readonly (keyof InProcessRelayOptions)[] = [
  'replayLimit',
  'onListenerError',
];

/**
 * The relay of a single process: each thread's events in a replay buffer and fanned out to the
 * readers of this process; control messages go straight to the serving session. It is what a
 * session does on its own, shared by the sessions and handlers of one process.
 *
 * @param options - how many events of a turn are kept
 * @returns the relay
 *
 * @example
 * ```ts
 * import { createInProcessRelay } from 'chunklog/relay';
 *
 * const relay = createInProcessRelay();
 * ```
 */
export function createInProcessRelay(options: InProcessRelayOptions = {}): InProcessRelay {
  readOptions(options, 'createInProcessRelay', IN_PROCESS_RELAY_OPTIONS);
  const limit = options.replayLimit ?? 10_000;
  if (!Number.isSafeInteger(limit) || limit < 1) {
    throw new ChunklogError(
      'invalid-option',
      'createInProcessRelay: `replayLimit` must be an integer ≥ 1',
      {
        option: 'replayLimit',
        value: limit,
      },
    );
  }
  const onListenerError = options.onListenerError ?? (() => {});
  if (typeof onListenerError !== 'function') {
    throw new ChunklogError(
      'invalid-option',
      'createInProcessRelay: `onListenerError` must be a function',
      { option: 'onListenerError', value: onListenerError },
    );
  }
  return new InProcessRelayImpl(limit, onListenerError);
}
