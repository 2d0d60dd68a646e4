// The HTTP layer's exports: web-standard `Request → Response` handlers for a thread's pages,
// live events and messages, the Node listener, and server-sent event streams.
export { createChunkHandlers } from './create-chunk-handlers.js';
export {
  type NodeRequestLike,
  type NodeResponseLike,
  toNodeListener,
} from './node-listener.js';
export type { HandlerErrorBody, HandlerErrorCode } from './responses.js';
export { type SessionEventStreamOptions, sessionEventStream } from './session-event-stream.js';
export type {
  Authorize,
  AuthorizeResult,
  ChunkHandlers,
  ChunkHandlersOptions,
  ChunkPageLike,
  PageStore,
  SessionLookup,
  UIMessageStreamRouteOptions,
} from './types.js';
