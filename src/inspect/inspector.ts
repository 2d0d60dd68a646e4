import { ChunklogError } from '../errors/chunklog-error.js';
import type { PriceFunction } from '../store/usage-types.js';
import type { SafeHtml } from './html.js';
import { errorPage, layout } from './layout.js';
import { RUNNING_NOT_STORED } from './not-stored.js';
import { pathSegments } from './query.js';
import type { InspectedStore } from './reads.js';
import {
  inputRoute,
  type PageContext,
  type PageResult,
  rowsRoute,
  searchRoute,
  threadRoute,
  threadsRoute,
  turnRoute,
} from './routes.js';
import { INSPECTOR_CSS } from './styles.js';

/** Options of {@link createInspector}. */
export interface InspectorOptions {
  /** What the header names as the source (a file name, a URL without its password). */
  readonly source: string;
  /**
   * The Host header values to answer (`inspectorHosts(address, port)`); any other gets 403, so
   * that a page whose name was rebound to this machine (DNS rebinding) cannot read the store.
   */
  readonly hosts: readonly string[];
  /** Threads per page. Default 50. */
  readonly threadsPerPage?: number | undefined;
  /** Rows per page. Default 100. */
  readonly rowsPerPage?: number | undefined;
  /** Turns per page. Default 30. */
  readonly turnsPerPage?: number | undefined;
  /** Prices a step's usage in dollars (`chunklog inspect --price`); without it, no cost is shown. */
  readonly price?: PriceFunction | undefined;
  /** The most rows one page of search results reads. Default 20,000. */
  readonly searchRowLimit?: number | undefined;
  /** The most hits one page of search results shows. Default 100. */
  readonly searchHitLimit?: number | undefined;
  /** The most rows a filtered page of rows reads. Default 5,000. */
  readonly filterScanLimit?: number | undefined;
  /** Seconds between reloads of a running turn's page. Default 2. */
  readonly refreshSeconds?: number | undefined;
  /** The clock, for "how long ago". Default `new Date()`. */
  readonly now?: (() => Date) | undefined;
}

const HEADERS = {
  // No script at all, no outside resource: what the store holds cannot run in this page. Forms
  // (search, filters) submit to the inspector itself, with GET.
  'content-security-policy':
    "default-src 'none'; style-src 'self'; img-src data:; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
};

function text(status: number, body: string, headers: Record<string, string> = {}): Response {
  return new Response(`${body}\n`, {
    status,
    headers: { 'content-type': 'text/plain; charset=utf-8', ...HEADERS, ...headers },
  });
}

function page(source: string, result: PageResult): Response {
  const body = layout(result.title, source, result.body, {
    refreshSeconds: result.refreshSeconds,
    query: result.query,
  });
  return new Response(body.value, {
    status: result.status ?? 200,
    headers: { 'content-type': 'text/html; charset=utf-8', ...HEADERS },
  });
}

function failure(status: number, title: string, message: string): PageResult {
  return { status, title, body: errorPage(title, message) as SafeHtml };
}

function route(ctx: PageContext, segments: readonly string[]): Promise<PageResult> | undefined {
  const [first, threadId, kind, turnId, leaf, ...rest] = segments;
  if (rest.length > 0) return undefined;
  if (first === '' && segments.length === 1) return threadsRoute(ctx);
  if (first === 'search' && segments.length === 1) return searchRoute(ctx);
  if (first !== 'threads' || threadId === undefined || threadId === '') return undefined;
  if (kind === undefined) return threadRoute(ctx, threadId);
  if (kind === 'rows' && turnId === undefined) return rowsRoute(ctx, threadId);
  if (kind !== 'turns' || turnId === undefined || turnId === '') return undefined;
  if (leaf === undefined) return turnRoute(ctx, threadId, turnId);
  if (leaf === 'input') return inputRoute(ctx, threadId, turnId);
  return undefined;
}

/**
 * The inspector: a read-only, fetch-style handler over a store's threads, turns, rows, model
 * input and a text search. It answers GET (and HEAD) only, for the Host values it is given only,
 * and calls only the store's read methods.
 *
 * @param store - the store to read
 * @param options - the source's name, the Host values to answer, page sizes and bounds
 * @returns the handler
 */
export function createInspector(
  store: InspectedStore,
  options: InspectorOptions,
): (request: Request) => Promise<Response> {
  const { source } = options;
  const hosts = new Set(options.hosts.map((host) => host.toLowerCase()));
  const limits = {
    threads: options.threadsPerPage ?? 50,
    rows: options.rowsPerPage ?? 100,
    turns: options.turnsPerPage ?? 30,
    searchRows: options.searchRowLimit ?? 20_000,
    searchHits: options.searchHitLimit ?? 100,
    filterScan: options.filterScanLimit ?? 5_000,
    inputMessages: 200,
  };
  const now = options.now ?? (() => new Date());
  return async (request) => {
    const host = request.headers.get('host')?.toLowerCase();
    if (host === undefined || !hosts.has(host)) {
      return text(
        403,
        `The inspector answers only requests made to the address it listens on (or localhost); Host ${JSON.stringify(host ?? '')} is refused.`,
      );
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return text(405, 'The inspector is read-only: it answers GET and HEAD only.', {
        allow: 'GET, HEAD',
      });
    }
    const url = new URL(request.url);
    if (url.pathname === '/inspector.css') {
      return new Response(INSPECTOR_CSS, {
        headers: { 'content-type': 'text/css; charset=utf-8', ...HEADERS },
      });
    }
    let result: PageResult;
    try {
      const ctx: PageContext = {
        store,
        params: url.searchParams,
        now: now(),
        limits,
        price: options.price,
        refreshSeconds: options.refreshSeconds ?? 2,
      };
      const routed = route(ctx, pathSegments(url.pathname));
      result = routed ? await routed : failure(404, 'Not found', `Nothing at ${url.pathname}.`);
    } catch (error) {
      if (ChunklogError.hasCode(error, 'thread-not-found')) {
        // Under the default durability: 'turn', a thread whose first turn runs has no row yet.
        result = failure(404, 'No such thread', `${error.message} ${RUNNING_NOT_STORED}`);
      } else if (ChunklogError.hasCode(error, 'invalid-option')) {
        result = failure(400, 'Bad request', error.message);
      } else {
        const message = error instanceof Error ? error.message : String(error);
        result = failure(500, 'Error', `The store could not be read: ${message}`);
      }
    }
    return page(source, result);
  };
}
