import type { TextStreamPart, ToolSet } from 'ai';
import type { ChunkEvent } from '../schema/chunk-event.js';
import { toChunkEvent } from './to-chunk-event.js';

/**
 * Maps one AI SDK v7 stream part (`streamText().stream`, formerly `fullStream`) to the chunk
 * events it means: zero or one event, each plain JSON (it survives
 * `JSON.parse(JSON.stringify(e))` unchanged and validates against `ChunkEventSchema`). Pure.
 * `start`, `tool-input-end`, `raw` and `ping` map to no event; `start-step` gives a
 * `step-start` without a number (use {@link toChunkEventStream} to number steps). The full
 * table is in `docs/event-mapping.md`.
 *
 * @param part - one stream part (trusted, as {@link toChunkEvent} says)
 * @returns the events, in order (a fresh array; empty for parts that carry nothing for the log)
 * @throws {ChunklogError} `invalid-option` when `part` is not an object with a string `type`, or
 *   when reading it fails (the message names the part's type and the missing or malformed field)
 *
 * @example
 * ```ts
 * const result = streamText({ model, prompt: 'Hello' });
 * for await (const part of result.stream) {
 *   for (const event of toChunkEvents(part)) socket.send(JSON.stringify(event));
 * }
 * ```
 */
export function toChunkEvents(part: TextStreamPart<ToolSet>): ChunkEvent[] {
  const event = toChunkEvent(part);
  return event === undefined ? [] : [event];
}
