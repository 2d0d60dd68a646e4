export { type ExplodeTurnOptions, explodeTurn } from './explode-turn.js';
export { groupRowsToMessages } from './group-rows.js';
export { mergeRowsBySeq } from './merge-rows.js';
export {
  type FoldBatchState,
  type FoldedRowMark,
  type FoldTurnState,
  MESSAGE_FOLD_FORMAT,
  MessageFold,
  type MessageFoldState,
} from './message-fold.js';
export { LiveRedaction } from './redact-events.js';
export { redactChunk, redactDrafts } from './redact-fields.js';
export {
  pendingTail,
  type RedactedText,
  type Redactor,
  redactionNotice,
} from './redactor.js';
export {
  type RouteSystemEventOptions,
  routeSystemEvent,
  type SystemRoute,
  systemEventRoute,
} from './route-system-event.js';
export type { GroupableRow } from './row-input.js';
export {
  createSecretRedactor,
  luhnValid,
  redactSecrets,
  SECRET_KINDS,
  type SecretKind,
  type SecretPattern,
  type SecretRedactorOptions,
} from './secret-patterns.js';
