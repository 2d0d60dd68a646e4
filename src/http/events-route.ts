import { parseEventId } from '../live/replay-buffer.js';
import type { AgentSession } from '../session/types.js';
import type { ThreadConnections } from './connection-limit.js';
import { badParameter, errorResponse } from './responses.js';
import { openEventStream } from './session-event-stream.js';

/** How the events route bounds what its clients cost. */
export interface EventStreamLimits {
  /** Milliseconds between keep-alive comments. */
  readonly heartbeatMs: number;
  /** The bytes of events one client may have waiting before it is dropped. */
  readonly maxQueuedBytes: number;
  /** The open streams of each thread. */
  readonly connections: ThreadConnections;
}

/** What an events stream starts from: the client's last event id, and its connection slot. */
export interface EventStreamOpening {
  /** The last event the client saw (`Last-Event-ID` or `?lastEventId=`), undefined for none. */
  readonly lastEventId: string | undefined;
  /** Gives the thread's connection slot back. */
  readonly release: () => void;
}

/**
 * Checks an events request before its stream opens: its `Last-Event-ID`, and the thread's
 * connection cap (the session's events route and the relay's share it).
 *
 * @returns the opening, or the 400 naming `Last-Event-ID` / the 429 `too-many-connections` answer
 */
export function openingOf(
  request: Request,
  url: URL,
  threadId: string,
  limits: EventStreamLimits,
): EventStreamOpening | Response {
  const lastEventId =
    request.headers.get('last-event-id') ?? url.searchParams.get('lastEventId') ?? undefined;
  if (lastEventId !== undefined && lastEventId !== '' && parseEventId(lastEventId) === undefined) {
    return badParameter('Last-Event-ID', 'The last event id must look like `<turnId>:<index>`.');
  }
  const release = limits.connections.acquire(threadId);
  if (release === undefined) {
    return errorResponse(
      429,
      'too-many-connections',
      'This thread has as many open event streams as the server allows.',
      { headers: { 'retry-after': '5' } },
    );
  }
  return { lastEventId: lastEventId === '' ? undefined : lastEventId, release };
}

/** The 200 answer that carries an event stream, with the headers proxies need to pass it on. */
export function eventStreamResponse(body: ReadableStream<Uint8Array>): Response {
  return new Response(body, {
    status: 200,
    headers: {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    },
  });
}

/**
 * `GET …/threads/:id/events`: server-sent events of the thread's live turn. A reconnecting
 * client sends `Last-Event-ID` (an `EventSource` does so itself; `?lastEventId=` works too) and
 * gets exactly the events after it.
 *
 * @param request - the request (its abort signal ends the stream)
 * @param url - the request's URL
 * @param session - the thread's session
 * @param threadId - the thread, for its connection count
 * @param limits - the heartbeat, the queue bound of a client and the connections of a thread
 * @returns the event stream (it ends when the session closes), a 400 naming `Last-Event-ID`,
 *   503 `closed` when the session is already closed, or 429 `too-many-connections` when the
 *   thread has as many open streams as it may
 */
export function eventsRoute(
  request: Request,
  url: URL,
  session: AgentSession,
  threadId: string,
  limits: EventStreamLimits,
): Response {
  if (session.signal?.aborted === true) {
    // A closed session sends nothing more: a non-200 answer also stops an EventSource retrying.
    return errorResponse(503, 'closed', 'The session of this thread is closed.');
  }
  const opening = openingOf(request, url, threadId, limits);
  if (opening instanceof Response) return opening;
  const { lastEventId, release } = opening;
  const body = openEventStream(
    session,
    {
      lastEventId,
      heartbeatMs: limits.heartbeatMs,
      maxQueuedBytes: limits.maxQueuedBytes,
      signal: request.signal,
    },
    release,
  );
  return eventStreamResponse(body);
}
