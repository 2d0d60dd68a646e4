// The AI SDK's own client (`AbstractChat` with `DefaultChatTransport`, as `useChat` runs it) on
// three instances, once on the Redis relay and once on the PostgreSQL relay: it sends to instance
// a, drops the connection mid-turn (`stop()`, which aborts the POST), and a reloaded chat resumes
// (`resumeStream()`, the transport's default `GET {api}/{chatId}/stream`) through instance b. It
// ends with the messages of the stored turn; dropping the POST did not stop the turn.
import { DefaultChatTransport, type UIMessage } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChunkRow } from '../../src/schema/index.js';
import { createChunkStore } from '../../src/store/index.js';
import { groupRowsToMessages } from '../../src/transforms/index.js';
import { toUIMessages } from '../../src/ui-messages/index.js';
import { POSTGRES_URL, postgresAvailable, REDIS_URL, redisAvailable } from '../support/services.js';
import { asStored, HeadlessChat } from '../ui-messages/support/chat.js';
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

function unique(what: string): string {
  return `${what}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
}

/** A transport on one instance that notes which instance answered each request. */
function transportOn(
  base: string,
  threadId: string,
  answered: string[],
): DefaultChatTransport<UIMessage> {
  return new DefaultChatTransport({
    api: `${base}/ui/threads/${encodeURIComponent(threadId)}/messages`,
    fetch: async (input, init) => {
      const response = await fetch(input, init);
      answered.push(
        `${init?.method ?? 'GET'} ${response.status} ${response.headers.get('x-instance')}`,
      );
      return response;
    },
  });
}

describe.each(backends)('useChat resume through another instance on the $name relay', (backend) => {
  let instances: Instances;
  beforeAll(async () => {
    if (!backend.up) return;
    instances = await startInstances(
      backend.relay,
      backend.url,
      unique('resume').replace(/-/g, '_').toLowerCase(),
    );
  }, 120_000);
  afterAll(async () => {
    await instances?.stop();
  });

  it.skipIf(!backend.up)(
    'a chat that dropped its POST to instance a resumes through instance b and ends with the stored turn',
    async () => {
      const threadId = unique('chat');
      const [a, b] = instances.direct as [string, string, string];
      const answered: string[] = [];
      const first = new HeadlessChat({
        id: threadId,
        transport: transportOn(a, threadId, answered),
      });
      const sent = first.sendMessage({ text: 'hold' });
      // Mid-turn: the assistant has said "Waiting." and its tool waits for the test.
      await expect
        .poll(() => JSON.stringify(first.messages.at(-1)?.parts ?? []), { timeout: 30_000 })
        .toContain('tool-wait');
      await first.stop();
      await sent;
      expect(first.status).not.toBe('streaming');
      const partial = first.messages.at(-1);
      expect(JSON.stringify(partial)).not.toContain('Done waiting.');

      // The relay carries the running process's events a little later than it emits them (on
      // a busy machine, PostgreSQL's batches land after the POST's stream showed the tool): the
      // reload comes once instance b's relay has the turn up to its tool call.
      await readSse(`${b}/threads/${encodeURIComponent(threadId)}/events`, {}, (frame) => {
        return frame.data.includes('"type":"tool-call"') === false;
      });

      // The page reloads with the user's message and lands on instance b.
      const reloaded = new HeadlessChat({
        id: threadId,
        messages: first.messages.slice(0, 1),
        transport: transportOn(b, threadId, answered),
      });
      const resumed = reloaded.resumeStream();
      await expect.poll(() => reloaded.messages.length, { timeout: 30_000 }).toBe(2);
      // The turn still runs (dropping the POST did not stop it): let it finish.
      await fetch(`${a}/test/release`, { method: 'POST' });
      await resumed;
      await fetch(`${a}/test/idle`, { method: 'POST' });
      expect(reloaded.error).toBeUndefined();
      expect(answered).toEqual(['POST 200 a', 'GET 200 b']);

      const store = createChunkStore({ sqlite: instances.db });
      try {
        const page = await store.getChunks(threadId, { limit: 100 });
        const stored = toUIMessages(groupRowsToMessages(page.chunks as ChunkRow[]));
        expect(stored).toHaveLength(2);
        expect(JSON.stringify(stored[1])).toContain('Done waiting.');
        expect(asStored(reloaded.messages.at(-1))).toStrictEqual(asStored(stored[1]));
        expect(asStored(reloaded.messages.map((m) => m.parts))).toStrictEqual(
          asStored(stored.map((m) => m.parts)),
        );
      } finally {
        await store.close();
      }

      // Nothing runs now: the resume request answers 204 and the chat keeps its messages.
      const idle = new HeadlessChat({
        id: threadId,
        messages: reloaded.messages,
        transport: transportOn(b, threadId, answered),
      });
      await idle.resumeStream();
      expect(answered.at(-1)).toBe('GET 204 b');
      expect(idle.messages).toEqual(reloaded.messages);
    },
    120_000,
  );
});
