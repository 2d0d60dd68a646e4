import { ChunklogError } from '../errors/index.js';
import { activePathOf } from '../store/active-path-of.js';
import { asConversationRows } from './active-path.js';
import { integerParam } from './params.js';
import { badParameter, errorResponse, json } from './responses.js';
import type { PageStore } from './types.js';

/**
 * `GET …/threads/:id/chunks?limit&before`: a page of the thread's log, the store's page shape
 * (`{ chunks, total, oldestSeq, hasMore }`). A thread with no rows yet gives an empty page. For a
 * conversation with alternatives, the page is of its active path (read once per request), and
 * its rows carry the conversation's id as `threadId`. A `limit` above `maxLimit` is capped to it
 * (the page then says `hasMore`), so a client whose window holds more rows than this server
 * serves in one page still gets the newest page instead of a 400.
 *
 * @param store - the store
 * @param url - the request's URL
 * @param threadId - the thread (authorized)
 * @param limits - the default and largest page sizes
 * @returns the page as JSON, or a 400 naming `limit` (not a positive integer) or `before` (not an integer from 0)
 */
export async function chunksRoute(
  store: PageStore,
  url: URL,
  threadId: string,
  limits: { readonly defaultLimit: number; readonly maxLimit: number },
): Promise<Response> {
  const limit = integerParam(url.searchParams, 'limit', 1, Number.MAX_SAFE_INTEGER);
  if (!limit.ok) return limit.response;
  // From 0, as the store takes it (`before=0`: the empty page below every row).
  const before = integerParam(url.searchParams, 'before', 0, Number.MAX_SAFE_INTEGER);
  if (!before.ok) return before.response;
  try {
    const path = await activePathOf(store, threadId);
    const page = await store.getChunks(path, {
      limit: Math.min(limit.value ?? limits.defaultLimit, limits.maxLimit),
      ...(before.value !== undefined ? { before: before.value } : {}),
    });
    return json(
      200,
      path === threadId
        ? page
        : { ...page, chunks: asConversationRows(page.chunks, threadId, path) },
    );
  } catch (error) {
    if (ChunklogError.hasCode(error, 'thread-not-found')) {
      return json(200, { chunks: [], total: 0, oldestSeq: null, hasMore: false });
    }
    if (ChunklogError.hasCode(error, 'invalid-option')) {
      return badParameter(error.option ?? 'query', error.message);
    }
    return errorResponse(500, 'internal', 'The page could not be read.');
  }
}
