// `relay.forget(threadId)` on every relay: after it the backend holds nothing of the thread (read
// around the relay: the Redis keys, the PostgreSQL rows, the in-process buffer), a reader that
// resumes from an id of before gets a gap, and the turns published after it are followed as usual,
// by a new reader and by one that followed across it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChunklogError } from '../../src/errors/index.js';
import { checkRelay } from '../../src/live/check-relay.js';
import type { Relay, RelayRead } from '../../src/relay/index.js';
import type { ChunkEvent } from '../../src/schema/chunk-event.js';
import { inProcessKind, postgresKind, type RelayKind, redisKind } from './relay-factories.js';

const kinds = [inProcessKind(), await redisKind(), await postgresKind()].filter(
  (k) => process.env.ONLY === undefined || k.name === process.env.ONLY,
);

/** A turn of three text deltas: events 0 to 6. */
function turn(turnId: string): ChunkEvent[] {
  return [
    { type: 'turn-start', turnId },
    { type: 'text-start', id: 'a' },
    ...['Hello ', 'private ', 'words.'].map(
      (text): ChunkEvent => ({ type: 'text-delta', id: 'a', text }),
    ),
    { type: 'text-end', id: 'a' },
    { type: 'turn-end', finishReason: 'stop' },
  ];
}
const TURN_IDS = (turnId: string) => turn(turnId).map((_, i) => `${turnId}:${i}`);

function publishTurn(relay: Relay, threadId: string, turnId: string): void {
  turn(turnId).forEach((event, index) => {
    relay.publish(threadId, event, { id: `${turnId}:${index}`, turnId, index });
  });
}

/** A reader that follows a thread and hands out its reads as they come. */
function reader(relay: Relay, threadId: string, lastEventId?: string) {
  const stop = new AbortController();
  const iterator = relay
    .follow(threadId, { lastEventId, signal: stop.signal })
    [Symbol.asyncIterator]();
  const reads: string[] = [];
  /** The next read, as an event id or `gap`. */
  const next = async (what: string): Promise<RelayRead> => {
    const timeout = setTimeout(() => stop.abort(), 10_000);
    try {
      const read = await iterator.next();
      if (read.done) throw new Error(`the reader ended before ${what}: ${reads}`);
      reads.push(read.value.type === 'gap' ? 'gap' : read.value.meta.id);
      return read.value;
    } finally {
      clearTimeout(timeout);
    }
  };
  return {
    /** Reads one: it is a gap. */
    async gap(): Promise<void> {
      expect((await next('a gap')).type).toBe('gap');
    },
    /** Reads until the `turn-end` of `turnId` came; all reads as event ids and `gap`. */
    async until(turnId: string): Promise<string[]> {
      for (;;) {
        const read = await next(`${turnId} ended`);
        if (read.type === 'event' && read.meta.turnId === turnId && read.event.type === 'turn-end')
          return reads;
      }
    },
    async stop(): Promise<void> {
      stop.abort();
      await iterator.return?.();
    },
  };
}

describe.each(kinds)('forget on the $name relay', (kind: RelayKind) => {
  let writer: Relay;
  let other: Relay;
  beforeAll(async () => {
    if (!kind.available) return;
    writer = await kind.open();
    other = await kind.open();
  });
  afterAll(() => kind.close());

  it.skipIf(!kind.available)(
    'drops what the backend holds of the thread; an id of before is a gap; new turns follow as usual',
    async () => {
      const thread = `forget-${Math.random()}`;
      const bystander = `forget-other-${Math.random()}`;
      const live = reader(other, thread);
      publishTurn(writer, thread, 't1');
      publishTurn(writer, bystander, 'b1');
      expect(await live.until('t1')).toEqual(TURN_IDS('t1'));
      await reader(other, bystander).until('b1');
      expect((await kind.held(thread)).length).toBeGreaterThan(0);

      await writer.forget(thread);

      // (a) nothing of the thread is left in the backend; another thread is untouched.
      expect(await kind.held(thread)).toEqual([]);
      expect((await kind.held(bystander)).length).toBeGreaterThan(0);
      // (b) a reader that resumes from the last id it got: a gap first (it reloads the store).
      const resumed = reader(other, thread, 't1:6');
      await resumed.gap();
      const fresh = reader(other, thread);
      // (c) a new turn is followed: by the resumed reader, a new one, and the one that followed
      // across the forget (a gap, then the new turn).
      publishTurn(writer, thread, 't2');
      expect(await resumed.until('t2')).toEqual(['gap', ...TURN_IDS('t2')]);
      expect(await fresh.until('t2')).toEqual(TURN_IDS('t2'));
      expect(await live.until('t2')).toEqual([...TURN_IDS('t1'), 'gap', ...TURN_IDS('t2')]);
      expect((await kind.held(thread)).length).toBeGreaterThan(0);
      // And after it the relay goes on as before: a third turn, for the readers of the second.
      publishTurn(writer, thread, 't3');
      expect((await resumed.until('t3')).slice(-8)).toEqual([
        ...TURN_IDS('t2').slice(-1),
        ...TURN_IDS('t3'),
      ]);
      expect((await live.until('t3')).slice(-7)).toEqual(TURN_IDS('t3'));
      await Promise.all([live, resumed, fresh].map((r) => r.stop()));
    },
  );

  it.skipIf(!kind.available)('forgetting a thread it holds nothing of does nothing', async () => {
    const thread = `forget-none-${Math.random()}`;
    await writer.forget(thread);
    await writer.forget(thread);
    expect(await kind.held(thread)).toEqual([]);
  });

  it.skipIf(!kind.available)(
    'refuses a thread id that is not one with invalid-option',
    async () => {
      for (const bad of ['', 'a\nb', 42, undefined]) {
        const error = await writer.forget(bad as string).then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(ChunklogError.hasCode(error, 'invalid-option'), String(bad)).toBe(true);
        expect((error as ChunklogError).message).toMatch(/^relay\.forget: A thread id/);
      }
    },
  );
});

// What `forget` does to Redis keys, their expiry does too: the turn counter goes with them and
// the next turn is turn 1 again, its stream ids at or below those a reader following across got.
const expiring = await redisKind(undefined, 300);
describe.skipIf(process.env.ONLY !== undefined && process.env.ONLY !== 'Redis')(
  'the Redis relay, once its keys expired',
  () => {
    afterAll(() => expiring.close());

    it.skipIf(!expiring.available)(
      'a reader that followed across gets a gap, then every turn numbered from 1 again',
      async () => {
        const writer = await expiring.open();
        const other = await expiring.open();
        const thread = `expire-${Math.random()}`;
        const live = reader(other, thread);
        publishTurn(writer, thread, 't1');
        await live.until('t1');
        publishTurn(writer, thread, 't2');
        await live.until('t2'); // the reader stands after turn 2
        const gone = Date.now() + 5000;
        while ((await expiring.held(thread)).length > 0 && Date.now() < gone)
          await new Promise((resolve) => setTimeout(resolve, 50));
        expect(await expiring.held(thread)).toEqual([]);
        // Turns 1 and 2 again, then 3: none is skipped as already read, and no gap is missed.
        let reads: string[] = [];
        for (const turnId of ['t3', 't4', 't5']) {
          publishTurn(writer, thread, turnId);
          reads = await live.until(turnId);
        }
        expect(reads).toEqual([
          ...TURN_IDS('t1'),
          ...TURN_IDS('t2'),
          'gap',
          ...TURN_IDS('t3'),
          ...TURN_IDS('t4'),
          ...TURN_IDS('t5'),
        ]);
        await live.stop();
      },
    );
  },
);

it('checkRelay asks for every method of Relay, forget and lastIndex among them', () => {
  const whole = {
    publish() {},
    follow() {},
    lastIndex() {},
    runningTurn() {},
    control() {},
    serveControl() {},
    forget() {},
    close() {},
  };
  expect(checkRelay(whole)).toBe(whole);
  for (const method of Object.keys(whole)) {
    const partial: Record<string, unknown> = { ...whole };
    delete partial[method];
    expect(() => checkRelay(partial)).toThrow(`\`${method}\` is missing`);
  }
});
