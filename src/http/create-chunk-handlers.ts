import { ChunklogError } from '../errors/index.js';
import { readOptions, requireMethods } from '../errors/invalid-option.js';
import { checkRelay } from '../live/check-relay.js';
import type { AgentSession } from '../session/types.js';
import { alternativesRoute } from './alternatives-route.js';
import { checkAccess } from './authorize.js';
import { cancelRoute } from './cancel-route.js';
import { chunksRoute } from './chunks-route.js';
import { ThreadConnections } from './connection-limit.js';
import { noSessionHere } from './control.js';
import { type EventStreamLimits, eventsRoute, streamRoute } from './live-routes.js';
import { prefersJson } from './media-type.js';
import { type MessageTarget, messagesRoute } from './messages-route.js';
import { noticesRoute } from './notices-route.js';
import { decodeThreadId, type Parsed, readJsonObject, readOptionalJsonObject } from './params.js';
import { errorResponse } from './responses.js';
import { SharedTurnStreams } from './shared-turn-streams.js';
import { guardThreadRoute, type ThreadRoute } from './thread-route.js';
import type { ChunkHandlers, ChunkHandlersOptions, UIMessageStreamRouteOptions } from './types.js';
import { uiMessagesRoute } from './ui-messages-route.js';

const WHERE = 'createChunkHandlers';

function invalid(option: string, message: string, value: unknown): never {
  throw new ChunklogError('invalid-option', `${WHERE}: ${message}`, { option, value });
}

function positiveInteger(option: string, value: unknown, fallback: number, min = 1): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min) {
    invalid(option, `\`${option}\` must be an integer ≥ ${min}`, value);
  }
  return value;
}

/** The default of `maxConnectionsPerThread`: open event streams of one thread. */
export const DEFAULT_MAX_CONNECTIONS_PER_THREAD = 100;

/** The default of `maxConnections`: open event streams of all threads together. */
export const DEFAULT_MAX_CONNECTIONS = 10_000;

const HANDLER_OPTIONS = [
  'store',
  'authorize',
  'session',
  'sessions',
  'basePath',
  'defaultLimit',
  'maxLimit',
  'heartbeatMs',
  'maxBodyBytes',
  'maxQueuedBytes',
  'maxConnectionsPerThread',
  'maxConnections',
  'uiMessageStream',
  'relay',
] as const;

const route =
  /^\/threads\/([^/]+)\/(chunks|events|messages|cancel|notices|stream|alternatives)\/?$/;
// The AI SDK transport's default reconnect URL, `{api}/{chatId}/stream`, for
// `api: '/threads/:id/messages'` and the chat's id being the thread's.
const chatStreamRoute = /^\/threads\/([^/]+)\/messages\/([^/]+)\/stream\/?$/;
/** The routes of a thread, each a handler of its own besides `fetch`. */
type RouteKind = Exclude<keyof ChunkHandlers, 'fetch'>;
const methods: Readonly<Record<RouteKind, readonly string[]>> = {
  chunks: ['GET'],
  events: ['GET'],
  messages: ['POST'],
  cancel: ['POST'],
  notices: ['POST'],
  stream: ['GET'],
  alternatives: ['GET', 'POST'],
};

/**
 * Creates web-standard `Request → Response` handlers for a thread's log and live turn:
 *
 * - `GET /threads/:id/chunks?limit&before` — a page of the log (`{ chunks, total, oldestSeq,
 *   hasMore }`), newest rows first by keyset on `seq`; of a conversation with alternatives, its
 *   active path's (`store.activePath`, read once per request), every row with the
 *   conversation's id as `threadId`;
 * - `GET /threads/:id/events` — server-sent events of the live turn; ids are
 *   `${turnId}:${index}`, so a reconnecting client (`Last-Event-ID`) resumes with no gap and no
 *   duplicate;
 * - `POST /threads/:id/messages` — `{ text, mode?: 'send' | 'steer' }` starts or steers a turn;
 *   `{ text, edit: turnId }` edits and `{ regenerate: turnId }` regenerates a stored turn of the
 *   active path (`session.edit`, `session.regenerate`: a new alternative, the old version kept);
 *   with `uiMessageStream`, it also takes the body of `useChat`'s transport (`sendMessage`,
 *   `sendMessage({ text, messageId })` to edit, `regenerate()`) and answers with the turn in the
 *   AI SDK UI message stream protocol, unless the request's `Accept` prefers `application/json`
 *   to `text/event-stream` (as `createThreadClient` sends): that one gets the 202 JSON answer;
 * - `GET /threads/:id/alternatives` — the conversation's active path, branch points and every
 *   version (`store.getAlternatives`); `POST /threads/:id/alternatives` `{ threadId }` makes that
 *   path active (`store.switchAlternative`); both answer 200
 *   `{ conversationId, activePath, branches, versions }`;
 * - `POST /threads/:id/cancel` — `{ reason?, turnId? }` (or no body) cancels the running turn:
 *   202 `{ turnId }`, or 409 `not-running` when no turn (or not that turn) runs;
 * - `POST /threads/:id/notices` — `{ text, kind?: 'notice' | 'config-reload' }` records a system
 *   notice (`session.notify`): 202 `{ routed, turnId }`;
 * - `GET /threads/:id/stream` — with `uiMessageStream`: the running turn in the UI message stream
 *   protocol from its start, so that `useChat({ resume: true })` picks it up after a reload; 204
 *   when no turn runs. `GET /threads/:id/messages/:id/stream` (the same thread id twice) answers
 *   the same: it is where `DefaultChatTransport({ api: '/threads/:id/messages' })` reconnects by
 *   default.
 *
 * Every request goes through `authorize(request, threadId)` first, which is required and denies
 * unless it returns `true`. Bad parameters get a 400 whose JSON body names the parameter. They
 * mount in Node's `http` (see {@link toNodeListener}), Hono, or any fetch-style server.
 *
 * @param options - the store, `authorize`, and the session(s)
 * @returns the handlers; `fetch` routes them all
 * @throws {ChunklogError} `invalid-option` when `authorize` is missing or an option is malformed
 *
 * @example
 * ```ts
 * const handlers = createChunkHandlers({
 *   store,
 *   session,
 *   authorize: (request, threadId) => request.headers.get('authorization') === `Bearer ${tokenFor(threadId)}`,
 * });
 * Bun.serve({ fetch: handlers.fetch }); // or Hono: app.all('/threads/*', (c) => handlers.fetch(c.req.raw))
 * ```
 */
export function createChunkHandlers(options: ChunkHandlersOptions): ChunkHandlers {
  if (typeof options !== 'object' || options === null)
    invalid('options', 'options are required', options);
  readOptions(options, 'createChunkHandlers', HANDLER_OPTIONS);
  const { store, authorize, session, sessions } = options;
  if (typeof authorize !== 'function') {
    invalid(
      'authorize',
      '`authorize(request, threadId)` is required (there is no default allow)',
      authorize,
    );
  }
  requireMethods(WHERE, 'store', store, ['getChunks'], 'a ChunkStore');
  if (session !== undefined) {
    requireMethods(WHERE, 'session', session, ['subscribe'], 'an AgentSession');
  }
  if (sessions !== undefined && typeof sessions !== 'function') {
    invalid('sessions', '`sessions` must be a function of the thread id', sessions);
  }
  if (options.basePath !== undefined && typeof options.basePath !== 'string') {
    invalid('basePath', '`basePath` must be a string', options.basePath);
  }
  const basePath = (options.basePath ?? '').replace(/\/+$/, '');
  if (basePath !== '' && !basePath.startsWith('/'))
    invalid('basePath', '`basePath` must start with /', basePath);
  const maxLimit = positiveInteger('maxLimit', options.maxLimit, 1000);
  const defaultLimit = positiveInteger(
    'defaultLimit',
    options.defaultLimit,
    Math.min(50, maxLimit),
  );
  if (defaultLimit > maxLimit)
    invalid('defaultLimit', '`defaultLimit` must not exceed `maxLimit`', defaultLimit);
  const heartbeatMs = positiveInteger('heartbeatMs', options.heartbeatMs, 15_000, 0);
  const maxBodyBytes = positiveInteger('maxBodyBytes', options.maxBodyBytes, 65_536);
  // Kept for compatibility: live streams read the relay at each client's pace and hold no queue.
  positiveInteger('maxQueuedBytes', options.maxQueuedBytes, 1);
  const streamLimits: EventStreamLimits = {
    heartbeatMs,
    connections: new ThreadConnections(
      positiveInteger(
        'maxConnectionsPerThread',
        options.maxConnectionsPerThread,
        DEFAULT_MAX_CONNECTIONS_PER_THREAD,
      ),
      positiveInteger('maxConnections', options.maxConnections, DEFAULT_MAX_CONNECTIONS),
    ),
  };
  const relay = checkRelay(options.relay, 'createChunkHandlers');
  const { uiMessageStream } = options;
  if (
    uiMessageStream !== undefined &&
    typeof uiMessageStream !== 'boolean' &&
    (typeof uiMessageStream !== 'object' || uiMessageStream === null)
  ) {
    invalid(
      'uiMessageStream',
      '`uiMessageStream` must be a boolean or the stream options',
      uiMessageStream,
    );
  }
  const streamOptions = resolveStreamOptions(
    typeof uiMessageStream === 'object' && uiMessageStream !== null
      ? checkStreamOptions(uiMessageStream)
      : {},
    heartbeatMs,
  );
  const sharedStreams = new SharedTurnStreams(streamOptions);

  const findSession = async (threadId: string): Promise<AgentSession | undefined> => {
    if (session !== undefined && session.threadId === threadId) return session;
    return sessions === undefined ? undefined : await sessions(threadId);
  };
  /**
   * Where a thread's live events and control go: the handlers' relay, else the relay of the
   * thread's session on this process (its own in-process one by default). One path either way.
   */
  const targetOf = async (threadId: string): Promise<MessageTarget | undefined> => {
    const here = await findSession(threadId);
    const through = relay ?? here?.relay;
    return through === undefined ? undefined : { relay: through, threadId, session: here, store };
  };
  const closedSignal = (target: MessageTarget): AbortSignal | undefined => target.session?.signal;
  /** Answers a JSON object body with `route`; a body that could not be read, with its 415, 413 or 400. */
  const withBody = async (
    read: Promise<Parsed<Record<string, unknown>>>,
    route: (body: Record<string, unknown>) => Promise<Response>,
  ): Promise<Response> => {
    const body = await read;
    return body.ok ? await route(body.value) : body.response;
  };

  const routes: Record<RouteKind, ThreadRoute> = {
    async chunks(request, threadId) {
      const denied = await checkAccess(authorize, request, threadId);
      if (denied) return denied;
      return chunksRoute(store, new URL(request.url), threadId, { defaultLimit, maxLimit });
    },
    async events(request, threadId) {
      const denied = await checkAccess(authorize, request, threadId);
      if (denied) return denied;
      const target = await targetOf(threadId);
      if (target === undefined) return noSessionHere();
      const url = new URL(request.url);
      return eventsRoute(request, url, target.relay, threadId, streamLimits, closedSignal(target));
    },
    async messages(request, threadId) {
      const denied = await checkAccess(authorize, request, threadId);
      if (denied) return denied;
      const target = await targetOf(threadId);
      if (target === undefined) return noSessionHere();
      // A client that asks for JSON (`createThreadClient`: `Accept: application/json`) gets the
      // 202 JSON answer even with `uiMessageStream`; `useChat`'s transport asks for nothing.
      const streams =
        uiMessageStream !== undefined &&
        uiMessageStream !== false &&
        !prefersJson(request.headers.get('accept'));
      return withBody(readJsonObject(request, maxBodyBytes), (body) =>
        streams ? uiMessagesRoute(body, target, streamOptions) : messagesRoute(body, target),
      );
    },
    async cancel(request, threadId) {
      const denied = await checkAccess(authorize, request, threadId);
      if (denied) return denied;
      // A cancel goes through the relay only: with the handlers' own, no session is looked up
      // (a `sessions` that makes one per lookup would keep one per thread id ever cancelled).
      const through = relay ?? (await targetOf(threadId))?.relay;
      if (through === undefined) return noSessionHere();
      return withBody(readOptionalJsonObject(request, maxBodyBytes), (body) =>
        cancelRoute(body, through, threadId),
      );
    },
    async alternatives(request, threadId) {
      const denied = await checkAccess(authorize, request, threadId);
      if (denied) return denied;
      return alternativesRoute(request, store, threadId, maxBodyBytes);
    },
    async notices(request, threadId) {
      const denied = await checkAccess(authorize, request, threadId);
      if (denied) return denied;
      const target = await targetOf(threadId);
      if (target === undefined) return noSessionHere();
      return withBody(readJsonObject(request, maxBodyBytes), (body) =>
        noticesRoute(body, target.relay, threadId, target.session),
      );
    },
    async stream(request, threadId) {
      if (uiMessageStream === undefined || uiMessageStream === false) {
        return errorResponse(404, 'not-found', 'No such route (enable `uiMessageStream`).');
      }
      const denied = await checkAccess(authorize, request, threadId);
      if (denied) return denied;
      const target = await targetOf(threadId);
      if (target === undefined) return noSessionHere();
      return streamRoute(
        request,
        target.relay,
        threadId,
        sharedStreams,
        streamLimits,
        closedSignal(target),
      );
    },
  };
  // Every route, called by `fetch` or one by one, checks its thread id and answers (never throws).
  const guarded = Object.fromEntries(
    Object.entries(routes).map(([kind, handler]) => [kind, guardThreadRoute(handler)]),
  ) as Record<RouteKind, ThreadRoute>;
  const handlers: ChunkHandlers = {
    ...guarded,
    async fetch(request) {
      const url = new URL(request.url);
      const path = url.pathname;
      if (basePath !== '' && path !== basePath && !path.startsWith(`${basePath}/`)) {
        return errorResponse(404, 'not-found', 'No such route.');
      }
      const rest = path.slice(basePath.length);
      const chat = chatStreamRoute.exec(rest);
      const match =
        chat !== null && sameSegment(chat[1] as string, chat[2] as string)
          ? [rest, chat[1], 'stream']
          : route.exec(rest);
      if (!match) return errorResponse(404, 'not-found', 'No such route.');
      const kind = match[2] as RouteKind;
      const allowed = methods[kind];
      if (!allowed.includes(request.method)) {
        return errorResponse(405, 'method-not-allowed', `Use ${allowed.join(' or ')}.`, {
          headers: { allow: allowed.join(', ') },
        });
      }
      const threadId = decodeThreadId(match[1] as string);
      if (!threadId.ok) return threadId.response;
      return await guarded[kind](request, threadId.value);
    },
  };
  return handlers;
}

/** The longest timer delay (ms) that Node and the AI SDK take. */
const MAX_TIMER_MS = 2_147_483_647;

/**
 * The UI message stream's options as sent: keep-alive comments every `keepAliveMs`, by default
 * the handlers' `heartbeatMs` (15 s), so that a proxy does not cut a turn during a long tool
 * call; 0 (in either) for none.
 */
function resolveStreamOptions(
  checked: UIMessageStreamRouteOptions,
  heartbeatMs: number,
): UIMessageStreamRouteOptions {
  const { keepAliveMs: given, ...rest } = checked;
  const keepAliveMs = given ?? heartbeatMs;
  return keepAliveMs === 0 ? rest : { ...rest, keepAliveMs };
}

/** Checks the `uiMessageStream` options now, rather than on the first request (after its turn started). */
function checkStreamOptions(options: object): UIMessageStreamRouteOptions {
  const o = readOptions(options, 'createChunkHandlers (uiMessageStream)', [
    'sendError',
    'onError',
    'keepAliveMs',
    'headers',
  ]);
  if (o.sendError !== undefined && typeof o.sendError !== 'boolean') {
    invalid('uiMessageStream.sendError', '`sendError` must be a boolean', o.sendError);
  }
  if (o.onError !== undefined && typeof o.onError !== 'function') {
    invalid('uiMessageStream.onError', '`onError` must be a function', o.onError);
  }
  if (
    o.keepAliveMs !== undefined &&
    !(
      Number.isSafeInteger(o.keepAliveMs) &&
      (o.keepAliveMs as number) >= 0 &&
      (o.keepAliveMs as number) <= MAX_TIMER_MS
    )
  ) {
    invalid(
      'uiMessageStream.keepAliveMs',
      `\`keepAliveMs\` must be an integer from 0 (none) to ${MAX_TIMER_MS}`,
      o.keepAliveMs,
    );
  }
  if (o.headers !== undefined && (typeof o.headers !== 'object' || o.headers === null)) {
    invalid('uiMessageStream.headers', '`headers` must be an object', o.headers);
  }
  return o as UIMessageStreamRouteOptions;
}

/**
 * Whether two path segments name the same id once decoded: the AI SDK's transport appends
 * `encodeURIComponent(chatId)` to an `api` path that may hold the id as typed (`user:1` beside
 * `user%3A1`).
 */
function sameSegment(a: string, b: string): boolean {
  if (a === b) return true;
  try {
    return decodeURIComponent(a) === decodeURIComponent(b);
  } catch {
    return false;
  }
}
