import { invalidOption, readOptions } from '../errors/invalid-option.js';
import { isAbortSignal } from '../live/abort-signal.js';
import type { EventMeta, Replay } from '../live/event-meta.js';
import { formatSse } from '../live/sse-format.js';
import type { ChunkEvent } from '../schema/chunk-event.js';
import type { AgentSession } from '../session/types.js';

const encoder = new TextEncoder();

/** Options of {@link sessionEventStream}, for example `{ lastEventId: 't1:41', heartbeatMs: 15_000 }`. */
export interface SessionEventStreamOptions {
  /** The id of the last event the client saw (`Last-Event-ID`), to resume after it. */
  readonly lastEventId?: string | null | undefined;
  /** Milliseconds between keep-alive comments; 0 for none. Default 15,000. */
  readonly heartbeatMs?: number | undefined;
  /** Closing the client's request ends the stream. */
  readonly signal?: AbortSignal | undefined;
  /**
   * A client this many events behind is dropped (it reconnects and resumes from the replay
   * buffer) instead of growing the server's memory. Default 10,000.
   */
  readonly maxQueued?: number | undefined;
  /**
   * A client with this many bytes of events waiting for it is dropped, as for `maxQueued`: the
   * bound of what one stalled client costs the server. Default 1 MiB.
   */
  readonly maxQueuedBytes?: number | undefined;
}

/** The default of {@link SessionEventStreamOptions.maxQueuedBytes}: 1 MiB. */
export const DEFAULT_MAX_QUEUED_BYTES = 1_048_576;

/** Replay events formatted per read, so a long replay is not held twice (events and bytes). */
const REPLAY_BATCH = 64;

/**
 * A `text/event-stream` body of a session's live events. It starts with what the client missed
 * (`session.replay(lastEventId)`, taken in the same tick as the subscription, so nothing falls
 * between them), then every new event as it happens. Each event's id is `${turnId}:${index}`,
 * so a reconnecting `EventSource` resumes with no gap and no duplicate. When events the client
 * missed are gone, an `event: gap` comes first: reload the page from the store after the turn
 * seals.
 *
 * Events wait for the client in a queue of the stream's own, bounded by `maxQueued` events and
 * `maxQueuedBytes` bytes: a client that stops reading is dropped when it reaches either bound —
 * the queue is freed and the stream ends with `event: dropped` (`data: {"reason":"slow-client"}`),
 * after which an `EventSource` reconnects and resumes from its last event id. The stream also
 * ends when the client goes away (`signal`) and when the session closes (`session.signal`, after
 * the last turn's `turn-end`), so that no client is left on heartbeats of a session that will
 * never send again.
 *
 * @param session - the session whose events to send
 * @param options - resume point, heartbeat, abort signal, queue bounds
 * @returns the stream of UTF-8 bytes
 * @throws {ChunklogError} `invalid-option` when `session` is not a session or an option is
 *   malformed
 *
 * @example
 * ```ts
 * return new Response(sessionEventStream(session, { lastEventId: request.headers.get('last-event-id') }), {
 *   headers: { 'content-type': 'text/event-stream' },
 * });
 * ```
 */
export function sessionEventStream(
  session: AgentSession,
  options: SessionEventStreamOptions = {},
): ReadableStream<Uint8Array> {
  checkStreamArguments(session, options);
  return openEventStream(session, options, undefined);
}

/**
 * {@link sessionEventStream} after its checks, calling `onEnd` once when the stream ends for any
 * reason (the handlers count a thread's connections with it).
 */
export function openEventStream(
  session: AgentSession,
  options: SessionEventStreamOptions,
  onEnd: (() => void) | undefined,
): ReadableStream<Uint8Array> {
  const heartbeatMs = options.heartbeatMs ?? 15_000;
  const maxQueued = options.maxQueued ?? 10_000;
  const maxQueuedBytes = options.maxQueuedBytes ?? DEFAULT_MAX_QUEUED_BYTES;
  let queue: Uint8Array[] = [];
  let queuedBytes = 0;
  let replay: Replay['events'] = [];
  let replayAt = 0;
  let open = true;
  let waiting: (() => void) | undefined;
  let cleanup = () => {};
  let control: ReadableStreamDefaultController<Uint8Array> | undefined;
  const wake = () => {
    const resolve = waiting;
    waiting = undefined;
    resolve?.();
  };
  /** Ends the stream: frees the queue, sends `last` (if any) and closes. */
  const finish = (last?: string) => {
    if (!open) return;
    open = false;
    cleanup();
    queue = [];
    queuedBytes = 0;
    replay = [];
    try {
      if (last !== undefined) control?.enqueue(encoder.encode(last));
      control?.close();
    } catch {
      // already closed or cancelled
    }
    wake();
    onEnd?.();
  };
  const push = (text: string) => {
    if (!open) return;
    const bytes = encoder.encode(text);
    queue.push(bytes);
    queuedBytes += bytes.byteLength;
    if (queue.length > maxQueued || queuedBytes > maxQueuedBytes) {
      finish(formatSse({ reason: 'slow-client' }, { event: 'dropped' }));
      return;
    }
    wake();
  };
  const send = (event: ChunkEvent, meta: EventMeta) => push(formatSse(event, { id: meta.id }));
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        control = controller;
        let head = ': chunklog events\nretry: 1000\n\n';
        const missed = session.replay(options.lastEventId);
        if (missed.gap) {
          head += formatSse({ lastEventId: options.lastEventId ?? null }, { event: 'gap' });
        }
        controller.enqueue(encoder.encode(head));
        replay = missed.events;
        const unsubscribe = session.subscribe(send);
        const timer =
          heartbeatMs > 0
            ? setInterval(() => {
                // A client with events waiting needs no keep-alive (and a stalled one no more bytes).
                if (queue.length === 0) push(': ping\n\n');
              }, heartbeatMs)
            : undefined;
        (timer as { unref?: () => void } | undefined)?.unref?.();
        const onAbort = () => finish();
        options.signal?.addEventListener('abort', onAbort, { once: true });
        const closed = sessionSignal(session);
        const stopWatching = closed === undefined ? () => {} : onAbortOf(closed, onAbort);
        cleanup = () => {
          unsubscribe();
          if (timer !== undefined) clearInterval(timer);
          options.signal?.removeEventListener('abort', onAbort);
          stopWatching();
        };
        if (options.signal?.aborted || closed?.aborted) finish();
      },
      async pull(controller) {
        while (open && replayAt >= replay.length && queue.length === 0) {
          await new Promise<void>((resolve) => {
            waiting = resolve;
          });
        }
        if (!open) return;
        if (replayAt < replay.length) {
          let text = '';
          const end = Math.min(replay.length, replayAt + REPLAY_BATCH);
          for (; replayAt < end; replayAt++) {
            const entry = replay[replayAt];
            if (entry !== undefined) text += formatSse(entry.event, { id: entry.meta.id });
          }
          controller.enqueue(encoder.encode(text));
          return;
        }
        const chunk = queue.length === 1 ? (queue[0] as Uint8Array) : concat(queue, queuedBytes);
        queue = [];
        queuedBytes = 0;
        controller.enqueue(chunk);
      },
      cancel() {
        finish();
      },
    },
    // Nothing waits inside the stream: events wait in the bounded queue above until read.
    { highWaterMark: 0 },
  );
}

function concat(chunks: readonly Uint8Array[], size: number): Uint8Array {
  const out = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.byteLength;
  }
  return out;
}

/**
 * The close callbacks of every stream of one signal (a session's `signal`, shared by all its
 * clients), behind a single `abort` listener: one listener per client would pass Node's limit
 * of ten and print a (spurious) `MaxListenersExceededWarning` from the eleventh client on.
 */
const abortCallbacks = new WeakMap<AbortSignal, Set<() => void>>();

/**
 * Calls `callback` when `signal` aborts, through the signal's one shared listener.
 *
 * @returns the function that forgets the callback
 */
function onAbortOf(signal: AbortSignal, callback: () => void): () => void {
  let callbacks = abortCallbacks.get(signal);
  if (callbacks === undefined) {
    const set = new Set<() => void>();
    callbacks = set;
    abortCallbacks.set(signal, set);
    signal.addEventListener(
      'abort',
      () => {
        for (const run of [...set]) run();
        set.clear();
      },
      { once: true },
    );
  }
  const set = callbacks;
  set.add(callback);
  return () => {
    set.delete(callback);
  };
}

/** The session's close signal; a session-like object without one never closes the stream. */
function sessionSignal(session: AgentSession): AbortSignal | undefined {
  const signal: unknown = (session as Partial<AgentSession>).signal;
  return isAbortSignal(signal) ? signal : undefined;
}

function checkStreamArguments(session: unknown, options: unknown): void {
  const where = 'sessionEventStream';
  const s = session as Partial<AgentSession> | null;
  if (
    typeof s !== 'object' ||
    s === null ||
    typeof s.replay !== 'function' ||
    typeof s.subscribe !== 'function'
  ) {
    invalidOption(where, 'session', '`session` must be an AgentSession', session);
  }
  const o = readOptions(options, where, [
    'lastEventId',
    'heartbeatMs',
    'signal',
    'maxQueued',
    'maxQueuedBytes',
  ]);
  if (o.lastEventId != null && typeof o.lastEventId !== 'string') {
    invalidOption(where, 'lastEventId', '`lastEventId` must be a string', o.lastEventId);
  }
  for (const [option, min] of [
    ['heartbeatMs', 0],
    ['maxQueued', 1],
    ['maxQueuedBytes', 1],
  ] as const) {
    const value = o[option];
    if (value !== undefined && !(Number.isSafeInteger(value) && (value as number) >= min)) {
      invalidOption(where, option, `\`${option}\` must be an integer of at least ${min}`, value);
    }
  }
  if (o.signal !== undefined && !isAbortSignal(o.signal)) {
    invalidOption(where, 'signal', '`signal` must be an AbortSignal', o.signal);
  }
}
