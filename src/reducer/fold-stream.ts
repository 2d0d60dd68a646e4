import type { TextStreamPart, ToolSet } from 'ai';
import { iterateStream, type StreamSource } from '../events/stream-source.js';
import { toChunkEvents } from '../events/to-chunk-events.js';
import { applyEvent } from './apply-event.js';
import { createTurnState, draftOf, seal } from './turn-state.js';
import type { TurnState } from './types.js';

/**
 * Folds a whole AI SDK stream into a turn's state (each part through `toChunkEvents`). Works
 * with `streamText().stream` and its deprecated name `fullStream`, or any async iterable or
 * `ReadableStream` of parts. When the stream ends without `finish` (an error, an abort), the
 * blocks still open stay open in the result: nothing is lost.
 *
 * @param stream - the stream of parts
 * @param initial - the state to start from (default: an empty turn)
 * @returns the state once the stream has ended
 *
 * @example
 * ```ts
 * const result = streamText({ model, tools, prompt: 'What is the weather?' });
 * const state = await foldStream(result.stream);
 * console.log(state.chunks);
 * ```
 */
export async function foldStream(
  stream: StreamSource<TextStreamPart<ToolSet>>,
  initial?: TurnState,
): Promise<TurnState> {
  const draft = draftOf(initial ?? createTurnState());
  for await (const part of iterateStream(stream)) {
    for (const event of toChunkEvents(part)) applyEvent(draft, event);
  }
  return seal(draft);
}
