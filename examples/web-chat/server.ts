// The web chat's server: Node's `http`, one agent session per thread over an SQLite file, and
// chunklog's handlers for pages, live events, messages (sends and steering), cancel and notices.
// Everything is one fetch-style handler mounted with `toNodeListener`; the page's script is
// bundled with esbuild at start-up.
import { mkdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { ChunklogError } from 'chunklog';
import {
  type AgentSession,
  createAgentSession,
  createChunkHandlers,
  toNodeListener,
} from 'chunklog/session';
import { type ChunkStore, createChunkStore } from 'chunklog/store';
import { build } from 'esbuild';
import { sessionModelOptions } from '../shared/providers.js';
import { chatModels } from '../shared/scripted-agent.js';
import { chatTools } from '../shared/tools.js';
import { createSessionPool } from './session-pool.js';

export interface WebChatOptions {
  /** The SQLite file (created if missing). */
  readonly db: string;
  /** 0 picks a free port. */
  readonly port: number;
  /** Default eviction limit of the page (it can be changed with `?limit=`). */
  readonly limit: number;
  /** A thread's session is closed after this long without use, in milliseconds. Default 10 minutes. */
  readonly idleSessionMs?: number | undefined;
}

export interface WebChat {
  readonly url: string;
  readonly store: ChunkStore;
  close(): Promise<void>;
}

const THREAD_ID = /^[\w.~-]{1,64}$/;

/** Bundles the page's script: plain TypeScript, `chunklog/window` resolved from the package. */
async function bundleClient(): Promise<string> {
  const result = await build({
    entryPoints: [join(import.meta.dirname, 'client', 'main.ts')],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    write: false,
    logLevel: 'silent',
  });
  return result.outputFiles[0]?.text ?? '';
}

export async function startWebChat(options: WebChatOptions): Promise<WebChat> {
  mkdirSync(dirname(options.db), { recursive: true });
  const store = createChunkStore({ sqlite: options.db });
  await store.migrate();
  const models = chatModels();

  // One session per thread asked about, closed again after a while without use.
  const sessions = createSessionPool({
    idleMs: options.idleSessionMs ?? 10 * 60_000,
    create: (threadId) =>
      createAgentSession({
        store,
        threadId,
        ...sessionModelOptions(models),
        tools: chatTools,
        system: 'You are a helpful assistant in a small web chat. Keep answers short.',
      }),
  });
  const sweeper = setInterval(
    () => void sessions.sweep(),
    Math.max(1000, (options.idleSessionMs ?? 10 * 60_000) / 2),
  );
  sweeper.unref();
  const sessionOf = (threadId: string): AgentSession | undefined =>
    THREAD_ID.test(threadId) ? sessions.get(threadId) : undefined;

  const handlers = createChunkHandlers({
    store,
    sessions: sessionOf,
    basePath: '/api',
    // An example on 127.0.0.1: everyone may read and write every thread. A real app checks the
    // user's session here and answers 'unauthenticated' or false.
    authorize: (_request, threadId) => THREAD_ID.test(threadId),
  });

  const script = await bundleClient();
  const page = readFileSync(join(import.meta.dirname, 'client', 'index.html'), 'utf8').replace(
    '__LIMIT__',
    String(options.limit),
  );
  const styles = readFileSync(join(import.meta.dirname, 'client', 'styles.css'), 'utf8');
  const security = {
    // Model output is rendered as text; the policy is a second wall in case that ever slips.
    'content-security-policy':
      "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'",
    'x-content-type-options': 'nosniff',
  };
  const file = (body: string, type: string) =>
    new Response(body, { headers: { 'content-type': type, ...security } });

  async function fetch(request: Request): Promise<Response> {
    const url = new URL(request.url);
    if (request.method === 'GET' && url.pathname === '/')
      return file(page, 'text/html; charset=utf-8');
    if (request.method === 'GET' && url.pathname === '/app.js')
      return file(script, 'text/javascript; charset=utf-8');
    if (request.method === 'GET' && url.pathname === '/styles.css')
      return file(styles, 'text/css; charset=utf-8');
    // chunklog's routes: pages, live events, messages, cancel and notices.
    if (url.pathname.startsWith('/api/')) return handlers.fetch(request);
    return new Response('Not found', { status: 404 });
  }

  const listener = toNodeListener(async (request) => {
    try {
      return await fetch(request);
    } catch (error) {
      const status = ChunklogError.isInstance(error) ? 400 : 500;
      return Response.json({ error: error instanceof Error ? error.message : 'error' }, { status });
    }
  });
  const server: Server = createServer(listener);
  await new Promise<void>((resolve) => server.listen(options.port, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/`,
    store,
    async close() {
      clearInterval(sweeper);
      await sessions.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await store.close();
    },
  };
}
