import type { AgentSession } from '../session/types.js';
import {
  type ToUIMessageStreamResponseOptions,
  toUIMessageStreamResponse,
} from '../ui-messages/index.js';
import { runningTurnEvents } from './live-turn-events.js';

/**
 * `GET …/threads/:id/stream`: the running turn in the AI SDK UI message stream protocol, from
 * its start, for a `useChat` client that resumes after a reload (`resume: true`, with the chat
 * transport's `prepareReconnectToStreamRequest` pointed here). 204 when no turn runs (what the
 * transport takes for "nothing to resume").
 *
 * @param session - the thread's session
 * @param options - how the stream is sent (`sendError`, `onError`, `keepAliveMs`, `headers`)
 * @returns 200 with the stream, or 204
 */
export function uiStreamRoute(
  session: AgentSession,
  options: ToUIMessageStreamResponseOptions,
): Response {
  const events = runningTurnEvents(session);
  if (events === undefined) return new Response(null, { status: 204 });
  return toUIMessageStreamResponse(events, options);
}
