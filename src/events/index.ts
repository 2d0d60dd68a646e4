/**
 * The AI SDK adapter: AI SDK v7 stream parts to JSON chunk events.
 *
 * @module
 */
export { toErrorInfo } from './errors.js';
export { ABORT_TEXT } from './lifecycle-parts.js';
export {
  NO_EVENT_PART_TYPES,
  STREAM_PART_TYPES,
  type StreamPartOf,
  type StreamPartType,
} from './part-types.js';
export { iterateStream, type StreamSource } from './stream-source.js';
export { toChunkEvent } from './to-chunk-event.js';
export { toChunkEventStream } from './to-chunk-event-stream.js';
export { toChunkEvents } from './to-chunk-events.js';
