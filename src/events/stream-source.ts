import { ChunklogError } from '../errors/chunklog-error.js';

/** Something that yields values one by one: an async iterable or a web `ReadableStream`. */
export type StreamSource<T> = AsyncIterable<T> | ReadableStream<T>;

/**
 * Checks that `source` is a `ReadableStream` or an async iterable, before anything reads it.
 *
 * @param source - the untrusted argument
 * @param where - the public function, for the message
 * @returns `source`, typed
 * @throws {ChunklogError} `invalid-option` (option `stream`)
 */
export function checkStreamSource<T>(source: unknown, where: string): StreamSource<T> {
  const ok =
    typeof source === 'object' &&
    source !== null &&
    (typeof (source as ReadableStream<T>).getReader === 'function' ||
      typeof (source as AsyncIterable<T>)[Symbol.asyncIterator] === 'function');
  if (!ok) {
    throw new ChunklogError(
      'invalid-option',
      `${where}: the stream must be a ReadableStream or an async iterable`,
      { option: 'stream', value: source },
    );
  }
  return source as StreamSource<T>;
}

/**
 * Iterates an async iterable or a `ReadableStream` (read through its reader, so it also works
 * where streams are not async iterable). Stopping early releases the stream.
 *
 * @param source - the stream
 * @returns an async iterable over its values
 * @throws {ChunklogError} `invalid-option` at once when `source` is neither a `ReadableStream`
 *   nor an async iterable
 *
 * @example
 * ```ts
 * for await (const part of iterateStream(result.stream)) handle(part);
 * ```
 */
export function iterateStream<T>(source: StreamSource<T>): AsyncGenerator<T, void, undefined> {
  return iterate(checkStreamSource<T>(source, 'iterateStream'));
}

async function* iterate<T>(source: StreamSource<T>): AsyncGenerator<T, void, undefined> {
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
