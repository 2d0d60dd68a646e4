/**
 * chunklog/session: the headless agent runner (model → events → store) and web-standard
 * `Request → Response` handlers for pages and live events.
 *
 * @packageDocumentation
 */

export { DEFAULT_COMPACTION_INSTRUCTIONS } from './context-input.js';
export { createAgentSession } from './create-agent-session.js';
export type { SessionDurability, StepDurableStore } from './durable-turn.js';
export {
  describeModelSwitch,
  type FallbackReason,
  fallbackReason,
  type ModelSwitch,
} from './fallback.js';
export { createChunkHandlers } from './handlers/create-chunk-handlers.js';
export {
  type NodeRequestLike,
  type NodeResponseLike,
  toNodeListener,
} from './handlers/node-listener.js';
export type { HandlerErrorBody, HandlerErrorCode } from './handlers/responses.js';
export type {
  Authorize,
  AuthorizeResult,
  ChunkHandlers,
  ChunkHandlersOptions,
  ChunkPageLike,
  PageStore,
  SessionLookup,
  UIMessageStreamRouteOptions,
} from './handlers/types.js';
export type { LeaseStore, SessionLeaseOptions } from './lease.js';
export {
  type CloseInterruptedOptions,
  closeInterruptedTurns,
  type RecoveryStore,
} from './recovery.js';
export { parseEventId } from './replay-buffer.js';
export type {
  InterruptedToolCall,
  RecoveryPolicy,
  SessionRecoveryOptions,
} from './resume-turn.js';
export { formatSse, type SessionEventStreamOptions, sessionEventStream } from './sse.js';
export { type ToolProgress, toolProgress } from './tool-progress.js';
export type { ExistingTurnPolicy } from './turn-guard.js';
export type {
  AgentSession,
  AgentSessionOptions,
  EventMeta,
  NotifyInput,
  NotifyResult,
  Replay,
  SendInput,
  SendOptions,
  SessionCaching,
  SessionCompaction,
  SessionErrorContext,
  SessionListener,
  SessionStore,
  SteerHandle,
  SteerOutcome,
  TurnHandle,
  TurnResult,
  TurnStatus,
} from './types.js';
