import { ChunklogError } from '../errors/chunklog-error.js';
import { type ChunkPage, chunkPageMini } from '../schema/chunk-page.js';
import { safeParseWith } from '../schema/parse.js';
import type { LoadPage, LoadPageRequest } from './page.js';

function loadFailed(request: LoadPageRequest, cause: unknown): ChunklogError {
  const what = request.before === undefined ? 'the tail' : `the page before seq ${request.before}`;
  const reason = cause instanceof Error ? `: ${cause.message}` : '';
  return new ChunklogError('load-failed', `ChunkWindow: loading ${what} failed${reason}`, {
    cause,
    ...(request.before === undefined ? {} : { seq: request.before }),
  });
}

/**
 * Calls `loadPage` and validates its answer. `loadPage` is called synchronously.
 *
 * @param loadPage - the window's page source
 * @param request - what to ask for
 * @param threadId - the thread the window already holds rows of, if any
 * @returns the validated page
 * @throws {ChunklogError} `load-failed`, with the page source's error or the validation error
 *   (`invalid-page`) as `cause`
 */
export async function fetchPage(
  loadPage: LoadPage,
  request: LoadPageRequest,
  threadId: () => string | undefined,
): Promise<ChunkPage> {
  let raw: unknown;
  try {
    raw = await loadPage(request);
  } catch (cause) {
    throw loadFailed(request, cause);
  }
  const parsed = safeParseWith(chunkPageMini, raw, 'invalid-page', 'chunk page');
  if (!parsed.success) throw loadFailed(request, parsed.error);
  const page = parsed.value;
  const expected = threadId();
  const other =
    expected === undefined ? undefined : page.chunks.find((row) => row.threadId !== expected);
  if (other !== undefined) {
    const error = new ChunklogError(
      'invalid-page',
      `Invalid chunk page: rows of thread ${JSON.stringify(other.threadId)} in a window of thread ${JSON.stringify(expected)}`,
      { threadId: other.threadId, seq: other.seq },
    );
    throw loadFailed(request, error);
  }
  return page;
}
