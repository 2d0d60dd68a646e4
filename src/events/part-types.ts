import type { TextStreamPart, ToolSet } from 'ai';
import { listingEvery } from '../schema/listing-every.js';

/** The `type` of an AI SDK v7 stream part (`streamText().stream`). */
export type StreamPartType = TextStreamPart<ToolSet>['type'];

/** The AI SDK stream part of a given type. */
export type StreamPartOf<T extends StreamPartType> = Extract<TextStreamPart<ToolSet>, { type: T }>;

const allStreamPartTypes = listingEvery<StreamPartType>()([
  'start',
  'start-step',
  'text-start',
  'text-delta',
  'text-end',
  'reasoning-start',
  'reasoning-delta',
  'reasoning-end',
  'custom',
  'tool-input-start',
  'tool-input-delta',
  'tool-input-end',
  'tool-call',
  'tool-result',
  'tool-error',
  'tool-output-denied',
  'tool-approval-request',
  'tool-approval-response',
  'source',
  'file',
  'reasoning-file',
  'steering-message',
  'finish-step',
  'finish',
  'abort',
  'error',
  'raw',
  'ping',
]);

/**
 * Every AI SDK v7 stream part type {@link toChunkEvents} knows, in stream order. Exhaustive
 * tests and the mapping table in `docs/event-mapping.md` are checked against it.
 *
 * @example
 * ```ts
 * for (const type of STREAM_PART_TYPES) console.log(type);
 * ```
 */
export const STREAM_PART_TYPES: readonly StreamPartType[] = allStreamPartTypes;

/**
 * The part types that map to no event, by a documented choice: `start` (a turn begins with
 * `turn-start`, which needs ids the part does not have), `tool-input-end` (the `tool-call`
 * that follows carries the complete input), `raw` (provider wire data, not content) and `ping`
 * (keep-alive).
 *
 * @example
 * ```ts
 * NO_EVENT_PART_TYPES.includes('ping'); // true
 * ```
 */
export const NO_EVENT_PART_TYPES: readonly StreamPartType[] = [
  'start',
  'tool-input-end',
  'raw',
  'ping',
];
