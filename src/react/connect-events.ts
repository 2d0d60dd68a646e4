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

/** Where a connection to the event stream is: opening (or reconnecting), open, or closed for good. */
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
  /** Called with every event after the window applied it. */
  readonly onEvent?: ((event: ChunkEvent) => void) | undefined;
  /** Called when the connection opens, retries, or closes for good. */
  readonly onStatus?: ((status: ConnectionStatus) => void) | undefined;
  /** Called when an event cannot be applied (it is dropped; the window reconciles). */
  readonly onError?: ((error: unknown) => void) | undefined;
}

/**
 * Feeds a window from a thread's server-sent events (chunklog's `GET …/events`): every event is
 * applied; a `turn-end`, or an `event: gap` (events the server no longer has), reconciles the
 * window with the store. An `EventSource` reconnects by itself and resumes after the last event
 * it saw (`Last-Event-ID`), so nothing is applied twice. Opens the stream at once: call it from
 * an effect (never while rendering on a server).
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
  const source = open(url);
  let closed = false;
  const status = (next: ConnectionStatus) => {
    if (!closed) options.onStatus?.(next);
  };
  const reconcile = () => {
    window.reconcile().catch((error: unknown) => options.onError?.(error));
  };
  source.onopen = () => status('open');
  source.onerror = () => status(source.readyState === 2 ? 'closed' : 'connecting');
  source.onmessage = (message) => {
    if (closed) return;
    let event: ChunkEvent;
    try {
      event = JSON.parse(String(message.data)) as ChunkEvent;
      window.apply(event); // validates it: it crosses a trust boundary
    } catch (error) {
      options.onError?.(error);
      reconcile();
      return;
    }
    if (event.type === 'turn-end') reconcile();
    options.onEvent?.(event);
  };
  source.addEventListener('gap', () => {
    if (!closed) reconcile();
  });
  status('connecting');
  return () => {
    if (closed) return;
    options.onStatus?.('closed');
    closed = true;
    source.close();
  };
}
