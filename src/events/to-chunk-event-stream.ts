import type { TextStreamPart, ToolSet } from 'ai';
import type { ChunkEvent } from '../schema/chunk-event.js';
import { checkStreamSource, iterateStream, type StreamSource } from './stream-source.js';
import { toChunkEvents } from './to-chunk-events.js';

/**
 * Maps a whole AI SDK stream to chunk events, numbering steps: the first `start-step` becomes
 * `step-start { step: 0 }`, each later one the next number, and every `step-finish` carries the
 * number of the step it ends, so a client that joins mid-turn sees real step numbers. Every
 * other event is the one {@link toChunkEvents} gives.
 *
 * @param stream - `streamText().stream` (or the deprecated `fullStream`), or any async
 *   iterable or `ReadableStream` of stream parts
 * @returns an async generator of events, in order
 * @throws {ChunklogError} `invalid-option` at once when `stream` is not a stream
 *
 * @example
 * ```ts
 * const result = streamText({ model, prompt: 'Hello' });
 * for await (const event of toChunkEventStream(result.stream)) {
 *   sse.write(`data: ${JSON.stringify(event)}\n\n`);
 * }
 * ```
 */
export function toChunkEventStream(
  stream: StreamSource<TextStreamPart<ToolSet>>,
): AsyncGenerator<ChunkEvent, void, undefined> {
  return numberSteps(checkStreamSource(stream, 'toChunkEventStream'));
}

async function* numberSteps(
  stream: StreamSource<TextStreamPart<ToolSet>>,
): AsyncGenerator<ChunkEvent, void, undefined> {
  let step = -1;
  for await (const part of iterateStream(stream)) {
    for (const event of toChunkEvents(part)) {
      if (event.type === 'step-start') {
        step += 1;
        yield { ...event, step };
      } else if (event.type === 'step-finish') {
        yield { ...event, step: Math.max(step, 0) };
      } else {
        yield event;
      }
    }
  }
}
