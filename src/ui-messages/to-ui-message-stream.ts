import type { FinishReason, UIMessageChunk } from 'ai';
import { invalidOption } from '../errors/invalid-option.js';
import { createTurnState, reduceTurn } from '../reducer/index.js';
import { type ChunkEvent, type ErrorChunk, messageId, parseChunkEvent } from '../schema/index.js';
import { AI_SDK_FINISH_REASONS } from '../schema/usage.js';
import { UIChunkDiffer } from './ui-chunk-differ.js';

/**
 * Options of {@link toUIMessageStream}.
 *
 * @example
 * ```ts
 * const options: ToUIMessageStreamOptions = { sendError: false, onError: () => 'Try again later.' };
 * ```
 */
export interface ToUIMessageStreamOptions {
  /**
   * The id of the assistant message the client builds. Default: the turn's `assistantId`, else
   * chunklog's `${turnId}:assistant` (the id {@link toUIMessages} gives the stored message).
   */
  readonly messageId?: string | undefined;
  /**
   * Whether a turn that ends with an error also sends the AI SDK's `error` chunk, which puts a
   * `useChat` client in its `error` status. Default `true`. The error is in the message either way,
   * as a `data-chunklog-error` part.
   */
  readonly sendError?: boolean | undefined;
  /**
   * The text of the `error` chunk sent when the events themselves fail (the iterable throws).
   * Default: `'An error occurred.'`, as the AI SDK does, so that no server detail reaches the client.
   */
  readonly onError?: ((error: unknown) => string) | undefined;
}

const KNOWN_FINISH_REASONS: ReadonlySet<string> = new Set(AI_SDK_FINISH_REASONS);

function finishReasonOf(reason: string | undefined): { finishReason?: FinishReason } {
  if (reason === undefined) return {};
  return { finishReason: (KNOWN_FINISH_REASONS.has(reason) ? reason : 'other') as FinishReason };
}

/**
 * Converts a chunklog turn's live events into the AI SDK UI message stream, so that a `useChat`
 * client (its default HTTP transport, or any `ChatTransport`) can follow a chunklog session's turn.
 *
 * The events are folded with the reducer as they arrive, and each change of the turn's chunks is
 * sent as the stream chunks that make the client's assistant message equal, at the end, to
 * {@link toUIMessages} of the stored turn: `start` (with the message id), text and reasoning blocks,
 * tool input, approvals, preliminary and final outputs, `start-step`/`finish-step`, sources, files,
 * steering messages and chunklog's data parts (`data-chunklog-system`, `data-chunklog-error`,
 * `data-chunklog-tool-progress`), then `finish`. A turn that ended with an error also sends an
 * `error` chunk (see {@link ToUIMessageStreamOptions.sendError}).
 *
 * One stream carries one assistant message: a second `turn-start` ends the first message and
 * starts another one.
 *
 * Each event is validated (`parseChunkEvent`) before it is folded: an invalid one ends the
 * stream like an iterable that throws (an `error` chunk with the `onError` text, then `finish`).
 *
 * @param events - the turn's events, for example the handle `session.send(text)` returns
 * @param options - the message id, and how errors are sent
 * @returns the UI message stream; cancelling it stops reading the events
 * @throws {ChunklogError} `invalid-option` at once when `events` is not an async iterable or an
 *   option is malformed
 * @example
 * ```ts
 * // A route a `useChat` client posts to.
 * export async function POST(request: Request) {
 *   const { messages } = await request.json();
 *   const turn = session.send(lastUserText(messages));
 *   return createUIMessageStreamResponse({ stream: toUIMessageStream(turn) });
 * }
 * ```
 */
export function toUIMessageStream(
  events: AsyncIterable<ChunkEvent>,
  options: ToUIMessageStreamOptions = {},
): ReadableStream<UIMessageChunk> {
  const { sendError = true, onError = () => 'An error occurred.' } = checkStreamOptions(
    events,
    options,
  );
  let iterator: AsyncIterator<ChunkEvent> | undefined;
  let state = createTurnState();
  let differ = new UIChunkDiffer();
  let started = false;
  let finished = false;

  const start = (id: string | undefined): UIMessageChunk[] => {
    started = true;
    finished = false;
    return [{ type: 'start', ...(id === undefined ? {} : { messageId: id }) }];
  };

  /** The last error chunk of the turn, when the turn ended with an error. */
  const turnError = (reason: string | undefined): string | undefined => {
    const last = state.chunkAt(state.chunkCount - 1);
    if (reason !== 'error' && last?.type !== 'error') return undefined;
    for (let i = state.chunkCount - 1; i >= 0; i--) {
      const chunk = state.chunkAt(i);
      if (chunk?.type === 'error') return (chunk as ErrorChunk).message;
    }
    return undefined;
  };

  // The client stops reading at an `error` chunk: everything else goes before it.
  const finish = (reason: string | undefined, failure?: string): UIMessageChunk[] => {
    if (!started) return failure === undefined ? [] : [{ type: 'error', errorText: failure }];
    if (finished) return failure === undefined ? [] : [{ type: 'error', errorText: failure }];
    finished = true;
    const out = differ.finish(state);
    const errorText = failure ?? (sendError ? turnError(reason) : undefined);
    if (errorText !== undefined) out.push({ type: 'error', errorText });
    out.push({ type: 'finish', ...finishReasonOf(reason) });
    return out;
  };

  const apply = (event: ChunkEvent): UIMessageChunk[] => {
    if (event.type === 'turn-start') {
      const out = finish(undefined);
      state = reduceTurn(createTurnState(), event);
      differ = new UIChunkDiffer();
      const id = options.messageId ?? event.assistantId ?? messageId(event.turnId, 'assistant');
      return [...out, ...start(id)];
    }
    const out = started ? [] : start(options.messageId);
    state = reduceTurn(state, event);
    if (event.type === 'turn-end') return [...out, ...finish(event.finishReason)];
    return [...out, ...differ.update(state, event)];
  };

  return new ReadableStream<UIMessageChunk>({
    async pull(controller) {
      iterator ??= events[Symbol.asyncIterator]();
      try {
        for (;;) {
          const next = await iterator.next();
          if (next.done === true) {
            for (const chunk of finish(undefined)) controller.enqueue(chunk);
            controller.close();
            return;
          }
          const out = apply(parseChunkEvent(next.value));
          if (out.length > 0) {
            for (const chunk of out) controller.enqueue(chunk);
            return;
          }
        }
      } catch (error) {
        for (const chunk of finish('error', onError(error))) controller.enqueue(chunk);
        controller.close();
      }
    },
    async cancel() {
      await iterator?.return?.();
    },
  });
}

function checkStreamOptions(events: unknown, options: unknown): ToUIMessageStreamOptions {
  const where = 'toUIMessageStream';
  if (
    typeof events !== 'object' ||
    events === null ||
    typeof (events as AsyncIterable<unknown>)[Symbol.asyncIterator] !== 'function'
  ) {
    invalidOption(where, 'events', '`events` must be an async iterable of chunk events', events);
  }
  if (typeof options !== 'object' || options === null) {
    invalidOption(where, 'options', 'options must be an object', options);
  }
  const { messageId: id, sendError, onError } = options as ToUIMessageStreamOptions;
  if (id !== undefined && (typeof id !== 'string' || id === '')) {
    invalidOption(where, 'messageId', '`messageId` must be a non-empty string', id);
  }
  if (sendError !== undefined && typeof sendError !== 'boolean') {
    invalidOption(where, 'sendError', '`sendError` must be a boolean', sendError);
  }
  if (onError !== undefined && typeof onError !== 'function') {
    invalidOption(where, 'onError', '`onError` must be a function', onError);
  }
  return options as ToUIMessageStreamOptions;
}
