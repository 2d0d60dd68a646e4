import { Redis } from 'ioredis';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { createAgentSession, createChunkHandlers } from '../../src/entries/session.js';
import {
  createPostgresRelay,
  createRedisRelay,
  type PostgresRelay,
  type Relay,
} from '../../src/relay/index.js';
import type { ChunkEvent } from '../../src/schema/chunk-event.js';
import { createChunkStore } from '../../src/store/index.js';
import { createScriptedModel } from '../../src/testing/index.js';
import { gatedTool } from '../support/gated-tool.js';
import { POSTGRES_URL, postgresAvailable, REDIS_URL, redisAvailable } from '../support/services.js';
import { type FaultProxy, startFaultProxy } from '../support/tcp-proxy.js';

const closers: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

function unique(): string {
  return `t${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
}

interface Frame {
  readonly id: string | undefined;
  readonly event: string;
  readonly data: string;
}

/** The frames of an SSE response, until `until` says stop (or the stream ends). */
async function readFrames(response: Response, until: (frame: Frame) => boolean): Promise<Frame[]> {
  if (response.body === null) throw new Error('no body');
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  const frames: Frame[] = [];
  let buffer = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return frames;
      buffer += value;
      let end = buffer.indexOf('\n\n');
      while (end !== -1) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        end = buffer.indexOf('\n\n');
        let id: string | undefined;
        let event = 'message';
        const data: string[] = [];
        for (const line of block.split('\n')) {
          if (line.startsWith('id: ')) id = line.slice(4);
          else if (line.startsWith('event: ')) event = line.slice(7);
          else if (line.startsWith('data: ')) data.push(line.slice(6));
        }
        if (data.length === 0) continue;
        const frame = { id, event, data: data.join('\n') };
        frames.push(frame);
        if (until(frame)) return frames;
      }
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
}

interface Backend {
  readonly name: string;
  readonly up: boolean;
  readonly url: string;
  /** A relay whose connections go through `proxy`; `errors` collects what it reports. */
  open(proxy: FaultProxy, errors: unknown[]): Promise<Relay>;
}

const proxied = (url: string, proxy: FaultProxy): string => {
  const u = new URL(url);
  u.host = `127.0.0.1:${proxy.port}`;
  return u.toString();
};

const redisPrefix = `chunklog-outage-${unique()}`;
const pgTable = `relay_outage_${unique()}`;
const backends: Backend[] = [
  {
    name: 'Redis',
    up: await redisAvailable(),
    url: REDIS_URL,
    async open(proxy, errors) {
      // ioredis queues commands while it reconnects (`maxRetriesPerRequest: null`: for good), so
      // the publishes of the outage land, in order, once Redis is back.
      const redis = new Redis(proxied(REDIS_URL, proxy), {
        maxRetriesPerRequest: null,
        retryStrategy: () => 20,
      });
      redis.on('error', (error) => errors.push(error));
      const relay = createRedisRelay({
        redis,
        prefix: redisPrefix,
        onError: (error) => errors.push(error),
      });
      closers.push(async () => {
        await relay.close();
        redis.disconnect();
      });
      return relay;
    },
  },
  {
    name: 'PostgreSQL',
    up: await postgresAvailable(),
    url: POSTGRES_URL,
    async open(proxy, errors) {
      const pool = new pg.Pool({
        connectionString: proxied(POSTGRES_URL, proxy),
        max: 4,
        connectionTimeoutMillis: 2000,
      });
      pool.on('error', (error) => errors.push(error));
      const relay = createPostgresRelay({
        pool,
        table: pgTable,
        onError: (error) => errors.push(error),
      });
      await relay.migrate();
      closers.push(async () => {
        await relay.close();
        await pool.end();
      });
      return relay;
    },
  },
];

describe.each(backends)('the $name relay goes away mid-turn', (backend) => {
  it.skipIf(!backend.up)(
    'the turn completes and is stored; a remote reader gets relay-error, then resumes once it is back',
    async () => {
      const target = new URL(backend.url);
      const proxy = await startFaultProxy({ host: target.hostname, port: Number(target.port) });
      closers.push(() => proxy.close());
      if (backend.name === 'PostgreSQL') {
        closers.push(async () => {
          const direct = new pg.Client({ connectionString: POSTGRES_URL });
          await direct.connect();
          await direct.query(`DROP TABLE IF EXISTS ${pgTable}`);
          await direct.end();
        });
      }
      const errors: unknown[] = [];
      const running = await backend.open(proxy, errors); // the process that runs the turn
      const remote = await backend.open(proxy, errors); // another instance
      const store = createChunkStore({ sqlite: ':memory:' });
      await store.migrate();
      closers.push(() => store.close());

      const { wait, release } = gatedTool();
      const model = createScriptedModel([
        {
          parts: [
            { type: 'text', text: 'Waiting.' },
            { type: 'tool-call', toolName: 'wait', input: {} },
          ],
        },
        { parts: [{ type: 'text', text: Array.from({ length: 40 }, (_, i) => `${i} `) }] },
      ]);
      const threadId = unique();
      const session = createAgentSession({
        store,
        threadId,
        model,
        tools: { wait },
        relay: running,
      });
      closers.push(() => session.close());
      const seen: string[] = [];
      session.subscribe((_event, meta) => seen.push(meta.id));
      const handlers = createChunkHandlers({ store, authorize: () => true, relay: remote });
      const events = (lastEventId?: string) =>
        handlers.fetch(
          new Request(`http://x/threads/${threadId}/events`, {
            headers: lastEventId === undefined ? {} : { 'last-event-id': lastEventId },
          }),
        );

      const turn = session.send('hold');
      // The remote reader follows the turn up to its tool call.
      const before = await readFrames(await events(), (f) => f.data.includes('"type":"tool-call"'));
      const reading = await events(before.at(-1)?.id);
      expect(reading.status).toBe(200);
      const ended = readFrames(reading, (f) => f.event === 'relay-error');

      // The relay goes away: the reader's stream says so and ends.
      proxy.outage();
      const cut = await ended;
      expect(cut.at(-1)?.event).toBe('relay-error');
      expect(JSON.parse(cut.at(-1)?.data ?? '{}')).toMatchObject({ code: 'relay-unavailable' });

      // The turn goes on without the relay, and is stored.
      release();
      await turn;
      await session.idle();
      const page = await store.getChunks(threadId, { limit: 100 });
      expect(JSON.stringify(page.chunks)).toContain('39 ');
      expect(seen.at(-1)).toMatch(/:\d+$/);

      // While it is away, a reader is told at once (no hanging request).
      const away = await readFrames(await events(before.at(-1)?.id), () => false);
      expect(away.at(-1)?.event).toBe('relay-error');
      // So is useChat's resume request, like cancel and notices (no request waits out the outage).
      const chatHandlers = createChunkHandlers({
        store,
        authorize: () => true,
        relay: remote,
        uiMessageStream: true,
      });
      const resume = await chatHandlers.fetch(new Request(`http://x/threads/${threadId}/stream`));
      expect(resume.status).toBe(503);
      expect(await resume.json()).toMatchObject({ error: { code: 'relay-unavailable' } });
      const cancel = await handlers.fetch(
        new Request(`http://x/threads/${threadId}/cancel`, { method: 'POST' }),
      );
      expect(cancel.status).toBe(503);

      // Back: the reader resumes from its last id (retrying while the relay reconnects).
      proxy.restore();
      const resumedIds: string[] = [];
      let gaps = 0;
      let lastId = before.at(-1)?.id as string;
      let done = false;
      while (!done) {
        const frames = await readFrames(await events(lastId), (f) =>
          f.data.includes('"type":"turn-end"'),
        );
        for (const frame of frames) {
          if (frame.event === 'gap') gaps++;
          if (frame.event !== 'message' || frame.id === undefined) continue;
          resumedIds.push(frame.id);
          lastId = frame.id;
          if (frame.data.includes('"type":"turn-end"')) done = true;
        }
        if (!done) await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const beforeIds = before.flatMap((f) => (f.id === undefined ? [] : [f.id]));
      const all = [...beforeIds, ...resumedIds];
      expect(new Set(all).size).toBe(all.length); // nothing twice
      // Every event, in the session's order, with no gap.
      expect(gaps).toBe(0);
      expect(all).toEqual(seen);
      expect(errors.length).toBeGreaterThan(0); // the outage was reported, not thrown
    },
    60_000,
  );
});

const postgresUp = await postgresAvailable();

/** A PostgreSQL relay on the outage table, on a pool of its own (`url`: direct or proxied). */
async function postgresRelay(
  url: string,
  errors: unknown[],
  options: { closeDrainMs?: number } = {},
): Promise<{ relay: PostgresRelay; pool: pg.Pool }> {
  const pool = new pg.Pool({ connectionString: url, max: 4, connectionTimeoutMillis: 2000 });
  pool.on('error', (error) => errors.push(error));
  const relay = createPostgresRelay({
    pool,
    table: pgTable,
    onError: (error) => errors.push(error),
    ...options,
  });
  await relay.migrate();
  closers.push(async () => {
    const direct = new pg.Client({ connectionString: POSTGRES_URL });
    await direct.connect();
    await direct.query(`DROP TABLE IF EXISTS ${pgTable}`);
    await direct.end();
  });
  closers.push(async () => {
    await relay.close();
    if (!pool.ended) await pool.end();
  });
  return { relay, pool };
}

/** What `onError` was told of events the relay closed without writing. */
const unwritten = (errors: readonly unknown[]): string[] =>
  errors.flatMap((error) =>
    error instanceof Error && error.message.includes('closed before') ? [error.message] : [],
  );

describe.skipIf(!postgresUp)('the PostgreSQL relay shutting down', () => {
  it('in the documented order (session, relay, pool) writes the cancelled turn to its end: another instance sees it end', async () => {
    const errors: unknown[] = [];
    const { relay, pool } = await postgresRelay(POSTGRES_URL, errors);
    const other = await postgresRelay(POSTGRES_URL, errors); // another instance
    const store = createChunkStore({ sqlite: ':memory:' });
    await store.migrate();
    closers.push(() => store.close());
    const { wait, running } = gatedTool({ abortable: true });
    const model = createScriptedModel([
      {
        parts: [
          { type: 'text', text: 'Waiting.' },
          { type: 'tool-call', toolName: 'wait', input: {} },
        ],
      },
    ]);
    const threadId = unique();
    const session = createAgentSession({ store, threadId, model, tools: { wait }, relay });
    const published: string[] = [];
    session.subscribe((_event, meta) => published.push(meta.id));
    const turn = session.send('hold');
    await running;
    await expect.poll(() => other.relay.runningTurn(threadId)).toBe(turn.turnId);

    // docs/session.md, "Shutting down": the sessions, then the relay, then the pool.
    await session.close();
    await relay.close();
    await pool.end();

    expect((await turn.result).outcome).toBe('cancelled');
    expect(await other.relay.runningTurn(threadId)).toBeUndefined();
    const stop = new AbortController();
    const read: string[] = [];
    for await (const item of other.relay.follow(threadId, { signal: stop.signal })) {
      if (item.type !== 'event') continue;
      read.push(item.meta.id);
      if (item.event.type === 'turn-end') stop.abort();
    }
    expect(read).toEqual(published); // every event, the cancellation and turn-end included
    expect(errors).toEqual([]);
  });

  it('returns from close() at its drain bound although a write hangs, and reports the events it did not write', async () => {
    const target = new URL(POSTGRES_URL);
    const proxy = await startFaultProxy({ host: target.hostname, port: Number(target.port) });
    closers.push(() => proxy.close());
    const errors: unknown[] = [];
    const { relay } = await postgresRelay(proxied(POSTGRES_URL, proxy), errors, {
      closeDrainMs: 300,
    });
    const threadId = unique();
    const events: ChunkEvent[] = [
      { type: 'turn-start', turnId: 'held' },
      { type: 'text-start', id: 'a' },
      { type: 'text-delta', id: 'a', text: 'lost' },
      { type: 'text-end', id: 'a' },
      { type: 'turn-end', finishReason: 'stop' },
    ];
    const publish = (index: number) =>
      relay.publish(threadId, events[index] as ChunkEvent, {
        id: `held:${index}`,
        turnId: 'held',
        index,
      });
    publish(0);
    publish(1);
    await expect.poll(() => relay.runningTurn(threadId)).toBe('held');

    // The next write reaches no server and gets no answer; the turn's end waits behind it.
    const stalled = proxy.arm('stall-read', { match: new RegExp(`insert into ${pgTable}`, 'i') });
    publish(2);
    publish(3);
    await stalled;
    publish(4);
    // close() returns (after its bound, closeDrainMs) although the write never answers.
    await relay.close();

    // Reported once: the stalled write then fails on the released connection and says nothing
    // (a report of nothing cannot be polled for; a short pause gives a wrong one time to come).
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(unwritten(errors)).toEqual([
      'The PostgreSQL relay closed before 3 event(s) of the thread were written; readers see a gap',
    ]);
    relay.publish(threadId, events[0] as ChunkEvent, { id: 'late:0', turnId: 'late', index: 0 });
    expect(unwritten(errors)).toHaveLength(2); // published after close: reported, not queued
  });
});
