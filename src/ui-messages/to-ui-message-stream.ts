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
  checkStreamOptions(events, options);
  const chunker = new UIMessageChunker(options);
  let iterator: AsyncIterator<ChunkEvent> | undefined;
  return new ReadableStream<UIMessageChunk>({
    async pull(controller) {
      iterator ??= events[Symbol.asyncIterator]();
      try {
        for (;;) {
          const next = await iterator.next();
          if (next.done === true) {
            for (const chunk of chunker.end()) controller.enqueue(chunk);
            controller.close();
            return;
          }
          const out = chunker.push(next.value);
          if (out.length > 0) {
            for (const chunk of out) controller.enqueue(chunk);
            return;
          }
        }
      } catch (error) {
        for (const chunk of chunker.fail(error)) controller.enqueue(chunk);
        controller.close();
      }
    },
    async cancel() {
      await iterator?.return?.();
    },
  });
}

/**
 * The fold behind {@link toUIMessageStream}, one event at a time: each event's UI message stream
 * chunks. For a writer that sends the chunks its own way (the handlers encode a running turn
 * once for all its `GET …/stream` clients) without a stream per hop.
 */
export class UIMessageChunker {
  readonly #messageId: string | undefined;
  readonly #sendError: boolean;
  readonly #onError: (error: unknown) => string;
  #state = createTurnState();
  #differ = new UIChunkDiffer();
  #started = false;
  #finished = false;

  /** @param options - the message id, and how errors are sent (checked by the caller) */
  constructor(options: ToUIMessageStreamOptions = {}) {
    this.#messageId = options.messageId;
    this.#sendError = options.sendError ?? true;
    this.#onError = options.onError ?? (() => 'An error occurred.');
  }

  /**
   * The chunks one event makes.
   *
   * @throws {ChunklogError} `invalid-event` when the event is not a chunk event
   */
  push(input: ChunkEvent): UIMessageChunk[] {
    const event = parseChunkEvent(input);
    if (event.type === 'turn-start') {
      const out = this.#finish(undefined);
      this.#state = reduceTurn(createTurnState(), event);
      this.#differ = new UIChunkDiffer();
      const id = this.#messageId ?? event.assistantId ?? messageId(event.turnId, 'assistant');
      out.push(...this.#start(id));
      return out;
    }
    const out = this.#started ? [] : this.#start(this.#messageId);
    this.#state = reduceTurn(this.#state, event);
    if (event.type === 'turn-end') {
      out.push(...this.#finish(event.finishReason));
      return out;
    }
    const update = this.#differ.update(this.#state, event);
    if (out.length === 0) return update;
    out.push(...update);
    return out;
  }

  /** The chunks that end the stream when the events end. */
  end(): UIMessageChunk[] {
    return this.#finish(undefined);
  }

  /** The chunks that end the stream when reading the events failed: `error` with `onError`'s text. */
  fail(error: unknown): UIMessageChunk[] {
    return this.#finish('error', this.#onError(error));
  }

  #start(id: string | undefined): UIMessageChunk[] {
    this.#started = true;
    this.#finished = false;
    return [{ type: 'start', ...(id === undefined ? {} : { messageId: id }) }];
  }

  /** The last error chunk of the turn, when the turn ended with an error. */
  #turnError(reason: string | undefined): string | undefined {
    const state = this.#state;
    const last = state.chunkAt(state.chunkCount - 1);
    if (reason !== 'error' && last?.type !== 'error') return undefined;
    for (let i = state.chunkCount - 1; i >= 0; i--) {
      const chunk = state.chunkAt(i);
      if (chunk?.type === 'error') return (chunk as ErrorChunk).message;
    }
    return undefined;
  }

  // The client stops reading at an `error` chunk: everything else goes before it.
  #finish(reason: string | undefined, failure?: string): UIMessageChunk[] {
    if (!this.#started || this.#finished) {
      return failure === undefined ? [] : [{ type: 'error', errorText: failure }];
    }
    this.#finished = true;
    const out = this.#differ.finish(this.#state);
    const errorText = failure ?? (this.#sendError ? this.#turnError(reason) : undefined);
    if (errorText !== undefined) out.push({ type: 'error', errorText });
    out.push({ type: 'finish', ...finishReasonOf(reason) });
    return out;
  }
}

/** Checks `toUIMessageStream`'s arguments. */
export function checkStreamOptions(events: unknown, options: unknown): ToUIMessageStreamOptions {
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
