import { ChunklogError } from '../errors/chunklog-error.js';
import { invalidOption, readOptions } from '../errors/invalid-option.js';
import type { ChunkPage } from '../schema/chunk-page.js';
import type { LoadPageRequest } from '../window/page.js';

/**
 * Options of {@link createThreadClient}: where chunklog's handlers (`createChunkHandlers`) serve
 * one thread.
 *
 * @example
 * ```ts
 * const options: ThreadClientOptions = { threadId: 't1', basePath: '/api', headers: { authorization: `Bearer ${token}` } };
 * ```
 */
export interface ThreadClientOptions {
  /** The thread. */
  readonly threadId: string;
  /** The handlers' `basePath` (`'/api'`), or an absolute URL (`'https://chat.example/api'`). Default `''`. */
  readonly basePath?: string | undefined;
  /** The `fetch` to use (to add credentials or retries). Default: the global `fetch`. */
  readonly fetch?: typeof globalThis.fetch | undefined;
  /** Headers sent with every request (not with the event stream: an `EventSource` sends cookies only). */
  readonly headers?: Readonly<Record<string, string>> | undefined;
}

/** What `POST …/messages` answered for a sent message: its turn, and whether it waits behind a running one. */
export interface SentMessage {
  readonly turnId: string;
  readonly queued: boolean;
}

/** The system kinds a client may post as notices. */
export type ClientNoticeKind = 'notice' | 'config-reload';

/**
 * A framework-free client of one thread's routes on chunklog's handlers. Every request asks for
 * JSON (`Accept: application/json`), so handlers created with `uiMessageStream` answer a send
 * with 202 JSON rather than `useChat`'s stream. Every method that calls the server rejects with a
 * `ChunklogError` of code `request-failed` naming the route, the status and the server's message
 * when the answer is not a success, or not JSON (its body is then not read).
 *
 * @example
 * ```ts
 * const client = createThreadClient({ threadId: 't1', basePath: '/api' });
 * const { turnId } = await client.send('Hello');
 * ```
 */
export interface ThreadClient {
  readonly threadId: string;
  /** The URL of the thread's server-sent events (`GET …/events`). */
  readonly eventsUrl: string;
  /** `GET …/chunks?limit&before`: a page of the log (a window's `loadPage`; the window validates it). */
  loadPage(request: LoadPageRequest): Promise<ChunkPage>;
  /** `POST …/messages` `{ text, mode: 'send', turnId? }`: starts a turn, or queues it behind the running one. */
  send(text: string, options?: { readonly turnId?: string | undefined }): Promise<SentMessage>;
  /**
   * `POST …/messages` `{ text, mode: 'steer' }`: adds the text to the running turn at its next
   * step. A cancel that ends the turn first lists it (by `steeringId`) in the `dropped` of the
   * turn's `cancelled` system chunk.
   */
  steer(text: string): Promise<{ readonly steeringId: string }>;
  /**
   * `POST …/cancel` `{ reason?, turnId? }`: cancels the running turn (only that turn, when
   * `turnId` is given). Resolves to false when no turn (or not that turn) was running (409).
   */
  cancel(options?: {
    readonly reason?: string | undefined;
    readonly turnId?: string | undefined;
  }): Promise<boolean>;
  /** `POST …/notices` `{ text, kind }`: records a system notice in the thread. */
  notify(
    text: string,
    kind?: ClientNoticeKind,
  ): Promise<{ readonly routed: string; readonly turnId: string }>;
  /**
   * `POST …/messages` `{ text, edit }`: a new version of turn `turnId` with its user message
   * edited to `text`; it becomes the active path and runs like a sent message.
   */
  edit(turnId: string, text: string): Promise<SentMessage>;
  /** `POST …/messages` `{ regenerate }`: a new answer to turn `turnId`, on a new active path. */
  regenerate(turnId: string): Promise<SentMessage>;
  /**
   * `GET …/alternatives`: the conversation's active path and the versions of its turns (not
   * validated here: a `ChunkAlternatives` validates it).
   */
  alternatives(): Promise<unknown>;
  /** `POST …/alternatives` `{ threadId }`: makes that version's path active; answers like `alternatives()`. */
  switchAlternative(threadId: string): Promise<unknown>;
}

function trimBase(basePath: unknown): string {
  if (basePath === undefined) return '';
  if (typeof basePath !== 'string') {
    invalidOption('createThreadClient', 'basePath', '`basePath` must be a string', basePath);
  }
  return basePath.replace(/\/+$/, '');
}

/** The server's error message (`{ error: { message } }`), or the status text. */
async function failure(route: string, response: Response): Promise<ChunklogError> {
  let message = response.statusText;
  let parameter: string | undefined;
  try {
    const body = (await response.json()) as { error?: { message?: unknown; parameter?: unknown } };
    if (typeof body.error?.message === 'string') message = body.error.message;
    if (typeof body.error?.parameter === 'string') parameter = body.error.parameter;
  } catch {
    // not JSON: keep the status text
  }
  return new ChunklogError(
    'request-failed',
    `${route} answered ${response.status}${message ? `: ${message}` : ''}`,
    {
      value: { status: response.status },
      ...(parameter !== undefined ? { option: parameter } : {}),
    },
  );
}

/** Whether a response's `Content-Type` is JSON: `application/json` or a `+json` type. */
function isJson(header: string | null): boolean {
  const essence = header?.split(';')[0]?.trim().toLowerCase() ?? '';
  return essence === 'application/json' || /^application\/[\w.!#$&^-]+\+json$/.test(essence);
}

/**
 * Creates a client of one thread's routes on chunklog's handlers (`GET …/chunks`,
 * `GET …/events`, `POST …/messages`, `…/cancel`, `…/notices`, `GET`/`POST …/alternatives`). It holds no state and touches no
 * browser global until a method is called, so it may be created during server rendering.
 *
 * @param options - the thread, the handlers' base path, and optionally `fetch` and headers
 * @returns the client
 * @throws {ChunklogError} `invalid-option` for an empty thread id or a malformed option
 *
 * @example
 * ```ts
 * const client = createThreadClient({ threadId: 't1', basePath: '/api' });
 * const window = new ChunkWindow({ limit: 300, loadPage: client.loadPage });
 * await client.send('What is the weather in Paris?');
 * ```
 */
export function createThreadClient(options: ThreadClientOptions): ThreadClient {
  const o = readOptions(options, 'createThreadClient', [
    'threadId',
    'basePath',
    'fetch',
    'headers',
  ]);
  const { threadId } = o;
  if (typeof threadId !== 'string' || threadId === '') {
    invalidOption(
      'createThreadClient',
      'threadId',
      '`threadId` must be a non-empty string',
      threadId,
    );
  }
  if (o.fetch !== undefined && typeof o.fetch !== 'function') {
    invalidOption('createThreadClient', 'fetch', '`fetch` must be a function', o.fetch);
  }
  if (o.headers !== undefined && (typeof o.headers !== 'object' || o.headers === null)) {
    invalidOption('createThreadClient', 'headers', '`headers` must be an object', o.headers);
  }
  const base = `${trimBase(o.basePath)}/threads/${encodeURIComponent(threadId)}`;
  // JSON is what every route answers the client: with `uiMessageStream`, `POST …/messages`
  // would otherwise answer a send with the turn's UI message stream (`useChat`'s).
  const headers = { accept: 'application/json', ...(o.headers as Record<string, string>) };
  /**
   * Sends a request to one of the thread's routes: a `GET`, or a `POST` of `body` as JSON. Its
   * route (`POST messages`) names it in every error; a network failure (no answer at all) is a
   * `request-failed` too.
   */
  const call = async (
    path: string,
    body?: unknown,
  ): Promise<{ route: string; response: Response }> => {
    const method = body === undefined ? 'GET' : 'POST';
    const route = `${method} ${path.split('?')[0]}`;
    const init: RequestInit =
      body === undefined
        ? { headers }
        : {
            method,
            headers: { ...headers, 'content-type': 'application/json' },
            body: JSON.stringify(body),
          };
    try {
      const send = (o.fetch as typeof fetch | undefined) ?? globalThis.fetch;
      return { route, response: await send(`${base}/${path}`, init) };
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      throw new ChunklogError('request-failed', `${route} got no answer: ${why}`, {
        value: { status: null },
        cause: error,
      });
    }
  };
  /** The JSON answer of a successful response; `request-failed` for any other. */
  const ok = async <T>(route: string, response: Response): Promise<T> => {
    if (!response.ok) throw await failure(route, response);
    const type = response.headers.get('content-type');
    if (!isJson(type)) {
      // A stream (the handlers of an older version, a proxy's page): not read to its end.
      await response.body?.cancel().catch(() => {});
      throw new ChunklogError(
        'request-failed',
        `${route} answered ${response.status} with ${type ?? 'no content type'}, not JSON`,
        { value: { status: response.status, contentType: type } },
      );
    }
    return (await response.json()) as T;
  };
  /** {@link call}, then its JSON answer. */
  const json = async <T>(path: string, body?: unknown): Promise<T> => {
    const { route, response } = await call(path, body);
    return await ok<T>(route, response);
  };

  return {
    threadId,
    eventsUrl: `${base}/events`,
    async loadPage({ limit, before }) {
      const query = new URLSearchParams({ limit: String(limit) });
      if (before !== undefined) query.set('before', String(before));
      return await json<ChunkPage>(`chunks?${query}`);
    },
    async send(text, sendOptions = {}) {
      const turnId = sendOptions.turnId;
      const body = { text, mode: 'send', ...(turnId !== undefined ? { turnId } : {}) };
      return await json<SentMessage>('messages', body);
    },
    async steer(text) {
      return await json<{ steeringId: string }>('messages', { text, mode: 'steer' });
    },
    async cancel(cancelOptions = {}) {
      const body: Record<string, string> = {};
      if (cancelOptions.reason !== undefined) body.reason = cancelOptions.reason;
      if (cancelOptions.turnId !== undefined) body.turnId = cancelOptions.turnId;
      const { route, response } = await call('cancel', body);
      if (response.status === 409) return false;
      await ok(route, response);
      return true;
    },
    async notify(text, kind = 'notice') {
      return await json<{ routed: string; turnId: string }>('notices', { text, kind });
    },
    async edit(turnId, text) {
      return await json<SentMessage>('messages', { text, edit: turnId });
    },
    async regenerate(turnId) {
      return await json<SentMessage>('messages', { regenerate: turnId });
    },
    async alternatives() {
      return await json<unknown>('alternatives');
    },
    async switchAlternative(threadId) {
      return await json<unknown>('alternatives', { threadId });
    },
  };
}
