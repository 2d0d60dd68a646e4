import type { TextStreamPart, ToolSet } from 'ai';
import { checkStreamSource, type StreamSource } from '../events/stream-source.js';
import { toChunkEvent } from '../events/to-chunk-event.js';
import { applyEvent } from './apply-event.js';
import { createTurnState, draftOf, seal } from './turn-state.js';
import type { TurnState } from './types.js';

/**
 * Folds a whole AI SDK stream into a turn's state (each part through `toChunkEvents`). Works
 * with `streamText().stream` and its deprecated name `fullStream`, or any async iterable or
 * `ReadableStream` of parts. When the stream ends without `finish` (an error, an abort), the
 * blocks still open stay open in the result: nothing is lost. When the stream itself throws
 * (the AI SDK throws only errors that stop the stream, such as network errors), the error is
 * folded in as an `error` chunk and the state so far is returned: this function never rejects
 * because of the stream.
 *
 * @param stream - the stream of parts
 * @param initial - the state to start from (default: an empty turn)
 * @returns the state once the stream has ended
 * @throws {ChunklogError} `invalid-option` (rejection) when `stream` is not a stream
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
  checkStreamSource(stream, 'foldStream');
  const draft = draftOf(initial ?? createTurnState());
  const fold = (part: TextStreamPart<ToolSet>): void => {
    const event = toChunkEvent(part);
    if (event !== undefined) applyEvent(draft, event);
  };
  // Only a failure to read (the stream itself failing, such as a network error) is recorded,
  // like an `error` part; anything else (a locked stream) is the caller's to see.
  const readFailed = (error: unknown): void => fold({ type: 'error', error });
  if (typeof (stream as ReadableStream).getReader === 'function') {
    // Straight from the reader: no async generator between the stream and the fold.
    const reader = (stream as ReadableStream<TextStreamPart<ToolSet>>).getReader();
    try {
      for (;;) {
        let next: ReadableStreamReadResult<TextStreamPart<ToolSet>>;
        try {
          next = await reader.read();
        } catch (error) {
          readFailed(error);
          break;
        }
        if (next.done) break;
        fold(next.value);
      }
    } finally {
      reader.releaseLock();
    }
  } else {
    const iterator = (stream as AsyncIterable<TextStreamPart<ToolSet>>)[Symbol.asyncIterator]();
    for (;;) {
      let next: IteratorResult<TextStreamPart<ToolSet>>;
      try {
        next = await iterator.next();
      } catch (error) {
        readFailed(error);
        break;
      }
      if (next.done) break;
      fold(next.value);
    }
  }
  return seal(draft);
}
