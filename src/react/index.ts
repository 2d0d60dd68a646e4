/**
 * chunklog/react: React hooks over a `ChunkWindow` and chunklog's HTTP handlers. React (18
 * or 19) is an optional peer dependency; nothing here touches a browser global at import or
 * while rendering, so the hooks render on a server too.
 *
 * @packageDocumentation
 */
export {
  type ConnectionStatus,
  type ConnectThreadEventsOptions,
  connectThreadEvents,
  type EventSourceLike,
} from './connect-events.js';
export { type LiveTurn, liveTurnOf } from './live-turn.js';
export {
  type ClientNoticeKind,
  createThreadClient,
  type SentMessage,
  type ThreadClient,
  type ThreadClientOptions,
} from './thread-client.js';
export {
  type ChunkThread,
  type EndedTurn,
  type UseChunkThreadOptions,
  useChunkThread,
} from './use-chunk-thread.js';
export { useChunkWindow } from './use-chunk-window.js';
export { useLiveTurn } from './use-live-turn.js';
export { type OlderPages, useOlderPages } from './use-older-pages.js';
