// The session layer's exports: the headless agent runner (model → events → store). The
// `chunklog/session` subpath adds the HTTP layer's handlers (src/entries/session.ts).

export { DEFAULT_COMPACTION_INSTRUCTIONS } from './context-input.js';
export { createAgentSession } from './create-agent-session.js';
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
export type { StepDurableStore } from './store.js';
export {
  type RecoveredThread,
  type RecoverInterruptedTurnsOptions,
  recoverInterruptedTurns,
  type SweepStore,
} from './sweep.js';
export { type ToolProgress, toolProgress } from './tool-progress.js';
export type { SessionDurability } from './turn-writer.js';
export type {
  AgentSession,
  AgentSessionOptions,
  EventMeta,
  ExistingTurnPolicy,
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
