import { ChunklogError } from '../errors/index.js';
import type { Relay } from '../live/relay.js';
import { formatSse } from '../live/sse-format.js';

const encoder = new TextEncoder();

/** Options of {@link relayEventStream}. */
export interface RelayEventStreamOptions {
  /** The id of the last event the client saw (`Last-Event-ID`). */
  readonly lastEventId?: string | undefined;
  /** Milliseconds between keep-alive comments; 0 for none. */
  readonly heartbeatMs: number;
  /** Closing the client's request ends the stream at once. */
  readonly signal?: AbortSignal | undefined;
  /**
   * Ends the stream once the events kept by then are sent: the local session closed (after its
   * last turn's `turn-end`).
   */
  readonly until?: AbortSignal | undefined;
}

/**
 * Server-sent events of a thread read from a relay: the same frames as a session's own stream
 * (`id: turnId:index`, `event: gap`), read as fast as the client takes them (a slow client only
 * reads the relay later). When the relay fails the stream sends `event: relay-error` and ends;
 * the client resumes with its last id.
 *
 * @param relay - the relay
 * @param threadId - the thread
 * @param options - where to resume, keep-alives, the request's signal
 * @param onEnd - called once when the stream ends
 * @returns the stream's bytes
 */
export function relayEventStream(
  relay: Relay,
  threadId: string,
  options: RelayEventStreamOptions,
  onEnd: () => void,
): ReadableStream<Uint8Array> {
  const stop = new AbortController();
  const signal = AbortSignal.any(
    [options.signal, options.until, stop.signal].filter((s): s is AbortSignal => s !== undefined),
  );
  const reads = relay
    .follow(threadId, { lastEventId: options.lastEventId, signal })
    [Symbol.asyncIterator]();
  let timer: ReturnType<typeof setInterval> | undefined;
  let open = true;
  let pending: Promise<unknown> | undefined;
  const end = () => {
    if (!open) return;
    open = false;
    if (timer !== undefined) clearInterval(timer);
    stop.abort();
    void reads.return?.(undefined).catch(() => {});
    onEnd();
  };
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        controller.enqueue(encoder.encode(': chunklog events\nretry: 1000\n\n'));
        if (options.heartbeatMs > 0) {
          timer = setInterval(() => {
            if (pending !== undefined) controller.enqueue(encoder.encode(': ping\n\n'));
          }, options.heartbeatMs);
          (timer as { unref?: () => void }).unref?.();
        }
        options.signal?.addEventListener(
          'abort',
          () => {
            end();
            try {
              controller.close();
            } catch {
              // already closed
            }
          },
          { once: true },
        );
      },
      async pull(controller) {
        let text: string;
        try {
          const next = reads.next();
          pending = next;
          const read = await next;
          pending = undefined;
          if (!open) return;
          if (read.done === true) {
            end();
            controller.close();
            return;
          }
          const value = read.value;
          text =
            value.type === 'gap'
              ? formatSse({ lastEventId: options.lastEventId ?? null }, { event: 'gap' })
              : formatSse(value.event, { id: value.meta.id });
        } catch (error) {
          pending = undefined;
          if (!open) return;
          const message = ChunklogError.hasCode(error, 'relay-unavailable')
            ? error.message
            : 'The relay failed.';
          end();
          controller.enqueue(
            encoder.encode(
              formatSse({ code: 'relay-unavailable', message }, { event: 'relay-error' }),
            ),
          );
          controller.close();
          return;
        }
        controller.enqueue(encoder.encode(text));
      },
      cancel() {
        end();
      },
    },
    { highWaterMark: 0 },
  );
}
