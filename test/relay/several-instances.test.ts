// Three server processes behind a round-robin proxy, once on the Redis relay and once on the
// PostgreSQL relay: SSE clients that reconnect to another instance every few hundred events get
// every event of the turn exactly once, in order; cancel, steer and notices sent to an instance
// that does not run the turn reach it with the same answers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POSTGRES_URL, postgresAvailable, REDIS_URL, redisAvailable } from '../support/services.js';
import { type Instances, startInstances } from './support/instances.js';
import { readSse } from './support/sse-reader.js';

const backends = [
  { name: 'Redis', relay: 'redis' as const, url: REDIS_URL, up: await redisAvailable() },
  {
    name: 'PostgreSQL',
    relay: 'postgres' as const,
    url: POSTGRES_URL,
    up: await postgresAvailable(),
  },
];

/** The load: clients × deltas, each client reconnecting after `every` events (scaled for a busy 2-core machine). */
const CLIENTS = Number(process.env.CHUNKLOG_RELAY_CLIENTS ?? 24);
const DELTAS = Number(process.env.CHUNKLOG_RELAY_DELTAS ?? 1200);
const EVERY = 150;

function unique(what: string): string {
  return `${what}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
}

async function post(
  url: string,
  body: unknown,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  const json = response.headers.get('content-type')?.startsWith('application/json') === true;
  return {
    status: response.status,
    body: json ? (JSON.parse(text) as Record<string, unknown>) : {},
  };
}

interface Followed {
  readonly ids: string[];
  readonly types: string[];
  readonly events: Array<Record<string, unknown>>;
  readonly instances: Set<string>;
  readonly gaps: number;
}

/**
 * Follows a thread's events through the proxy until the turn `turnOf()` ends, dropping the
 * connection every `every` events and resuming with Last-Event-ID; `onEvent` sees each event.
 */
async function follow(
  base: string,
  threadId: string,
  every: number,
  onEvent: (event: Record<string, unknown>, id: string) => void = () => {},
): Promise<Followed> {
  const ids: string[] = [];
  const types: string[] = [];
  const events: Array<Record<string, unknown>> = [];
  const instances = new Set<string>();
  let gaps = 0;
  let done = false;
  const client = Math.random().toString(36).slice(2);
  while (!done) {
    let seen = 0;
    const last = ids.at(-1);
    const result = await readSse(
      `${base}/threads/${encodeURIComponent(threadId)}/events`,
      last === undefined ? { 'x-client': client } : { 'x-client': client, 'last-event-id': last },
      (frame) => {
        if (frame.event === 'gap') {
          gaps++;
          return true;
        }
        if (frame.event !== 'message' || frame.id === undefined) return true;
        const event = JSON.parse(frame.data) as Record<string, unknown>;
        ids.push(frame.id);
        types.push(String(event.type));
        events.push(event);
        onEvent(event, frame.id);
        if (event.type === 'turn-end') {
          done = true;
          return false;
        }
        return ++seen < every;
      },
    );
    if (result.instance !== null) instances.add(result.instance);
    expect(result.status).toBe(200);
  }
  return { ids, types, events, instances, gaps };
}

describe.each(backends)('several instances on the $name relay', (backend) => {
  let instances: Instances;
  beforeAll(async () => {
    if (!backend.up) return;
    instances = await startInstances(
      backend.relay,
      backend.url,
      unique('relay').replace(/-/g, '_').toLowerCase(),
    );
  }, 120_000);
  afterAll(async () => {
    await instances?.stop();
  });

  it.skipIf(!backend.up)(
    `${CLIENTS} SSE clients reconnecting to other instances every ${EVERY} events each get every event of a ${DELTAS}-delta turn exactly once, in order`,
    async () => {
      const threadId = unique('many');
      // The turn runs on instance a and waits (before its deltas) until released.
      const sent = await post(`${instances.direct[0]}/threads/${threadId}/messages`, {
        text: `deltas ${DELTAS}`,
      });
      expect(sent.status).toBe(202);
      const turnId = String(sent.body.turnId);
      let connected = 0;
      let allConnected!: () => void;
      const ready = new Promise<void>((resolve) => {
        allConnected = resolve;
      });
      const clients = Array.from({ length: CLIENTS }, () =>
        follow(instances.url, threadId, EVERY, (event) => {
          if (event.type === 'turn-start' && ++connected === CLIENTS) allConnected();
        }),
      );
      // Every client follows the turn from its start: now let it stream.
      await ready;
      await post(`${instances.direct[0]}/test/release`, {});
      const followed = await Promise.all(clients);
      const expected = followed[0]?.ids ?? [];
      expect(expected[0]).toBe(`${turnId}:0`);
      expect(expected).toEqual(expected.map((_, i) => `${turnId}:${i}`));
      expect(followed[0]?.types.filter((t) => t === 'text-delta')).toHaveLength(DELTAS);
      for (const client of followed) {
        expect(client.gaps).toBe(0);
        expect(client.ids).toEqual(expected);
        expect(client.instances.size).toBe(Math.min(3, Math.ceil(expected.length / EVERY)));
      }
    },
    300_000,
  );

  it.skipIf(!backend.up)(
    'notices, steering and cancel sent to instances that do not run the turn reach it, with the same answers',
    async () => {
      const threadId = unique('control');
      const sent = await post(`${instances.direct[0]}/threads/${threadId}/messages`, {
        text: 'hold',
      });
      expect(sent.status).toBe(202);
      const turnId = String(sent.body.turnId);
      let waiting!: () => void;
      const inTool = new Promise<void>((resolve) => {
        waiting = resolve;
      });
      const followed = follow(instances.url, threadId, 1_000, (event) => {
        if (event.type === 'tool-call') waiting();
      });
      await inTool;
      const notice = await post(`${instances.direct[1]}/threads/${threadId}/notices`, {
        text: 'Deploy at noon',
      });
      expect(notice).toEqual({ status: 202, body: { routed: 'turn', turnId } });
      const steer = await post(`${instances.direct[2]}/threads/${threadId}/messages`, {
        text: 'Also say hello',
        mode: 'steer',
      });
      expect(steer.status).toBe(202);
      expect(typeof steer.body.steeringId).toBe('string');
      await post(`${instances.direct[0]}/test/release`, {});
      const events = (await followed).events;
      expect(events).toContainEqual({ type: 'system', kind: 'notice', text: 'Deploy at noon' });
      expect(events.filter((e) => e.type === 'steering-message').map((e) => e.text)).toEqual([
        'Also say hello',
      ]);
      expect(events.at(-1)).toMatchObject({ type: 'turn-end', finishReason: 'stop' });

      // A second turn, cancelled from another instance; then nothing runs.
      const second = await post(`${instances.direct[0]}/threads/${threadId}/messages`, {
        text: 'hold',
      });
      const secondId = String(second.body.turnId);
      let held!: () => void;
      const inSecondTool = new Promise<void>((resolve) => {
        held = resolve;
      });
      const last = (await followed).ids.at(-1) as string;
      const rest: Array<Record<string, unknown>> = [];
      const following = (async () => {
        let lastId = last;
        for (;;) {
          let ended = false;
          await readSse(
            `${instances.url}/threads/${threadId}/events`,
            { 'last-event-id': lastId },
            (frame) => {
              if (frame.id === undefined) return true;
              lastId = frame.id;
              const event = JSON.parse(frame.data) as Record<string, unknown>;
              rest.push(event);
              if (event.type === 'tool-call') held();
              ended = event.type === 'turn-end';
              return !ended;
            },
          );
          if (ended) return;
        }
      })();
      await inSecondTool;
      const cancel = await post(`${instances.direct[2]}/threads/${threadId}/cancel`, {
        reason: 'Stop pressed',
      });
      expect(cancel).toEqual({ status: 202, body: { turnId: secondId } });
      await following;
      expect(rest).toContainEqual({ type: 'system', kind: 'cancelled', text: 'Stop pressed' });
      const again = await post(`${instances.direct[1]}/threads/${threadId}/cancel`, {});
      expect(again.status).toBe(409);
      expect(again.body).toMatchObject({ error: { code: 'not-running' } });
    },
    120_000,
  );
});
