import { invalidOption } from '../errors/invalid-option.js';
import type { LoadPage } from './page.js';

/**
 * Options of a {@link ChunkWindow}.
 *
 * @example
 * ```ts
 * const options: ChunkWindowOptions = {
 *   limit: 300,
 *   pageSize: 50,
 *   loadPage: ({ limit, before }) => store.getChunks(threadId, { limit, before }),
 * };
 * ```
 */
export interface ChunkWindowOptions {
  /**
   * The most log entries held while the user is at the bottom (a positive integer). The open
   * chunk is never evicted, so the log may exceed it by that chunk's rows. Also the size of the
   * tail that `reconcile()` fetches: keep it within what the page source serves (chunklog's store
   * and HTTP handlers serve at most 1,000 rows a page).
   */
  readonly limit: number;
  /** How many rows `loadOlder()` asks for (a positive integer, default 50). */
  readonly pageSize?: number | undefined;
  /** Fetches a page of the thread's log; see {@link LoadPage}. */
  readonly loadPage: LoadPage;
}

/** The options after validation, with defaults filled in. */
export interface ResolvedWindowOptions {
  readonly limit: number;
  readonly pageSize: number;
  readonly loadPage: LoadPage;
}

/**
 * `pageSize` when none is given.
 *
 * @example
 * ```ts
 * new ChunkWindow({ limit: 300, loadPage }); // loadOlder() asks for DEFAULT_PAGE_SIZE rows
 * ```
 */
export const DEFAULT_PAGE_SIZE = 50;

function positiveInteger(option: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0) {
    invalidOption('ChunkWindow', option, `\`${option}\` must be a positive integer`, value);
  }
  return value;
}

/**
 * Validates the options of a {@link ChunkWindow}.
 *
 * @param options - the untrusted options
 * @returns the options with defaults
 * @throws {ChunklogError} `invalid-option`, naming the option
 */
export function resolveWindowOptions(options: unknown): ResolvedWindowOptions {
  if (typeof options !== 'object' || options === null) {
    invalidOption('ChunkWindow', 'options', 'options must be an object', options);
  }
  const { limit, pageSize, loadPage } = options as Record<string, unknown>;
  if (typeof loadPage !== 'function') {
    invalidOption('ChunkWindow', 'loadPage', '`loadPage` must be a function', loadPage);
  }
  return {
    limit: positiveInteger('limit', limit),
    pageSize: pageSize === undefined ? DEFAULT_PAGE_SIZE : positiveInteger('pageSize', pageSize),
    loadPage: loadPage as LoadPage,
  };
}
