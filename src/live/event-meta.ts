import type { ChunkEvent } from '../schema/chunk-event.js';

/**
 * The wire identity of an event: `id` is `${turnId}:${index}` (for example `t1:0`), or for an
 * event of a turn continued after a crash `${turnId}:r${epoch}.${index}` (`t1:r12.0`, see
 * `formatEventId`); unique in the thread.
 */
export interface EventMeta {
  /** The SSE event id. */
  readonly id: string;
  readonly turnId: string;
  /** The event's position in its turn, from 0 (`turn-start`). */
  readonly index: number;
}

/**
 * A subscriber of a session's events.
 *
 * @example
 * ```ts
 * const stop = session.subscribe((event, { id }) => socket.send(JSON.stringify({ id, event })));
 * ```
 */
export type SessionListener = (event: ChunkEvent, meta: EventMeta) => void;

/**
 * The events to send a client that (re)connects, from `AgentSession.replay` (or a replay buffer).
 *
 * @example
 * ```ts
 * const { events, gap } = session.replay(request.headers.get('last-event-id'));
 * ```
 */
export interface Replay {
  /** Events the client has not seen, with their ids, in order. */
  readonly events: ReadonlyArray<{ readonly event: ChunkEvent; readonly meta: EventMeta }>;
  /**
   * True when events the client missed are no longer available (an older turn, or the oldest
   * events of a very long turn): it should reload from the store once the turn seals.
   */
  readonly gap: boolean;
}
