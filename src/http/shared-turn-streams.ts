import { UI_MESSAGE_STREAM_HEADERS, type UIMessageChunk } from 'ai';
import type { ChunkEvent } from '../schema/chunk-event.js';
import type { ToUIMessageStreamResponseOptions } from '../ui-messages/index.js';
import { UIMessageChunker } from '../ui-messages/to-ui-message-stream.js';

/** A client of a shared stream: its request's signal, and what gives its connection slot back. */
export interface StreamClient {
  readonly signal: AbortSignal;
  readonly release: () => void;
}

const encoder = new TextEncoder();
/** What the AI SDK sends first, and between events when `keepAliveMs` passes without one. */
const STREAM_OPEN = encoder.encode(': stream-open\n\n');
const KEEP_ALIVE = encoder.encode(': keep-alive\n\n');

/**
 * One running turn's UI message stream, encoded once (server-sent events, as the AI SDK's
 * `createUIMessageStreamResponse` writes them) into one growing buffer that every
 * `GET …/stream` client of this process reads from its start. A client costs a view of the bytes
 * appended since its last read, however many events they hold: fifty clients of a turn cost
 * about what one does, and none of them re-encodes an event.
 *
 * The buffer holds the turn's stream so far: what each client of the turn would otherwise have
 * held once apiece. It is dropped with the turn (its end, or its last client leaving).
 */
class SharedTurnStream {
  #bytes = new Uint8Array(16_384);
  #length = 0;
  #ended = false;
  /** The events' encoded chunks not yet appended: appended together once per turn of the event loop. */
  #pending: string[] = [];
  #flushScheduled = false;
  /** Readers waiting for bytes. */
  #waiting: Array<() => void> = [];
  #readers = 0;
  readonly #stop: AbortController;
  readonly #forget: () => void;

  /**
   * @param body - the turn's encoded stream
   * @param stop - aborted when the last reader leaves before the turn ends
   * @param forget - drops this stream from its registry
   */
  constructor(
    events: AsyncIterable<ChunkEvent>,
    chunker: UIMessageChunker,
    stop: AbortController,
    forget: () => void,
  ) {
    this.#stop = stop;
    this.#forget = forget;
    void this.#fill(events, chunker);
  }

  /** Encodes the turn's events as they come, as the AI SDK's `JsonToSseTransformStream` does. */
  async #fill(events: AsyncIterable<ChunkEvent>, chunker: UIMessageChunker): Promise<void> {
    const send = (chunks: readonly UIMessageChunk[]) => {
      for (const chunk of chunks) this.#pending.push(`data: ${JSON.stringify(chunk)}\n\n`);
      if (!this.#flushScheduled && this.#pending.length > 0) {
        this.#flushScheduled = true;
        setImmediate(() => this.#flush());
      }
    };
    try {
      for await (const event of events) send(chunker.push(event));
      send(chunker.end());
    } catch (error) {
      send(chunker.fail(error));
    }
    this.#pending.push('data: [DONE]\n\n');
    this.#flush();
    this.#ended = true;
    this.#forget();
    this.#wake();
  }

  /** Appends what was sent since the last flush, encoded at once, and wakes the readers. */
  #flush(): void {
    this.#flushScheduled = false;
    if (this.#pending.length === 0) return;
    const chunk = encoder.encode(this.#pending.join(''));
    this.#pending = [];
    const needed = this.#length + chunk.length;
    if (needed > this.#bytes.length) {
      // Views handed out keep the old buffer: the bytes before #length never change.
      const grown = new Uint8Array(Math.max(needed, this.#bytes.length * 2));
      grown.set(this.#bytes.subarray(0, this.#length));
      this.#bytes = grown;
    }
    this.#bytes.set(chunk, this.#length);
    this.#length = needed;
    this.#wake();
  }

  #wake(): void {
    const waiting = this.#waiting;
    if (waiting.length === 0) return;
    this.#waiting = [];
    for (const resume of waiting) resume();
  }

  /**
   * A new client's stream, from the turn's start.
   *
   * @param keepAliveMs - the milliseconds between keep-alive comments while no event comes
   * @param client - the client's signal (a client gone before it read gives its slot back), and
   *   what is called once when the client's stream ends, however it ends
   * @returns the stream, or undefined when the last client left and the turn is no longer read
   */
  reader(
    keepAliveMs: number | undefined,
    client: StreamClient,
  ): ReadableStream<Uint8Array> | undefined {
    if (this.#stop.signal.aborted) return undefined;
    this.#readers += 1;
    let offset = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let left = false;
    const leave = () => {
      if (left) return;
      left = true;
      clearTimeout(timer);
      client.signal.removeEventListener('abort', leave);
      client.release();
      this.#readers -= 1;
      if (this.#readers === 0 && !this.#ended) {
        this.#forget();
        this.#stop.abort();
      }
    };
    const keepAlive = (controller: ReadableStreamDefaultController<Uint8Array>) => {
      if (keepAliveMs === undefined) return;
      clearTimeout(timer);
      timer = setTimeout(() => {
        if ((controller.desiredSize ?? 0) > 0) controller.enqueue(KEEP_ALIVE);
        keepAlive(controller);
      }, keepAliveMs);
    };
    client.signal.addEventListener('abort', leave, { once: true });
    return new ReadableStream<Uint8Array>({
      start: (controller) => {
        if (keepAliveMs === undefined) return;
        controller.enqueue(STREAM_OPEN);
        keepAlive(controller);
      },
      pull: async (controller) => {
        while (offset === this.#length && !this.#ended) {
          await new Promise<void>((resume) => this.#waiting.push(resume));
          if (left) return;
        }
        if (offset < this.#length) {
          controller.enqueue(this.#bytes.subarray(offset, this.#length));
          offset = this.#length;
          keepAlive(controller);
          return;
        }
        leave();
        controller.close();
      },
      cancel: leave,
    });
  }
}

/**
 * The running turns' shared UI message streams of one set of handlers, by thread and turn: the
 * first `GET …/stream` client of a turn starts following it on the relay, the others read what
 * that one follower encoded.
 */
export class SharedTurnStreams {
  readonly #streams = new Map<string, Promise<SharedTurnStream | undefined>>();
  readonly #options: ToUIMessageStreamResponseOptions;

  /** @param options - how the stream is encoded and sent (the handlers' `uiMessageStream`) */
  constructor(options: ToUIMessageStreamResponseOptions) {
    this.#options = options;
  }

  /**
   * A client's stream of the turn `turnId` of `threadId`, from its start.
   *
   * @param threadId - the thread
   * @param turnId - the running turn
   * @param follow - starts following the turn on the relay (called for the turn's first client):
   *   its events, or undefined when the turn's start is no longer to be read
   * @param client - the client's signal, and what is called once when its stream ends
   * @returns the stream, or undefined when the turn could not be followed
   */
  async open(
    threadId: string,
    turnId: string,
    follow: (signal: AbortSignal) => Promise<AsyncIterable<ChunkEvent> | undefined>,
    client: StreamClient,
  ): Promise<ReadableStream<Uint8Array> | undefined> {
    const key = `${threadId}\u0000${turnId}`;
    for (;;) {
      let pending = this.#streams.get(key);
      if (pending === undefined) {
        pending = this.#start(key, follow);
        this.#streams.set(key, pending);
      }
      const shared = await pending;
      if (shared === undefined) return undefined;
      // A stream its last client just left is stopping: the next one starts again.
      const reader = shared.reader(this.#options.keepAliveMs, client);
      if (reader !== undefined) return reader;
    }
  }

  /** Follows the turn and encodes its stream once; undefined when its start is not to be read. */
  async #start(
    key: string,
    follow: (signal: AbortSignal) => Promise<AsyncIterable<ChunkEvent> | undefined>,
  ): Promise<SharedTurnStream | undefined> {
    const stop = new AbortController();
    let events: AsyncIterable<ChunkEvent> | undefined;
    try {
      events = await follow(stop.signal);
    } finally {
      if (events === undefined) this.#streams.delete(key);
    }
    if (events === undefined) return undefined;
    const entry = this.#streams.get(key);
    return new SharedTurnStream(events, new UIMessageChunker(this.#options), stop, () => {
      if (this.#streams.get(key) === entry) this.#streams.delete(key);
    });
  }

  /**
   * The response carrying a client's stream, with the UI message stream protocol's headers (and
   * the handlers' own), as the AI SDK's `createUIMessageStreamResponse` sends them.
   */
  response(body: ReadableStream<Uint8Array>): Response {
    const all = new Headers(this.#options.headers);
    for (const [name, value] of Object.entries(UI_MESSAGE_STREAM_HEADERS)) {
      if (!all.has(name)) all.set(name, value);
    }
    return new Response(body, { status: 200, headers: all });
  }
}
