import type { Relay } from '../live/relay.js';
import type { ChunkEvent } from '../schema/chunk-event.js';
import {
  type ToUIMessageStreamResponseOptions,
  toUIMessageStreamResponse,
} from '../ui-messages/index.js';
import { type EventStreamLimits, eventStreamResponse, openingOf } from './events-route.js';
import { relayEventStream } from './relay-event-stream.js';
import { relayUnavailable } from './remote-control.js';

/**
 * `GET …/threads/:id/events` read from a relay: the thread's events on any process, resumable
 * with `Last-Event-ID` (or `?lastEventId=`) with nothing missed and nothing twice.
 *
 * @returns the event stream, a 400 naming `Last-Event-ID`, or 429 `too-many-connections`
 */
export function relayEventsRoute(
  request: Request,
  url: URL,
  relay: Relay,
  threadId: string,
  limits: EventStreamLimits,
): Response {
  const opening = openingOf(request, url, threadId, limits);
  if (opening instanceof Response) return opening;
  const { lastEventId, release } = opening;
  const body = relayEventStream(
    relay,
    threadId,
    {
      lastEventId,
      heartbeatMs: limits.heartbeatMs,
      signal: request.signal,
    },
    release,
  );
  return eventStreamResponse(body);
}

/**
 * The running turn's events read from a relay, from its `turn-start` to its `turn-end`, or
 * undefined when no turn runs (or its start is no longer kept).
 *
 * @param relay - the relay
 * @param threadId - the thread
 * @param signal - ends the reading
 * @returns the turn's events, or undefined
 */
export async function relayTurnEvents(
  relay: Relay,
  threadId: string,
  signal: AbortSignal | undefined,
): Promise<AsyncIterable<ChunkEvent> | undefined> {
  const turnId = await relay.runningTurn(threadId);
  if (turnId === undefined) return undefined;
  const stop = new AbortController();
  const both = signal === undefined ? stop.signal : AbortSignal.any([signal, stop.signal]);
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
 * `GET …/threads/:id/stream` (the AI SDK's `useChat({ resume: true })`) read from a relay: 204
 * when no turn runs on any process, otherwise the running turn's UI message stream from its
 * start.
 *
 * @returns the stream, 204, or 503 `relay-unavailable`
 */
export async function relayUiStreamRoute(
  request: Request,
  relay: Relay,
  threadId: string,
  options: ToUIMessageStreamResponseOptions,
): Promise<Response> {
  let events: AsyncIterable<ChunkEvent> | undefined;
  try {
    events = await relayTurnEvents(relay, threadId, request.signal);
  } catch (error) {
    return relayUnavailable(error);
  }
  if (events === undefined) return new Response(null, { status: 204 });
  return toUIMessageStreamResponse(events, options);
}
