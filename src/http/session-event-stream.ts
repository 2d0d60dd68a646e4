import { invalidOption, readOptions } from '../errors/invalid-option.js';
import { isAbortSignal } from '../live/abort-signal.js';
import type { AgentSession } from '../session/types.js';
import { relayEventStream } from './relay-event-stream.js';

/** Options of {@link sessionEventStream}, for example `{ lastEventId: 't1:41', heartbeatMs: 15_000 }`. */
export interface SessionEventStreamOptions {
  /** The id of the last event the client saw (`Last-Event-ID`), to resume after it. */
  readonly lastEventId?: string | null | undefined;
  /** Milliseconds between keep-alive comments; 0 for none. Default 15,000. */
  readonly heartbeatMs?: number | undefined;
  /** Closing the client's request ends the stream. */
  readonly signal?: AbortSignal | undefined;
  /** Accepted for compatibility: a client reads the relay at its own pace and holds no queue. */
  readonly maxQueued?: number | undefined;
  /** Accepted for compatibility: a client reads the relay at its own pace and holds no queue. */
  readonly maxQueuedBytes?: number | undefined;
}

/**
 * A `text/event-stream` body of a session's events, read from the session's relay (the same path
 * as the handlers' `GET …/events`): what the client missed (after `lastEventId`), then every new
 * event as it happens. Each event's id is `${turnId}:${index}`, so a reconnecting `EventSource`
 * resumes with no gap and no duplicate. When events the client missed are gone, an `event: gap`
 * comes: reload the page from the store.
 *
 * The client reads the relay at its own pace and holds no queue of its own, so a client that
 * stops reading costs the server nothing more (it falls behind, and gets `event: gap` once what
 * it missed is no longer kept). The stream ends when the client goes away (`signal`) and when the
 * session closes (`session.signal`, after the last turn's `turn-end`).
 *
 * @param session - the session whose events to send
 * @param options - resume point, heartbeat, abort signal (`maxQueued` and `maxQueuedBytes` are
 *   accepted for compatibility: no queue is kept)
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
  return relayEventStream(
    session.relay,
    session.threadId,
    {
      lastEventId: options.lastEventId ?? undefined,
      heartbeatMs: options.heartbeatMs ?? 15_000,
      signal: options.signal,
      until: session.signal,
    },
    () => {},
  );
}

function checkStreamArguments(session: unknown, options: unknown): void {
  const where = 'sessionEventStream';
  const s = session as Partial<AgentSession> | null;
  if (
    typeof s !== 'object' ||
    s === null ||
    typeof s.relay !== 'object' ||
    s.relay === null ||
    !isAbortSignal(s.signal)
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
