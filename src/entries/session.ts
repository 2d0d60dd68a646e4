/**
 * chunklog/session: the headless agent runner (model → events → store) and web-standard
 * `Request → Response` handlers for pages and live events.
 *
 * @packageDocumentation
 */

export * from '../http/index.js';
export { type EventIdParts, parseEventId } from '../live/replay-buffer.js';
export { formatSse } from '../live/sse-format.js';
export * from '../session/index.js';
