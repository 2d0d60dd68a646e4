import type { Relay } from '../live/relay.js';
import { parseEventId } from '../live/replay-buffer.js';
import type { ChunkEvent } from '../schema/chunk-event.js';
import type { ThreadConnections } from './connection-limit.js';
import { relayUnavailable } from './control.js';
import { relayEventStream } from './relay-event-stream.js';
import { badParameter, errorResponse } from './responses.js';
import type { SharedTurnStreams } from './shared-turn-streams.js';

/** How the live routes bound what their clients cost. */
export interface EventStreamLimits {
  /** Milliseconds between keep-alive comments. */
  readonly heartbeatMs: number;
  /** The open live streams (`…/events` and `…/stream`) of each thread. */
  readonly connections: ThreadConnections;
}

/** The 429 answer of a thread that has as many open live streams as the server allows. */
function tooManyConnections(): Response {
  return errorResponse(
    429,
    'too-many-connections',
    'This thread has as many open event streams as the server allows.',
    { headers: { 'retry-after': '5' } },
  );
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
 * `GET …/threads/:id/events`: server-sent events of the thread's turns, read from the relay the
 * thread's session publishes to (on this process or any other), resumable with `Last-Event-ID`
 * (or `?lastEventId=`) with nothing missed and nothing twice. A client reads at its own pace: a
 * slow one reads the relay later (it holds no queue of its own), and one that falls behind what
 * the relay keeps gets `event: gap` and reloads from the store.
 *
 * @param request - the request (its abort signal ends the stream)
 * @param url - the request's URL
 * @param relay - the relay
 * @param threadId - the thread
 * @param limits - the heartbeat and the connections of a thread
 * @param closed - the local session's close signal, when the session is on this process
 * @returns the stream, a 400 naming `Last-Event-ID`, 503 `closed`, or 429 `too-many-connections`
 */
export function eventsRoute(
  request: Request,
  url: URL,
  relay: Relay,
  threadId: string,
  limits: EventStreamLimits,
  closed: AbortSignal | undefined,
): Response {
  if (closed?.aborted === true) {
    // A closed session sends nothing more: a non-200 answer also stops an EventSource retrying.
    return errorResponse(503, 'closed', 'The session of this thread is closed.');
  }
  if (url.searchParams.getAll('lastEventId').length > 1) {
    return badParameter('Last-Event-ID', '`lastEventId` must be given once.');
  }
  const raw = request.headers.get('last-event-id') ?? url.searchParams.get('lastEventId') ?? '';
  if (raw !== '' && parseEventId(raw) === undefined) {
    return badParameter('Last-Event-ID', 'The last event id must look like `<turnId>:<index>`.');
  }
  const release = limits.connections.acquire(threadId);
  if (release === undefined) return tooManyConnections();
  const body = relayEventStream(
    relay,
    threadId,
    {
      lastEventId: raw === '' ? undefined : raw,
      heartbeatMs: limits.heartbeatMs,
      signal: request.signal,
      until: closed,
    },
    release,
  );
  return eventStreamResponse(body);
}

/**
 * The events of the turn `turnId` read from a relay, from its `turn-start` to its `turn-end`, or
 * undefined when its start is no longer kept.
 *
 * @param relay - the relay
 * @param threadId - the thread
 * @param turnId - the running turn
 * @param signal - ends the reading
 * @returns the turn's events, or undefined
 */
async function turnEvents(
  relay: Relay,
  threadId: string,
  turnId: string,
  signal: AbortSignal,
): Promise<AsyncIterable<ChunkEvent> | undefined> {
  const stop = new AbortController();
  const both = AbortSignal.any([signal, stop.signal]);
  const reads = relay.follow(threadId, { signal: both })[Symbol.asyncIterator]();
  // The turns not stored yet start with the running one (or end with it): find its start.
  let first: ChunkEvent | undefined;
  for (;;) {
    const read = await reads.next();
    if (read.done === true || read.value.type === 'gap') break;
    if (read.value.meta.turnId === turnId) {
      first = read.value.event;
      break;
    }
  }
  if (first?.type !== 'turn-start') {
    stop.abort();
    await reads.return?.(undefined);
    return undefined;
  }
  const start = first;
  return {
    async *[Symbol.asyncIterator]() {
      try {
        yield start;
        for (;;) {
          const read = await reads.next();
          if (read.done === true || read.value.type === 'gap') return;
          if (read.value.meta.turnId !== turnId) return;
          yield read.value.event;
          if (read.value.event.type === 'turn-end') return;
        }
      } finally {
        stop.abort();
        await reads.return?.(undefined);
      }
    },
  };
}

/**
 * `GET …/threads/:id/stream` (the AI SDK's `useChat({ resume: true })`): 204 when no turn runs
 * on any process, otherwise the running turn's UI message stream from its start. It counts
 * against the thread's live streams like `…/events`. The clients of one turn on this process
 * share one reader of the relay and one encoding of the stream ({@link SharedTurnStreams}).
 *
 * @returns the stream, 204, 429 `too-many-connections`, or 503 `relay-unavailable`
 */
export async function streamRoute(
  request: Request,
  relay: Relay,
  threadId: string,
  shared: SharedTurnStreams,
  limits: EventStreamLimits,
  closed: AbortSignal | undefined,
): Promise<Response> {
  const release = limits.connections.acquire(threadId);
  if (release === undefined) return tooManyConnections();
  let body: ReadableStream<Uint8Array> | undefined;
  try {
    const turnId = await relay.runningTurn(threadId);
    body =
      turnId === undefined
        ? undefined
        : await shared.open(
            threadId,
            turnId,
            (signal) =>
              turnEvents(
                relay,
                threadId,
                turnId,
                closed === undefined ? signal : AbortSignal.any([signal, closed]),
              ),
            { signal: request.signal, release },
          );
  } catch (error) {
    release();
    return relayUnavailable(error);
  }
  if (body === undefined) {
    release();
    return new Response(null, { status: 204 });
  }
  return shared.response(body);
}
