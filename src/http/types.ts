import type { Relay } from '../live/relay.js';
import type { ChunkPage } from '../schema/chunk-page.js';
import type { AgentSession } from '../session/types.js';
import type { Alternatives } from '../store/types.js';
import type { ToUIMessageStreamResponseOptions } from '../ui-messages/index.js';

/**
 * A page of a thread's log, the store's page shape `{ chunks, total, oldestSeq, hasMore }`: the
 * core's {@link ChunkPage}, under the name the handlers first gave it.
 *
 * @example
 * ```ts
 * const page: ChunkPageLike = await store.getChunks(threadId, { limit: 50 });
 * ```
 */
export type ChunkPageLike = ChunkPage;

/**
 * What the handlers need of a store: pages of a thread's log, and a conversation's alternatives.
 * Every `ChunkStore` fits (`{ store: createChunkStore(...) }`). A store without `activePath` is
 * read thread by thread; without `getAlternatives` / `switchAlternative`, `…/alternatives` is 404.
 */
export interface PageStore {
  getChunks(
    threadId: string,
    options: { readonly limit: number; readonly before?: number | undefined },
  ): Promise<ChunkPageLike>;
  /** `ChunkStore.activePath`: the path of a conversation a request reads. */
  activePath?(conversationId: string): Promise<string>;
  /** `ChunkStore.getAlternatives`, for `GET …/alternatives`. */
  getAlternatives?(conversationId: string): Promise<Alternatives>;
  /** `ChunkStore.switchAlternative`, for `POST …/alternatives`. */
  switchAlternative?(conversationId: string, threadId: string): Promise<Alternatives>;
}

/**
 * What `authorize` decides: `true` lets the request through; `false` or `'forbidden'` answers
 * 403, `'unauthenticated'` answers 401; a `Response` is sent as it is (with a
 * `WWW-Authenticate` header, say). Anything else denies (403).
 *
 * @example
 * ```ts
 * const decide = (user: User | undefined, threadId: string): AuthorizeResult =>
 *   user === undefined ? 'unauthenticated' : user.threads.includes(threadId);
 * ```
 */
export type AuthorizeResult = boolean | 'unauthenticated' | 'forbidden' | Response;

/**
 * Decides whether a request may read or write a thread. Required; deny by default.
 *
 * @example
 * ```ts
 * const authorize: Authorize = async (request, threadId) => (await sessionUser(request))?.owns(threadId) ?? 'unauthenticated';
 * ```
 */
export type Authorize = (
  request: Request,
  threadId: string,
) => AuthorizeResult | Promise<AuthorizeResult>;

/** Finds the live session of a thread (or undefined when the thread has none running here), for example `(id) => sessions.get(id)`. */
export type SessionLookup = (
  threadId: string,
) => AgentSession | undefined | Promise<AgentSession | undefined>;

/**
 * Options of {@link createChunkHandlers}.
 *
 * @example
 * ```ts
 * const options: ChunkHandlersOptions = { store, session, authorize, basePath: '/api' };
 * ```
 */
export interface ChunkHandlersOptions {
  /** The store pages are read from. */
  readonly store: PageStore;
  /** Called for every request with the thread it targets. Required: there is no default allow. */
  readonly authorize: Authorize;
  /** The session of a single thread (requests for other threads go to `sessions`, else get 404). */
  readonly session?: AgentSession | undefined;
  /** The session of any thread, for a server with one session per thread. */
  readonly sessions?: SessionLookup | undefined;
  /** A prefix the routes live under, for example `/api`. Default: none. */
  readonly basePath?: string | undefined;
  /** The page size when `limit` is not given. Default 50. */
  readonly defaultLimit?: number | undefined;
  /** The most rows a page holds: a larger `limit` is capped to it. Default 1,000. */
  readonly maxLimit?: number | undefined;
  /**
   * Milliseconds between SSE keep-alive comments on the event streams, and on the UI message
   * streams unless `uiMessageStream.keepAliveMs` says otherwise; 0 for none. Default 15,000.
   */
  readonly heartbeatMs?: number | undefined;
  /** The largest POST body accepted, in bytes. Default 65,536. */
  readonly maxBodyBytes?: number | undefined;
  /**
   * Accepted for compatibility (an integer ≥ 1) and no longer used: a live stream reads the relay
   * at its client's pace and holds no queue of its own.
   *
   * @deprecated nothing is queued for a client any more
   */
  readonly maxQueuedBytes?: number | undefined;
  /**
   * The most open live streams (`GET …/events` and `…/stream` together) of one thread; the next
   * gets a 429 `too-many-connections` until one closes. Default 100.
   */
  readonly maxConnectionsPerThread?: number | undefined;
  /**
   * The most open live streams of all threads together, so that many threads cannot take every
   * socket and relay reader of the process; the next gets a 429 `too-many-connections` until one
   * closes. Default 10,000.
   */
  readonly maxConnections?: number | undefined;
  /**
   * Answers `POST …/messages` in the AI SDK UI message stream protocol, so that a `useChat`
   * client (its default `DefaultChatTransport`, pointed at this route) sends a message and reads
   * the turn it starts: the body may be the chat transport's (`{ messages }` or `{ message }`;
   * the last user message's text is sent) and the response streams the turn's assistant message
   * (see `toUIMessageStreamResponse`). `true`, or the stream's options. Steering stays JSON, and
   * so does the answer to a request whose `Accept` prefers `application/json` to
   * `text/event-stream` (`createThreadClient` sends `Accept: application/json`): 202
   * `{ turnId, queued }`, as without the option.
   */
  readonly uiMessageStream?: boolean | UIMessageStreamRouteOptions | undefined;
  /**
   * Reads live events and reaches running turns through a relay, so that any instance serves
   * any thread: `…/events` and `…/stream` read the relay (no session needed on this instance),
   * and cancel, steering and notices go to the process that runs the turn when it is not this
   * one. Give the sessions the same relay (`createAgentSession({ relay })`). Default: none (the
   * local session only).
   */
  readonly relay?: Relay | undefined;
}

/** How {@link ChunkHandlersOptions.uiMessageStream} sends the stream. */
export type UIMessageStreamRouteOptions = Pick<
  ToUIMessageStreamResponseOptions,
  'sendError' | 'onError' | 'keepAliveMs' | 'headers'
>;

/**
 * Web-standard handlers of a thread's chunks, live events and messages. Besides `fetch`, each
 * route's handler takes the thread id decoded from the path (for a router of the app's own) and
 * answers as `fetch` does: a thread id that breaks the id rule gets a 400 naming `threadId`
 * (before `authorize`), and what throws on the way a 500 `internal`; none rejects.
 *
 * @example
 * ```ts
 * const response = await handlers.fetch(new Request('http://x/threads/t1/chunks?limit=50', { headers }));
 * ```
 */
export interface ChunkHandlers {
  /**
   * Routes a request: `GET {basePath}/threads/:id/chunks`, `GET {basePath}/threads/:id/events`,
   * `POST {basePath}/threads/:id/messages`, `POST {basePath}/threads/:id/cancel`,
   * `POST {basePath}/threads/:id/notices`, `GET {basePath}/threads/:id/stream`,
   * `GET|POST {basePath}/threads/:id/alternatives`. Anything else is 404 (or 405 for a known path).
   */
  fetch(request: Request): Promise<Response>;
  /** `GET …/chunks?limit&before`: a page of the thread's log as JSON. */
  chunks(request: Request, threadId: string): Promise<Response>;
  /** `GET …/events`: server-sent events of the live turn, resumable with `Last-Event-ID`. */
  events(request: Request, threadId: string): Promise<Response>;
  /**
   * `POST …/messages` `{ text, mode?: 'send' | 'steer', turnId? }`: starts (or steers) a turn;
   * `{ text, edit: turnId }` and `{ regenerate: turnId }` start a new version of a stored turn.
   */
  messages(request: Request, threadId: string): Promise<Response>;
  /**
   * `GET …/alternatives`: the conversation's active path, branch points and every version
   * (`store.getAlternatives`); `POST …/alternatives` `{ threadId }`: makes that path active
   * (`store.switchAlternative`). 200 JSON `{ conversationId, activePath, branches, versions }`
   * either way.
   */
  alternatives(request: Request, threadId: string): Promise<Response>;
  /**
   * `POST …/cancel` `{ reason?, turnId? }` (or no body): cancels the running turn; 202
   * `{ turnId }`, or 409 `not-running` when no turn runs (or `turnId` is not the one running).
   */
  cancel(request: Request, threadId: string): Promise<Response>;
  /**
   * `POST …/notices` `{ text, kind?: 'notice' | 'config-reload' }`: a system notice
   * (`session.notify`); 202 `{ routed, turnId }`.
   */
  notices(request: Request, threadId: string): Promise<Response>;
  /**
   * `GET …/stream` (with `uiMessageStream`): the running turn in the UI message stream protocol
   * from its start, for `useChat`'s `resume`; 204 when no turn runs, 404 without `uiMessageStream`.
   */
  stream(request: Request, threadId: string): Promise<Response>;
}
