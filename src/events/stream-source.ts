/** Something that yields values one by one: an async iterable or a web `ReadableStream`. */
export type StreamSource<T> = AsyncIterable<T> | ReadableStream<T>;

/**
 * Iterates an async iterable or a `ReadableStream` (read through its reader, so it also works
 * where streams are not async iterable). Stopping early releases the stream.
 *
 * @param source - the stream
 * @returns an async iterable over its values
 *
 * @example
 * ```ts
 * for await (const part of iterateStream(result.stream)) handle(part);
 * ```
 */
export async function* iterateStream<T>(
  source: StreamSource<T>,
): AsyncGenerator<T, void, undefined> {
  if (!isReadableStream(source)) {
    yield* source;
    return;
  }
  const reader = source.getReader();
  let done = false;
  try {
    while (true) {
      const next = await reader.read();
      if (next.done) {
        done = true;
        return;
      }
      yield next.value;
    }
  } finally {
    if (!done) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}

function isReadableStream<T>(source: StreamSource<T>): source is ReadableStream<T> {
  return typeof (source as ReadableStream<T>).getReader === 'function';
}
