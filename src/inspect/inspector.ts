import { ChunklogError } from '../errors/chunklog-error.js';
import type { TurnInfo } from '../store/turn-types.js';
import type { ChunkStore } from '../store/types.js';
import type { TurnUsage } from '../store/usage-types.js';
import type { SafeHtml } from './html.js';
import { errorPage, layout, rowsPage, threadsPage, turnPage } from './pages.js';
import { INSPECTOR_CSS } from './styles.js';

/** Options of {@link createInspector}. */
export interface InspectorOptions {
  /** What the header names as the source (a file name, a URL without its password). */
  readonly source: string;
  /** Threads per page. Default 50. */
  readonly threadsPerPage?: number | undefined;
  /** Rows per page. Default 100. */
  readonly rowsPerPage?: number | undefined;
}

const HEADERS = {
  // No script at all, no outside resource: what the store holds cannot run in this page.
  'content-security-policy':
    "default-src 'none'; style-src 'self'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
};

function page(status: number, title: string, source: string, body: SafeHtml): Response {
  return new Response(layout(title, source, body).value, {
    status,
    headers: { 'content-type': 'text/html; charset=utf-8', ...HEADERS },
  });
}

/**
 * A turn's recorded usage. A store not migrated to `0003_usage_and_thread_meta` (the inspector opens stores
 * read-only and never migrates) has no usage table: the page then shows no usage rather than failing.
 */
async function turnUsage(
  store: Pick<ChunkStore, 'getTurnUsage'>,
  threadId: string,
  turnId: string,
): Promise<TurnUsage | undefined> {
  try {
    return (await store.getTurnUsage(threadId, turnId)) ?? undefined;
  } catch {
    return undefined;
  }
}

/** A turn's recorded status, or undefined when the store cannot say (not migrated to 0002). */
async function turnInfo(
  store: Pick<ChunkStore, 'getTurnInfo'>,
  threadId: string,
  turnId: string,
): Promise<TurnInfo | undefined> {
  try {
    return (await store.getTurnInfo(threadId, turnId)) ?? undefined;
  } catch {
    return undefined;
  }
}

/**
 * The inspector: a read-only, fetch-style handler over a store's threads, pages of rows and
 * turns. It answers GET (and HEAD) only, and calls only the store's read methods.
 *
 * @param store - the store to read
 * @param options - the source's name and page sizes
 * @returns the handler
 */
export function createInspector(
  store: Pick<
    ChunkStore,
    'listThreads' | 'getThread' | 'getChunks' | 'getTurn' | 'getTurnUsage' | 'getTurnInfo'
  >,
  options: InspectorOptions,
): (request: Request) => Promise<Response> {
  const threadsPerPage = options.threadsPerPage ?? 50;
  const rowsPerPage = options.rowsPerPage ?? 100;
  const { source } = options;
  return async (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return new Response('The inspector is read-only.', {
        status: 405,
        headers: { allow: 'GET, HEAD' },
      });
    }
    const url = new URL(request.url);
    const path = url.pathname;
    try {
      if (path === '/inspector.css') {
        return new Response(INSPECTOR_CSS, {
          headers: { 'content-type': 'text/css; charset=utf-8', ...HEADERS },
        });
      }
      if (path === '/') {
        const before = url.searchParams.get('before') ?? undefined;
        const threads = await store.listThreads({
          limit: threadsPerPage,
          ...(before ? { before } : {}),
        });
        return page(200, 'Threads', source, threadsPage(threads, before));
      }
      const match = /^\/threads\/([^/]+)(?:\/turns\/([^/]+))?\/?$/.exec(path);
      if (match) {
        const threadId = decodeURIComponent(match[1] as string);
        const thread = await store.getThread(threadId);
        if (match[2] !== undefined) {
          const turnId = decodeURIComponent(match[2]);
          const rows = await store.getTurn(threadId, turnId);
          if (rows === null) {
            return page(
              404,
              'No such turn',
              source,
              errorPage('No such turn', `Thread ${threadId} has no turn ${turnId}.`),
            );
          }
          const usage = await turnUsage(store, threadId, turnId);
          const info = await turnInfo(store, threadId, turnId);
          return page(200, `Turn ${turnId}`, source, turnPage(thread, turnId, rows, usage, info));
        }
        const raw = url.searchParams.get('before');
        const before = raw !== null && /^\d+$/.test(raw) ? Number(raw) : undefined;
        const rows = await store.getChunks(threadId, {
          limit: rowsPerPage,
          ...(before !== undefined ? { before } : {}),
        });
        return page(200, `Thread ${threadId}`, source, rowsPage(thread, rows, before));
      }
      return page(404, 'Not found', source, errorPage('Not found', `Nothing at ${path}.`));
    } catch (error) {
      if (ChunklogError.hasCode(error, 'thread-not-found')) {
        return page(404, 'No such thread', source, errorPage('No such thread', error.message));
      }
      if (ChunklogError.hasCode(error, 'invalid-option')) {
        return page(400, 'Bad request', source, errorPage('Bad request', error.message));
      }
      const message = error instanceof Error ? error.message : String(error);
      return page(500, 'Error', source, errorPage('The store could not be read', message));
    }
  };
}
