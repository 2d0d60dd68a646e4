import type { ChunkPage } from '../schema/chunk-page.js';

export { type ChunkPage, parseChunkPage } from '../schema/chunk-page.js';

/**
 * What a window asks its `loadPage` for: the newest `limit` rows with `seq < before`, or the
 * newest `limit` rows of the thread when `before` is absent.
 *
 * @example
 * ```ts
 * const request: LoadPageRequest = { limit: 50, before: 1201 }; // rows 1151-1200
 * ```
 */
export interface LoadPageRequest {
  /** The most rows wanted. */
  readonly limit: number;
  /** Only rows with a smaller `seq`; absent for the tail of the thread. */
  readonly before?: number | undefined;
}

/**
 * Fetches one page, over HTTP or straight from a store. Its answer is validated as
 * {@link parseChunkPage} does (the checks of `ChunkPageSchema`): it crosses a trust boundary.
 *
 * @example
 * ```ts
 * const loadPage: LoadPage = ({ limit, before }) => store.getChunks(threadId, { limit, before });
 * ```
 */
export type LoadPage = (request: LoadPageRequest) => ChunkPage | PromiseLike<ChunkPage>;
