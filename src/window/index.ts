/**
 * chunklog/window: the headless client window. Browser-safe.
 *
 * @packageDocumentation
 */

export type { ErrorInfo, ErrorKind } from '../schema/error-info.js';
// What an error card says (the same functions `chunklog` exports), for a browser bundle that
// imports the window only.
export { describeError, errorNextStep, errorTitle } from '../schema/error-next-step.js';
export {
  type AlternativeBranch,
  type AlternativeVersion,
  type ConversationVersion,
  indexTurnVersions,
  parseThreadAlternatives,
  type ThreadAlternatives,
  type TurnVersions,
} from './alternatives.js';
export {
  type AlternativesSnapshot,
  ChunkAlternatives,
  type ChunkAlternativesOptions,
  type StartVersionOptions,
} from './chunk-alternatives.js';
export {
  type ApplyOptions,
  ChunkWindow,
  type ChunkWindowListener,
  type EvictOptions,
  type PendingUserMessageOptions,
  type ReloadOptions,
} from './chunk-window.js';
export type { LiveEntry, LogEntry, SealedEntry } from './log-entry.js';
export { type ChunkWindowOptions, DEFAULT_PAGE_SIZE } from './options.js';
export {
  type ChunkPage,
  type LoadPage,
  type LoadPageRequest,
  parseChunkPage,
} from './page.js';
export type { ChunkWindowSnapshot, ReconcileStatus } from './snapshot.js';
