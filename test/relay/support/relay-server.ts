// One server instance of the several-instances tests: a store (a SQLite file shared by the
// instances), a session per thread with the relay, the handlers with the relay, and a test route
// that releases the turn waiting in its tool. Prints `PORT <n>` once it listens.
//   RELAY=redis|postgres  PREFIX=<keys or table>  DB=<sqlite file>  NAME=<instance name>
import { createServer } from 'node:http';
import { tool } from 'ai';
import { Redis } from 'ioredis';
import pg from 'pg';
import { z } from 'zod';
import {
  type AgentSession,
  createAgentSession,
  createChunkHandlers,
  toNodeListener,
} from '../../../src/entries/session.js';
import { createPostgresRelay, createRedisRelay, type Relay } from '../../../src/relay/index.js';
import { createChunkStore, guardPgPool } from '../../../src/store/index.js';
import { createScriptedModel } from '../../../src/testing/index.js';

const env = process.env;
const name = env.NAME ?? 'server';
const store = createChunkStore({ sqlite: env.DB as string });
await store.migrate();

let relay: Relay;
if (env.RELAY === 'postgres') {
  const pool = guardPgPool(new pg.Pool({ connectionString: env.RELAY_URL, max: 8 }));
  pool.on('error', () => {});
  const postgres = createPostgresRelay({ pool, table: env.PREFIX });
  await postgres.migrate();
  relay = postgres;
} else {
  const redis = new Redis(env.RELAY_URL as string, { maxRetriesPerRequest: 1 });
  redis.on('error', () => {});
  relay = createRedisRelay({ redis, prefix: env.PREFIX });
}

// The turn of "hold" waits in its tool, and "deltas N" before its N deltas, for one
// POST /test/release each (a release that comes first is kept for the next wait).
let permits = 0;
const waiters: Array<() => void> = [];
const release = (): void => {
  const next = waiters.shift();
  if (next === undefined) permits++;
  else next();
};
const gate = (): Promise<void> => {
  if (permits > 0) {
    permits--;
    return Promise.resolve();
  }
  return new Promise((resolve) => waiters.push(resolve));
};
const wait = tool({
  inputSchema: z.object({}),
  execute: async (_input, { abortSignal }) => {
    await Promise.race([
      gate(),
      new Promise((resolve) => abortSignal?.addEventListener('abort', resolve, { once: true })),
    ]);
    return 'released';
  },
});
/** Where the turn's own user message is in the prompt (the last "hold" or "deltas N"), and its text. */
function turnMessage(prompt: readonly { role: string; content: unknown }[]): {
  at: number;
  text: string;
} {
  for (let i = prompt.length - 1; i >= 0; i--) {
    const message = prompt[i] as { role: string; content: unknown };
    if (message.role !== 'user' || !Array.isArray(message.content)) continue;
    const part = message.content[0] as { type: string; text?: string } | undefined;
    const text = part?.type === 'text' ? (part.text ?? '') : '';
    if (/^(hold|deltas \d+)$/.test(text)) return { at: i, text };
  }
  return { at: -1, text: '' };
}
const model = createScriptedModel((call) => {
  const prompt = call.prompt as unknown as { role: string; content: unknown }[];
  const { at, text } = turnMessage(prompt);
  if (text.startsWith('deltas ')) {
    const count = Number(text.slice(7));
    return {
      parts: [
        { type: 'wait', until: gate },
        { type: 'text', text: Array.from({ length: count }, (_, i) => `${i} `) },
      ],
    };
  }
  if (prompt.slice(at + 1).some((m) => m.role === 'tool')) {
    return { parts: [{ type: 'text', text: 'Done waiting.' }] };
  }
  return {
    parts: [
      { type: 'text', text: 'Waiting.' },
      { type: 'tool-call', toolName: 'wait', input: {} },
    ],
  };
});

const sessions = new Map<string, AgentSession>();
const sessionOf = (threadId: string): AgentSession => {
  let session = sessions.get(threadId);
  if (session === undefined) {
    session = createAgentSession({ store, threadId, model, tools: { wait }, relay });
    sessions.set(threadId, session);
  }
  return session;
};
const common = {
  store,
  authorize: () => true,
  sessions: sessionOf,
  relay,
  heartbeatMs: 0,
  maxConnectionsPerThread: 1000,
};
// JSON routes at the root; the UI message stream ones (useChat) under /ui.
const handlers = createChunkHandlers(common);
const uiHandlers = createChunkHandlers({ ...common, basePath: '/ui', uiMessageStream: true });
const listener = toNodeListener(async (request) => {
  const path = new URL(request.url).pathname;
  if (path === '/test/release') {
    release();
    return new Response('released');
  }
  if (path === '/test/idle') {
    await Promise.all([...sessions.values()].map((s) => s.idle()));
    return new Response('idle');
  }
  const response = await (path.startsWith('/ui/') ? uiHandlers : handlers).fetch(request);
  response.headers.set('x-instance', name);
  return response;
});
const server = createServer((req, res) => listener(req, res));
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(
    `PORT ${typeof address === 'object' && address !== null ? address.port : 0}\n`,
  );
});
process.on('SIGTERM', () => process.exit(0));
