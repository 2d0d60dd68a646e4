// The React chat's server: the page (a Vite + React app, built at start-up into `outDir`), one
// agent session per thread over an SQLite file, and chunklog's handlers twice over the same
// sessions: under `/api` (JSON: pages, live events, messages, steer, cancel, notices) for the
// chunk-native view on `chunklog/react`, and under `/ui` with `uiMessageStream` for the view on
// `useChat` from `@ai-sdk/react` (its messages route streams the turn; `/ui/threads/:id/stream`
// resumes it after a reload). Two small routes of the example's own list and create threads for
// the page's thread switcher (`GET /api/threads`, `POST /api/threads`).
import { mkdirSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, extname, join, normalize, resolve } from 'node:path';
import {
  type AgentSession,
  createAgentSession,
  createChunkHandlers,
  toNodeListener,
} from 'chunklog/session';
import { type ChunkStore, createChunkStore } from 'chunklog/store';
import { sessionModelOptions } from '../shared/providers.js';
import { chatModels } from '../shared/scripted-agent.js';
import { chatTools } from '../shared/tools.js';
import { buildClient } from './build.js';

export interface ReactChatOptions {
  /** The SQLite file (created if missing). */
  readonly db: string;
  /** 0 picks a free port. */
  readonly port: number;
  /** Where the built page goes. */
  readonly outDir: string;
}

export interface ReactChat {
  readonly url: string;
  readonly store: ChunkStore;
  close(): Promise<void>;
}

const THREAD_ID = /^[\w.~-]{1,64}$/;
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
};
const SECURITY = {
  // Model output is rendered as text or through react-markdown (no raw HTML, safe URLs); the
  // policy is a second wall in case that ever slips.
  'content-security-policy':
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'",
  'x-content-type-options': 'nosniff',
};

export async function startReactChat(options: ReactChatOptions): Promise<ReactChat> {
  mkdirSync(dirname(options.db), { recursive: true });
  await buildClient(options.outDir);
  const store = createChunkStore({ sqlite: options.db });
  await store.migrate();
  // Offline, a regenerated answer says which one it is, so that its versions differ.
  const models = chatModels(process.env, { markRepeats: true });

  const sessions = new Map<string, AgentSession>();
  const sessionOf = (threadId: string): AgentSession | undefined => {
    if (!THREAD_ID.test(threadId)) return undefined;
    let session = sessions.get(threadId);
    if (session === undefined) {
      session = createAgentSession({
        store,
        threadId,
        ...sessionModelOptions(models),
        tools: chatTools,
        system: 'You are a helpful assistant in a small web chat. Keep answers short.',
      });
      sessions.set(threadId, session);
    }
    return session;
  };
  // An example on 127.0.0.1: everyone may read and write every thread. A real app checks the
  // user's session here and answers 'unauthenticated' or false.
  const authorize = (_request: Request, threadId: string) => THREAD_ID.test(threadId);
  const api = createChunkHandlers({ store, sessions: sessionOf, basePath: '/api', authorize });
  const ui = createChunkHandlers({
    store,
    sessions: sessionOf,
    basePath: '/ui',
    authorize,
    uiMessageStream: true,
  });

  /** The thread switcher's routes: the newest threads, and a new empty one. */
  async function threads(request: Request): Promise<Response> {
    if (request.method === 'GET') {
      const page = await store.listThreads({ limit: 50 });
      // A conversation shows its active path's rows: an edited one reads an alternative's.
      const list = await Promise.all(
        page.threads.map(async ({ id, title, total, updatedAt, activePath }) => ({
          id,
          title,
          total: activePath === undefined ? total : (await store.getThread(activePath)).total,
          updatedAt,
        })),
      );
      return Response.json({ threads: list });
    }
    if (request.method === 'POST') {
      const id = `chat-${crypto.randomUUID().slice(0, 8)}`;
      const thread = await store.createThread(id, { title: `New chat ${id.slice(5)}` });
      return Response.json({ id: thread.id, title: thread.title }, { status: 201 });
    }
    return new Response('Method not allowed', { status: 405, headers: { allow: 'GET, POST' } });
  }

  const root = resolve(options.outDir);
  const page = readFileSync(join(root, 'index.html'), 'utf8');
  function file(path: string): Response {
    const full = normalize(join(root, path));
    const stat = full.startsWith(`${root}/`)
      ? statSync(full, { throwIfNoEntry: false })
      : undefined;
    if (!stat?.isFile()) return new Response('Not found', { status: 404 });
    const type = TYPES[extname(full)] ?? 'application/octet-stream';
    return new Response(readFileSync(full), { headers: { 'content-type': type, ...SECURITY } });
  }

  const listener = toNodeListener(async (request) => {
    const { pathname } = new URL(request.url);
    if (pathname === '/api/threads') return threads(request);
    if (pathname.startsWith('/api/')) return api.fetch(request);
    if (pathname.startsWith('/ui/')) return ui.fetch(request);
    if (request.method !== 'GET') return new Response('Not found', { status: 404 });
    if (pathname.startsWith('/assets/')) return file(pathname);
    // Every other path is the app (it reads the view and the thread from the URL).
    return new Response(page, {
      headers: { 'content-type': 'text/html; charset=utf-8', ...SECURITY },
    });
  });
  const server: Server = createServer(listener);
  await new Promise<void>((done) => server.listen(options.port, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/`,
    store,
    async close() {
      await Promise.all([...sessions.values()].map((session) => session.close()));
      server.closeAllConnections();
      await new Promise((done) => server.close(done));
      await store.close();
    },
  };
}
