import { parseEventId } from '../replay-buffer.js';
import { sessionEventStream } from '../sse.js';
import type { AgentSession } from '../types.js';
import { badParameter, errorResponse } from './responses.js';

/**
 * `GET …/threads/:id/events`: server-sent events of the thread's live turn. A reconnecting
 * client sends `Last-Event-ID` (an `EventSource` does so itself; `?lastEventId=` works too) and
 * gets exactly the events after it.
 *
 * @param request - the request (its abort signal ends the stream)
 * @param url - the request's URL
 * @param session - the thread's session
 * @param heartbeatMs - milliseconds between keep-alive comments
 * @returns the event stream (it ends when the session closes), a 400 naming `Last-Event-ID`, or
 *   503 `closed` when the session is already closed
 */
export function eventsRoute(
  request: Request,
  url: URL,
  session: AgentSession,
  heartbeatMs: number,
): Response {
  if (session.signal?.aborted === true) {
    // A closed session sends nothing more: a non-200 answer also stops an EventSource retrying.
    return errorResponse(503, 'closed', 'The session of this thread is closed.');
  }
  const lastEventId =
    request.headers.get('last-event-id') ?? url.searchParams.get('lastEventId') ?? undefined;
  if (lastEventId !== undefined && lastEventId !== '' && parseEventId(lastEventId) === undefined) {
    return badParameter('Last-Event-ID', 'The last event id must look like `<turnId>:<index>`.');
  }
  const body = sessionEventStream(session, {
    lastEventId: lastEventId === '' ? undefined : lastEventId,
    heartbeatMs,
    signal: request.signal,
  });
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
