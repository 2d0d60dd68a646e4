import { invalidOption, readOptions } from '../errors/invalid-option.js';
import type { ChunkEvent } from '../schema/chunk-event.js';
import type { AgentSession, EventMeta } from './types.js';

const encoder = new TextEncoder();

/**
 * One server-sent event: `id:` (when given), `event:` (when not the default `message`) and the
 * JSON on one `data:` line (JSON text has no raw newline), then a blank line.
 *
 * @param data - the JSON payload
 * @param options - the event's id and type (one line each: no CR, LF or NUL)
 * @returns the event's text
 * @throws {ChunklogError} `invalid-option` when `data` has no JSON text, or the id or type would
 *   break the line it is written on (which would let it inject other fields)
 *
 * @example
 * ```ts
 * formatSse({ type: 'turn-end' }, { id: 't1:9' }); // 'id: t1:9\ndata: {"type":"turn-end"}\n\n'
 * ```
 */
export function formatSse(data: unknown, options: { id?: string; event?: string } = {}): string {
  const { id, event } = readOptions(options, 'formatSse', ['id', 'event']);
  let out = '';
  if (event !== undefined) out += `event: ${fieldValue('event', event)}\n`;
  if (id !== undefined) out += `id: ${fieldValue('id', id)}\n`;
  let json: string | undefined;
  try {
    json = JSON.stringify(data);
  } catch {
    json = undefined;
  }
  if (json === undefined) invalidOption('formatSse', 'data', '`data` must be JSON', data);
  return `${out}data: ${json}\n\n`;
}

/** One SSE field value: a string that stays on its line. */
function fieldValue(option: string, value: unknown): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: these are what it rejects
  if (typeof value !== 'string' || /[\r\n\u0000]/.test(value)) {
    invalidOption(
      'formatSse',
      option,
      `\`${option}\` must be a string without CR, LF or NUL`,
      value,
    );
  }
  return value;
}

/** Options of {@link sessionEventStream}, for example `{ lastEventId: 't1:41', heartbeatMs: 15_000 }`. */
export interface SessionEventStreamOptions {
  /** The id of the last event the client saw (`Last-Event-ID`), to resume after it. */
  readonly lastEventId?: string | null | undefined;
  /** Milliseconds between keep-alive comments; 0 for none. Default 15,000. */
  readonly heartbeatMs?: number | undefined;
  /** Closing the client's request ends the stream. */
  readonly signal?: AbortSignal | undefined;
  /**
   * A client this many events behind is disconnected (it reconnects and resumes from the replay
   * buffer) instead of growing the server's memory. Default 10,000.
   */
  readonly maxQueued?: number | undefined;
}

/**
 * A `text/event-stream` body of a session's live events. It starts with what the client missed
 * (`session.replay(lastEventId)`, taken in the same tick as the subscription, so nothing falls
 * between them), then every new event as it happens. Each event's id is `${turnId}:${index}`,
 * so a reconnecting `EventSource` resumes with no gap and no duplicate. When events the client
 * missed are gone, an `event: gap` comes first: reload the page from the store after the turn
 * seals.
 *
 * The stream ends when the client goes away (`signal`), when it falls `maxQueued` events behind,
 * and when the session closes (`session.signal`, after the last turn's `turn-end`), so that no
 * client is left on heartbeats of a session that will never send again.
 *
 * @param session - the session whose events to send
 * @param options - resume point, heartbeat, abort signal
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
  const heartbeatMs = options.heartbeatMs ?? 15_000;
  const maxQueued = options.maxQueued ?? 10_000;
  let cleanup = () => {};
  return new ReadableStream<Uint8Array>({
    start(controller) {
      let open = true;
      const close = () => {
        if (!open) return;
        open = false;
        cleanup();
        try {
          controller.close();
        } catch {
          // already closed or errored
        }
      };
      const write = (text: string) => {
        if (!open) return;
        controller.enqueue(encoder.encode(text));
        if ((controller.desiredSize ?? 0) < -maxQueued) close();
      };
      const send = (event: ChunkEvent, meta: EventMeta) => write(formatSse(event, { id: meta.id }));
      write(': chunklog events\nretry: 1000\n\n');
      const replay = session.replay(options.lastEventId);
      if (replay.gap)
        write(formatSse({ lastEventId: options.lastEventId ?? null }, { event: 'gap' }));
      for (const { event, meta } of replay.events) send(event, meta);
      const unsubscribe = session.subscribe(send);
      const timer =
        heartbeatMs > 0 ? setInterval(() => write(': ping\n\n'), heartbeatMs) : undefined;
      (timer as { unref?: () => void } | undefined)?.unref?.();
      const onAbort = () => close();
      const closed = sessionSignal(session);
      options.signal?.addEventListener('abort', onAbort, { once: true });
      closed?.addEventListener('abort', onAbort, { once: true });
      cleanup = () => {
        unsubscribe();
        if (timer !== undefined) clearInterval(timer);
        options.signal?.removeEventListener('abort', onAbort);
        closed?.removeEventListener('abort', onAbort);
      };
      if (options.signal?.aborted || closed?.aborted) close();
    },
    cancel() {
      cleanup();
    },
  });
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
  const o = readOptions(options, where, ['lastEventId', 'heartbeatMs', 'signal', 'maxQueued']);
  if (o.lastEventId != null && typeof o.lastEventId !== 'string') {
    invalidOption(where, 'lastEventId', '`lastEventId` must be a string', o.lastEventId);
  }
  for (const [option, min] of [
    ['heartbeatMs', 0],
    ['maxQueued', 1],
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

/**
 * Whether `value` looks like an `AbortSignal` (checked by shape, so that a polyfill's passes).
 *
 * @param value - anything
 * @returns true for an abort signal
 */
export function isAbortSignal(value: unknown): value is AbortSignal {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as AbortSignal).aborted === 'boolean' &&
    typeof (value as AbortSignal).addEventListener === 'function'
  );
}
