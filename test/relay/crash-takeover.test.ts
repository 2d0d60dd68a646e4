// A turn taken over after a crash streams on through the relay (issue 12): instance A (a child
// process) runs the scripted 5-step turn with durability 'step', a short lease and recovery
// 'continue', and is SIGKILLed inside the tool of its third step (it says over IPC when it is
// there). SSE clients follow the thread through instance B (this process: the handlers on the
// relay, and the documented takeover wiring). B's session takes the lease over once it expires
// and continues the turn; the clients receive the rest of it, numbered on after the last event A
// published, then its end. A client that dropped before the crash resumes with its Last-Event-ID.
// The stored turn equals an uninterrupted run's apart from one `resumed` row; a window that folded
// the events and reconciled holds exactly the stored turn. Once on Redis, once on PostgreSQL
// (the store: PostgreSQL).
import { type ChildProcess, fork } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import {
  type AgentSession,
  createAgentSession,
  createChunkHandlers,
  toNodeListener,
} from '../../src/entries/session.js';
import { parseEventId } from '../../src/live/replay-buffer.js';
import { createPostgresRelay, createRedisRelay, type Relay } from '../../src/relay/index.js';
import type { ChunkEvent } from '../../src/schema/chunk-event.js';
import type { ChunkRow } from '../../src/schema/chunk-row.js';
import { guardPgPool } from '../../src/store/index.js';
import { groupRowsToMessages } from '../../src/transforms/index.js';
import { ChunkWindow } from '../../src/window/index.js';
import { durableScript, durableTools, stepOf } from '../session/support/durable-script.js';
import { createHarness, type DialectHarness } from '../store/support/dialects.js';
import { POSTGRES_URL, postgresAvailable, REDIS_URL, redisAvailable } from '../support/services.js';
import { readSse, type SseFrame } from './support/sse-reader.js';
import { takeOverWiring } from './support/take-over.js';

(globalThis as { AI_SDK_LOG_WARNINGS?: unknown }).AI_SDK_LOG_WARNINGS = false;

const hasPostgres = await postgresAvailable();
const hasRedis = await redisAvailable();
const harnesses: DialectHarness[] = [];
afterAll(async () => {
  for (const h of harnesses) await h.dispose();
});

/** Long enough that a loaded machine still renews A's lease in time; the test waits it out. */
const TTL_MS = 4_000;
const THREAD = 'crashed';

/** A row without its seq and what differs between threads. */
function body(row: ChunkRow): unknown {
  return { turnId: row.turnId, step: row.step, role: row.role, type: row.type, data: row.data };
}
const isResumed = (row: ChunkRow) => row.type === 'system' && row.data.kind === 'resumed';

interface Received {
  readonly id: string;
  readonly index: number;
  readonly event: ChunkEvent;
}
function received(frame: SseFrame): Received | undefined {
  if (frame.id === undefined) return undefined;
  return {
    id: frame.id,
    index: parseEventId(frame.id)?.index ?? Number.NaN,
    event: JSON.parse(frame.data) as ChunkEvent,
  };
}

/** A relay of this process on the shared prefix (Redis) or table (PostgreSQL). */
async function openRelay(
  kind: 'redis' | 'postgres',
  prefix: string,
  close: Array<() => Promise<void>>,
): Promise<Relay> {
  if (kind === 'postgres') {
    const pool = guardPgPool(new pg.Pool({ connectionString: POSTGRES_URL, max: 4 }));
    pool.on('error', () => {});
    const relay = createPostgresRelay({ pool, table: prefix });
    await relay.migrate();
    close.push(async () => {
      await relay.close();
      await pool.query(`DROP TABLE IF EXISTS ${prefix}`);
      await pool.end();
    });
    return relay;
  }
  const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 2 });
  const relay = createRedisRelay({ redis, prefix });
  close.push(async () => {
    await relay.close();
    redis.disconnect();
  });
  return relay;
}

for (const kind of ['redis', 'postgres'] as const) {
  const available = hasPostgres && (kind === 'postgres' || hasRedis);
  describe.skipIf(!available)(`${kind} relay: a turn taken over after a crash`, () => {
    it('streams the rest of the turn to clients following it through another instance', async () => {
      const closers: Array<() => Promise<void>> = [];
      const harness = createHarness('postgres');
      harnesses.push(harness);
      const store = harness.openStore();
      await store.migrate();
      closers.push(() => store.close());
      const prefix = `ck_takeover_${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
      let child: ChildProcess | undefined;
      let server: Server | undefined;
      try {
        // The uninterrupted run, for the stored rows to compare with.
        const reference = createAgentSession({
          store,
          threadId: 'reference',
          model: durableScript(),
          tools: durableTools(),
          idGenerator: () => 'turn-1',
          durability: 'step',
        });
        await reference.send('What do the files export?').rows;
        await reference.close();
        const whole = await store.getRows('reference');

        // Instance B: the handlers on the relay, a session per thread that continues a turn it
        // takes over, and the takeover wiring of docs/session.md on the events route.
        const relay = await openRelay(kind, prefix, closers);
        const errors: unknown[] = [];
        const bModel = durableScript();
        const sessions = new Map<string, AgentSession>();
        const sessionOf = (threadId: string): AgentSession => {
          let session = sessions.get(threadId);
          if (session === undefined) {
            session = createAgentSession({
              store,
              threadId,
              model: bModel,
              tools: durableTools(),
              durability: 'step',
              lease: { ttlMs: TTL_MS, holder: 'b' },
              recovery: 'continue',
              relay,
              onError: (error) => errors.push(error),
            });
            sessions.set(threadId, session);
          }
          return session;
        };
        closers.push(async () => {
          for (const session of sessions.values()) await session.close();
        });
        const takeOver = takeOverWiring(
          store,
          relay,
          sessionOf,
          (error) => errors.push(error),
          500,
        );
        closers.push(async () => takeOver.stop());
        const handlers = createChunkHandlers({
          store,
          authorize: () => true,
          sessions: sessionOf,
          relay,
          heartbeatMs: 0,
        });
        const listener = toNodeListener(async (request) => {
          const followed = /^\/threads\/([^/]+)\/events$/.exec(new URL(request.url).pathname);
          if (followed !== null)
            takeOver.followed(decodeURIComponent(followed[1] as string), request.signal);
          return handlers.fetch(request);
        });
        const started = createServer((req, res) => listener(req, res));
        server = started;
        const port = await new Promise<number>((resolve) =>
          started.listen(0, '127.0.0.1', () => {
            const address = started.address();
            resolve(typeof address === 'object' && address !== null ? address.port : 0);
          }),
        );
        const events = `http://127.0.0.1:${port}/threads/${THREAD}/events`;

        // Two clients follow the thread through B before the turn starts (so the takeover comes
        // from the wiring's sweep of followed threads). Client 1 reads to the turn's end.
        const first: Received[] = [];
        let sawThirdCall: () => void = () => {};
        const thirdCall = new Promise<void>((resolve) => {
          sawThirdCall = resolve;
        });
        let sawResumed: () => void = () => {};
        const resumedSeen = new Promise<void>((resolve) => {
          sawResumed = resolve;
        });
        const follower = readSse(events, {}, (frame) => {
          const read = received(frame);
          if (read === undefined) return true;
          first.push(read);
          if (read.event.type === 'tool-call' && read.event.toolCallId === 'call-2-0')
            sawThirdCall();
          if (read.event.type === 'system' && read.event.kind === 'resumed') sawResumed();
          return read.event.type !== 'turn-end';
        });
        // Client 2 reads the turn's first four events, then drops.
        const early: Received[] = [];
        const earlyDone = readSse(events, {}, (frame) => {
          const read = received(frame);
          if (read !== undefined) early.push(read);
          return early.length < 4;
        });

        // Instance A runs the turn and stops dead in the tool of its third step.
        const forked = fork(
          join(import.meta.dirname, 'support', 'takeover-worker.ts'),
          [
            JSON.stringify({
              spec: { name: harness.name, prefix: harness.prefix, file: harness.file },
              threadId: THREAD,
              relay: kind,
              url: kind === 'redis' ? REDIS_URL : POSTGRES_URL,
              prefix,
              ttlMs: TTL_MS,
              stopAt: 'in read_file c.ts',
            }),
          ],
          { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] },
        );
        child = forked;
        const exited = new Promise<NodeJS.Signals | number | null>((resolve) =>
          forked.on('exit', (code, signal) => resolve(signal ?? code)),
        );
        // It is there once it stopped in the tool and its first two steps are stored (step
        // writes land while the next step streams).
        let written = 0;
        const stopped = await new Promise<{ type: string; message?: string }>((resolve) => {
          let point: { type: string } | undefined;
          forked.on('message', (m: { type: string; message?: string }) => {
            if (m.type === 'written') written++;
            else if (m.type === 'point') point = m;
            else resolve(m);
            if (point !== undefined && written >= 2) resolve(point);
          });
          void exited.then(() => resolve({ type: 'exit' }));
        });
        expect(stopped.type, stopped.message).toBe('point');
        expect(written).toBe(2);
        await earlyDone;
        expect(early.map((r) => r.index)).toEqual([0, 1, 2, 3]);

        // A dies once client 1 has what it published of the third step.
        await thirdCall;
        const lastBeforeCrash = (first[first.length - 1] as Received).index;
        forked.kill('SIGKILL');
        expect(await exited).toBe('SIGKILL');

        // Client 2 comes back, once B continues the turn, with its Last-Event-ID from before
        // the crash.
        await resumedSeen;
        const late: Received[] = [];
        const resumed = await readSse(
          events,
          { 'Last-Event-ID': (early[3] as Received).id },
          (frame) => {
            const read = received(frame);
            if (read !== undefined) late.push(read);
            return read?.event.type !== 'turn-end';
          },
        );
        expect(resumed.status).toBe(200);
        await follower;

        // Every event once, in order, ids dense from the turn's start to its end.
        const indexes = first.map((r) => r.index);
        expect(indexes).toEqual(indexes.map((_, i) => i));
        expect(first.at(-1)?.event.type).toBe('turn-end');
        // The continued turn numbers on after the last event A published; A's ids are plain, the
        // continued turn's carry its epoch (the seq of its `resumed` row, checked below).
        const restart = first.findIndex((r, i) => i > 0 && r.event.type === 'turn-start');
        expect(restart).toBeGreaterThan(lastBeforeCrash);
        const epoch = parseEventId((first[restart] as Received).id)?.epoch;
        expect(first.slice(0, restart).every((r) => r.id === `turn-1:${r.index}`)).toBe(true);
        expect(first.slice(restart).every((r) => r.id === `turn-1:r${epoch}.${r.index}`)).toBe(
          true,
        );
        expect(
          first.filter((r) => r.event.type === 'system' && r.event.kind === 'resumed'),
        ).toHaveLength(1);
        // The client that resumed by Last-Event-ID got the same events, none twice.
        expect([...early, ...late]).toEqual(first);

        // The store: completed, seqs dense, one marker, an uninterrupted run's rows apart from it.
        await sessionOf(THREAD).idle();
        expect((await store.getTurnInfo(THREAD, 'turn-1'))?.status).toBe('completed');
        const rows = await store.getRows(THREAD);
        expect(rows.map((r) => r.seq)).toEqual(rows.map((_, i) => (rows[0] as ChunkRow).seq + i));
        expect(rows.filter(isResumed)).toHaveLength(1);
        expect(epoch).toBe(rows.find(isResumed)?.seq);
        expect(rows.filter((r) => !isResumed(r)).map(body)).toEqual(whole.map(body));
        // B picked up where A's stored steps end: the cut third step and the two after it.
        expect(bModel.prompts.map(stepOf)).toEqual([2, 3, 4]);

        // What a client shows: the live events fold to the continued part (the cut step's events
        // are dropped at the continued turn's `turn-start`); reconciling gives the stored turn.
        const window = new ChunkWindow({
          limit: 200,
          loadPage: (range) => store.getChunks(THREAD, range),
        });
        for (const read of first) window.apply(read.event);
        const calls = (id: string) =>
          window.log.filter((entry) => entry.type === 'tool_call' && entry.data.id === id).length;
        // The third step's call once (the continued run's), the first step's not yet.
        expect([calls('call-2-0'), calls('call-0-2')]).toEqual([1, 0]);
        expect(window.log.filter((entry) => entry.type === 'system')).toHaveLength(1);
        await window.reconcile();
        expect(window.log.map((e) => e.seq)).toEqual(rows.map((r) => r.seq));
        expect(window.groups).toEqual(groupRowsToMessages(rows));
        expect(errors).toEqual([]);
      } finally {
        if (child !== undefined && child.exitCode === null && child.signalCode === null)
          child.kill('SIGKILL');
        await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
        for (const close of closers.reverse()) await close();
      }
    }, 120_000);
  });
}
