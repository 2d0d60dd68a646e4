// The session layer's exports: the headless agent runner (model → events → store). The
// `chunklog/session` subpath adds the HTTP layer's handlers (src/entries/session.ts).

export { DEFAULT_COMPACTION_INSTRUCTIONS } from './context-input.js';
export { createAgentSession } from './create-agent-session.js';
export type { SessionDurability, StepDurableStore } from './durable-turn.js';
export {
  describeModelSwitch,
  type FallbackReason,
  fallbackReason,
  type ModelSwitch,
} from './fallback.js';
export type { LeaseStore, SessionLeaseOptions } from './lease.js';
export {
  type CloseInterruptedOptions,
  closeInterruptedTurns,
  type RecoveryStore,
} from './recovery.js';
export type {
  InterruptedToolCall,
  RecoveryPolicy,
  SessionRecoveryOptions,
} from './resume-turn.js';
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
