import { type Backoff, backoffDelay } from '../errors/backoff.js';
import type { ChunkEvent } from '../schema/chunk-event.js';
import type { ChunkWindow } from '../window/chunk-window.js';

/** The parts of an `EventSource` a connection uses (the browser's fits). */
export interface EventSourceLike {
  onmessage: ((message: MessageEvent) => unknown) | null;
  onopen: ((event: Event) => unknown) | null;
  onerror: ((event: Event) => unknown) | null;
  addEventListener(type: 'gap', listener: (event: MessageEvent) => void): void;
  readonly readyState: number;
  close(): void;
}

/** Where a connection to the event stream is: opening (or reconnecting), open, or closed by its caller. */
export type ConnectionStatus = 'connecting' | 'open' | 'closed';

/**
 * Options of {@link connectThreadEvents}.
 *
 * @example
 * ```ts
 * const options: ConnectThreadEventsOptions = { onEvent: (event) => console.log(event.type) };
 * ```
 */
export interface ConnectThreadEventsOptions {
  /** Opens the event stream. Default: `new EventSource(url, { withCredentials })`. */
  readonly createEventSource?: ((url: string) => EventSourceLike) | undefined;
  /** Send cookies to another origin with the default `EventSource`. */
  readonly withCredentials?: boolean | undefined;
  /**
   * Called with every event after the window applied it; not with one it ignored (an event of a
   * turn it holds as stored rows, as the server's replay of the latest turn is).
   */
  readonly onEvent?: ((event: ChunkEvent) => void) | undefined;
  /** Called when the connection opens, retries, or is closed. */
  readonly onStatus?: ((status: ConnectionStatus) => void) | undefined;
  /**
   * Called when an event cannot be applied (it is dropped; the window reconciles): once for a run
   * of such events, until an event is applied again.
   */
  readonly onError?: ((error: unknown) => void) | undefined;
}

/** The waits before a stream the browser gave up on is opened again. */
const REOPEN: Backoff = { initialMs: 1000, maxMs: 30_000, jitter: true };

/**
 * Feeds a window from a thread's server-sent events (chunklog's `GET …/events`): every event is
 * applied; the `turn-end` of a turn the window followed, or an `event: gap` (events the server no
 * longer has), reconciles the window with the store. An `EventSource` reconnects by itself and resumes after the last event
 * it saw (`Last-Event-ID`), so nothing is applied twice. A stream the browser gave up on (an
 * answer other than 200: a restarting server's 503, a proxy's 502, a 429) is opened again after
 * 1 s, 2 s, 4 s … at most 30 s, from the last event seen (`?lastEventId=`). An event the window
 * refuses (a newer server's) is dropped and reconciled once for a run of them. Opens the stream
 * at once: call it from an effect (never while rendering on a server).
 *
 * @param window - the window to feed
 * @param url - the event stream's URL (`createThreadClient(...).eventsUrl`)
 * @param options - how to open the stream, and callbacks
 * @returns a function that closes the stream
 *
 * @example
 * ```ts
 * useEffect(() => connectThreadEvents(chunkWindow, client.eventsUrl), [chunkWindow, client]);
 * ```
 */
export function connectThreadEvents(
  window: ChunkWindow,
  url: string,
  options: ConnectThreadEventsOptions = {},
): () => void {
  const open =
    options.createEventSource ??
    ((u: string) =>
      new EventSource(u, { withCredentials: options.withCredentials ?? false }) as EventSourceLike);
  let closed = false;
  let source: EventSourceLike | undefined;
  let lastEventId = '';
  let reopens = 0;
  let reopening: ReturnType<typeof setTimeout> | undefined;
  /** Whether an event was refused since one was last applied (reported and reconciled once). */
  let refusing = false;
  const status = (next: ConnectionStatus) => {
    if (!closed) options.onStatus?.(next);
  };
  const reconcile = () => {
    window.reconcile().catch((error: unknown) => options.onError?.(error));
  };
  const connect = () => {
    const from =
      lastEventId === ''
        ? url
        : `${url}${url.includes('?') ? '&' : '?'}lastEventId=${encodeURIComponent(lastEventId)}`;
    const current = open(from);
    source = current;
    const live = () => !closed && source === current;
    current.onopen = () => {
      if (!live()) return;
      reopens = 0;
      status('open');
    };
    current.onerror = () => {
      if (!live()) return;
      status('connecting');
      if (current.readyState !== 2) return; // the browser retries by itself
      // The browser gave up: open a new stream, from the last event seen.
      current.close();
      reopening = setTimeout(
        () => {
          reopening = undefined;
          if (!closed) connect();
        },
        backoffDelay(REOPEN, reopens++),
      );
    };
    current.onmessage = (message) => {
      if (!live()) return;
      if (typeof message.lastEventId === 'string' && message.lastEventId !== '') {
        lastEventId = message.lastEventId;
      }
      let event: ChunkEvent;
      let applied: boolean;
      try {
        event = JSON.parse(String(message.data)) as ChunkEvent;
        // Validated by the window (it crosses a trust boundary). With its id, the window folds a
        // turn another process continued after a crash on into the turn it follows.
        applied = window.apply(event, { id: String(message.lastEventId ?? '') });
      } catch (error) {
        if (refusing) return;
        refusing = true;
        options.onError?.(error);
        reconcile();
        return;
      }
      refusing = false;
      // An event the window ignored (a replay of a stored turn) has nothing to reconcile or report.
      if (!applied) return;
      if (event.type === 'turn-end') reconcile();
      options.onEvent?.(event);
    };
    current.addEventListener('gap', (message) => {
      if (!live()) return;
      if (typeof message.lastEventId === 'string' && message.lastEventId !== '') {
        lastEventId = message.lastEventId;
      }
      reconcile();
    });
  };
  connect();
  status('connecting');
  return () => {
    if (closed) return;
    options.onStatus?.('closed');
    closed = true;
    if (reopening !== undefined) clearTimeout(reopening);
    source?.close();
  };
}
