import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatEventId } from '../../src/live/replay-buffer.js';
import type { Relay, RelayRead } from '../../src/relay/index.js';
import type { ChunkEvent } from '../../src/schema/chunk-event.js';
import { endOnRelay } from '../../src/session/recovery.js';
import { inProcessKind, postgresKind, type RelayKind, redisKind } from './relay-factories.js';

const kinds = [inProcessKind(), await redisKind(), await postgresKind()].filter(
  (k) => process.env.ONLY === undefined || k.name === process.env.ONLY,
);

/** A turn of `deltas` text deltas, as a session numbers it. */
function turn(turnId: string, deltas: number): ChunkEvent[] {
  return [
    { type: 'turn-start', turnId },
    { type: 'text-start', id: 'a' },
    ...Array.from(
      { length: deltas },
      (_, i): ChunkEvent => ({ type: 'text-delta', id: 'a', text: `${i} ` }),
    ),
    { type: 'text-end', id: 'a' },
    { type: 'turn-end', finishReason: 'stop' },
  ];
}

function publishTurn(
  relay: Relay,
  threadId: string,
  turnId: string,
  events: readonly ChunkEvent[],
  from = 0,
  to = events.length,
): void {
  for (let index = from; index < to; index++) {
    relay.publish(threadId, events[index] as ChunkEvent, {
      id: `${turnId}:${index}`,
      turnId,
      index,
    });
  }
}

/**
 * Publishes events `from` to `to` of a turn continued after a crash: numbered from `first`, with
 * the continuation's epoch in their ids, as a session that continues a turn numbers them.
 */
function publishContinued(
  relay: Relay,
  threadId: string,
  turnId: string,
  events: readonly ChunkEvent[],
  numbering: { readonly first: number; readonly epoch: number },
  from = 0,
  to = events.length,
): void {
  for (let k = from; k < to; k++) {
    const index = numbering.first + k;
    relay.publish(threadId, events[k] as ChunkEvent, {
      id: formatEventId(turnId, index, numbering.epoch),
      turnId,
      index,
    });
  }
}

/** The first read of a reader resuming from `lastEventId`, or undefined when none came in 10 s. */
async function firstRead(
  relay: Relay,
  threadId: string,
  lastEventId: string,
): Promise<RelayRead | undefined> {
  const stop = new AbortController();
  const timer = setTimeout(() => stop.abort(), 10_000);
  try {
    for await (const read of relay.follow(threadId, { lastEventId, signal: stop.signal }))
      return read;
    return undefined;
  } finally {
    clearTimeout(timer);
    stop.abort();
  }
}

/**
 * Reads until `until` holds of the reads so far. A reader still waiting after 15 s gives up with
 * what it read (a read that never comes fails the test's expectation instead of its timeout).
 */
async function take(
  relay: Relay,
  threadId: string,
  lastEventId: string | undefined,
  until: (reads: RelayRead[]) => boolean,
): Promise<RelayRead[]> {
  const stop = new AbortController();
  const timer = setTimeout(() => stop.abort(), 15_000);
  const reads: RelayRead[] = [];
  try {
    for await (const read of relay.follow(threadId, { lastEventId, signal: stop.signal })) {
      reads.push(read);
      if (process.env.DBG) process.stderr.write(`${JSON.stringify(read)}\n`);
      if (until(reads)) break;
    }
  } finally {
    clearTimeout(timer);
    stop.abort();
  }
  return reads;
}

const endOf = (turnId: string) => (reads: RelayRead[]) => {
  const last = reads.at(-1);
  return last?.type === 'event' && last.meta.turnId === turnId && last.event.type === 'turn-end';
};
const ids = (reads: RelayRead[]) => reads.map((r) => (r.type === 'gap' ? 'gap' : r.meta.id));

describe.each(kinds)('the $name relay', (kind: RelayKind) => {
  let writer: Relay;
  let reader: Relay;
  beforeAll(async () => {
    if (!kind.available) return;
    writer = await kind.open();
    reader = await kind.open();
  });
  afterAll(() => kind.close());

  it.skipIf(!kind.available)(
    'a reader on another process gets the running turn from its start, then each event live',
    async () => {
      const thread = `live-${Math.random()}`;
      const events = turn('t1', 20);
      publishTurn(writer, thread, 't1', events, 0, 5);
      // The rest is published once the reader has the first five (a stored turn is not replayed).
      const reads = await take(reader, thread, undefined, (r) => {
        if (r.length === 5) publishTurn(writer, thread, 't1', events, 5);
        return endOf('t1')(r);
      });
      expect(ids(reads)).toEqual(events.map((_, i) => `t1:${i}`));
      expect(reads.map((r) => (r.type === 'event' ? r.event : undefined))).toEqual(events);
    },
  );

  it.skipIf(!kind.available)(
    'a turn taken over by another process goes on after the last event the relay holds of it',
    async () => {
      const thread = `takeover-${Math.random()}`;
      await expect(writer.lastIndex(thread, 'k1')).resolves.toBeUndefined();
      // The dead process published the turn's first seven events.
      const dead = turn('k1', 10);
      publishTurn(writer, thread, 'k1', dead, 0, 7);
      const before = await take(reader, thread, undefined, (r) => ids(r).at(-1) === 'k1:6');
      expect(ids(before)).toEqual(dead.slice(0, 7).map((_, i) => `k1:${i}`));
      // Another process (a relay of its own) continues it: numbered on, from a new turn-start.
      const taker = await kind.open();
      await expect(taker.lastIndex(thread, 'k1')).resolves.toBe(6);
      const continued = turn('k1', 2);
      for (let k = 0; k < continued.length; k++) {
        taker.publish(thread, continued[k] as ChunkEvent, {
          id: `k1:${7 + k}`,
          turnId: 'k1',
          index: 7 + k,
        });
      }
      // A reader from the start, and one resuming from before the takeover: each event once.
      const all = [...dead.slice(0, 7), ...continued];
      const whole = await take(reader, thread, undefined, endOf('k1'));
      expect(ids(whole)).toEqual(all.map((_, i) => `k1:${i}`));
      expect(whole.map((r) => (r.type === 'event' ? r.event : undefined))).toEqual(all);
      const resumed = await take(reader, thread, 'k1:3', endOf('k1'));
      expect(ids(resumed)).toEqual(all.slice(4).map((_, i) => `k1:${4 + i}`));
      await expect(reader.runningTurn(thread)).resolves.toBeUndefined();
      await expect(reader.lastIndex(thread, 'k1')).resolves.toBe(all.length - 1);
    },
  );

  it.skipIf(!kind.available)(
    'a turn continued anew after the relay lost it: its ids carry the epoch, and an id of the dead process is a gap',
    async () => {
      const thread = `epoch-anew-${Math.random()}`;
      // The dead process published the turn's first seven events; then the relay lost them.
      publishTurn(writer, thread, 'e1', turn('e1', 10), 0, 7);
      await take(reader, thread, undefined, (r) => ids(r).at(-1) === 'e1:6');
      await writer.forget(thread);
      // Another process continues it: the relay holds none of it, so it numbers anew, epoch 12.
      const taker = await kind.open();
      await expect(taker.lastIndex(thread, 'e1')).resolves.toBeUndefined();
      const continued = turn('e1', 3);
      publishContinued(taker, thread, 'e1', continued, { first: 0, epoch: 12 }, 0, 4);
      const upTo3 = (r: RelayRead[]) => ids(r).at(-1) === 'e1:r12.3';
      const running = ['e1:r12.0', 'e1:r12.1', 'e1:r12.2', 'e1:r12.3'];
      expect(ids(await take(reader, thread, undefined, upTo3))).toEqual(running);
      await expect(taker.lastEventId?.(thread, 'e1')).resolves.toBe('e1:r12.3');
      // Ids of the dead process (an index the new numbering has, one it has not yet), of another
      // epoch, and of this epoch at an index it has not given: gap, then the turn from its start.
      for (const id of ['e1:3', 'e1:6', 'e1:r9.2', 'e1:r12.5']) {
        expect(ids(await take(reader, thread, id, upTo3)), id).toEqual(['gap', ...running]);
      }
      // An id the relay gave resumes cleanly, through the turn's end.
      publishContinued(taker, thread, 'e1', continued, { first: 0, epoch: 12 }, 4);
      const rest = await take(reader, thread, 'e1:r12.1', endOf('e1'));
      expect(ids(rest)).toEqual(continued.slice(2).map((_, k) => `e1:r12.${2 + k}`));
      await expect(reader.runningTurn(thread)).resolves.toBeUndefined();
    },
  );

  it.skipIf(!kind.available)(
    'a turn continued on after the events the relay holds: old ids stay plain, new ones carry the epoch, an id of neither is a gap',
    async () => {
      const thread = `epoch-on-${Math.random()}`;
      const dead = turn('o1', 10);
      publishTurn(writer, thread, 'o1', dead, 0, 7);
      await take(reader, thread, undefined, (r) => ids(r).at(-1) === 'o1:6');
      const taker = await kind.open();
      await expect(taker.lastIndex(thread, 'o1')).resolves.toBe(6);
      await expect(taker.lastEventId?.(thread, 'o1')).resolves.toBe('o1:6');
      const continued = turn('o1', 2);
      publishContinued(taker, thread, 'o1', continued, { first: 7, epoch: 12 }, 0, 3);
      const all = [
        ...dead.slice(0, 7).map((_, i) => `o1:${i}`),
        ...continued.slice(0, 3).map((_, k) => `o1:r12.${7 + k}`),
      ];
      const upToLast = (r: RelayRead[]) => ids(r).at(-1) === all.at(-1);
      expect(ids(await take(reader, thread, undefined, upToLast))).toEqual(all);
      expect(ids(await take(reader, thread, 'o1:3', upToLast))).toEqual(all.slice(4));
      expect(ids(await take(reader, thread, 'o1:r12.7', upToLast))).toEqual(all.slice(8));
      await expect(taker.lastEventId?.(thread, 'o1')).resolves.toBe('o1:r12.9');
      // A plain id where the relay holds the epoch's event, an epoch where it holds a plain one,
      // another epoch: none was given; the reader reloads and reads the running turn anew.
      for (const id of ['o1:8', 'o1:r12.3', 'o1:r7.8']) {
        expect(ids(await take(reader, thread, id, upToLast)), id).toEqual(['gap', ...all]);
      }
      publishContinued(taker, thread, 'o1', continued, { first: 7, epoch: 12 }, 3);
      const end = await take(reader, thread, all.at(-1), endOf('o1'));
      expect(ids(end)).toEqual(continued.slice(3).map((_, k) => `o1:r12.${10 + k}`));
    },
  );

  it.skipIf(!kind.available)(
    'a continued turn closed after its process died too ends on the relay in its numbering',
    async () => {
      const thread = `epoch-end-${Math.random()}`;
      // The first process published seven events (its `d1:5` a reader holds), the relay lost
      // them, a second process continued the turn anew (epoch 12) for five events and died.
      publishTurn(writer, thread, 'd1', turn('d1', 10), 0, 7);
      await take(reader, thread, undefined, (r) => ids(r).at(-1) === 'd1:6');
      await writer.forget(thread);
      const taker = await kind.open();
      publishContinued(taker, thread, 'd1', turn('d1', 5), { first: 0, epoch: 12 }, 0, 5);
      await take(reader, thread, undefined, (r) => ids(r).at(-1) === 'd1:r12.4');
      // A third closes it: its end follows the last event the relay holds, in its numbering.
      await endOnRelay(reader, thread, ['d1']);
      const end = await take(reader, thread, 'd1:r12.4', endOf('d1'));
      expect(ids(end)).toEqual(['d1:r12.5']);
      // A reader of the first process is told it missed events, not left waiting after `d1:5`.
      const read = await firstRead(reader, thread, 'd1:5');
      expect(read?.type).toBe('gap');
    },
  );

  it.skipIf(!kind.available)(
    'a turn continued anew while the relay still holds the dead numbering: one numbering, the live one, answers',
    async () => {
      // The dead process published ten events; the relay was away when another process
      // continued the turn (no last index), so it numbered anew (epoch 12) while the relay, back,
      // still holds the ten. The live numbering is shorter than the dead one.
      const thread = `epoch-twice-${Math.random()}`;
      publishTurn(writer, thread, 'w1', turn('w1', 10), 0, 10);
      await take(reader, thread, undefined, (r) => ids(r).at(-1) === 'w1:9');
      const taker = await kind.open();
      const continued = turn('w1', 3);
      publishContinued(taker, thread, 'w1', continued, { first: 0, epoch: 12 }, 0, 4);
      const running = ['w1:r12.0', 'w1:r12.1', 'w1:r12.2', 'w1:r12.3'];
      const upTo3 = (r: RelayRead[]) => ids(r).at(-1) === 'w1:r12.3';
      /** Ends with the live numbering, anything before it ending in a gap. */
      const endsLive = (reads: RelayRead[], label: string) => {
        const got = ids(reads);
        expect(got.slice(-running.length), label).toEqual(running);
        const before = got.slice(0, -running.length);
        if (before.length > 0) expect(before.at(-1), label).toBe('gap');
      };
      endsLive(await take(reader, thread, undefined, upTo3), 'no id');
      // Asked from any process, the last event is the live numbering's, not the dead one's
      // higher index.
      for (const relay of [reader, taker]) {
        await expect(relay.lastIndex(thread, 'w1')).resolves.toBe(3);
        await expect(relay.lastEventId?.(thread, 'w1')).resolves.toBe('w1:r12.3');
      }
      // An id of the dead process (at an index the live numbering has, one it has not yet, its
      // last) is a gap first, not the dead numbering's events after it or the live numbering as
      // if it were the next turn. (Redis keeps the dead entries until pruned: after the gap it
      // gives them from the turn's start, then a second gap; PostgreSQL replaced them.)
      for (const id of ['w1:2', 'w1:5', 'w1:9']) {
        const reads = await take(reader, thread, id, upTo3);
        expect(ids(reads)[0], id).toBe('gap');
        endsLive(reads, id);
      }
      expect(ids(await take(reader, thread, 'w1:r12.1', upTo3))).toEqual(running.slice(2));
      // A third process closes the turn: its end follows the live numbering's last event, and a
      // reader of that numbering reads it next.
      await endOnRelay(reader, thread, ['w1']);
      expect(ids(await take(reader, thread, 'w1:r12.3', endOf('w1')))).toEqual(['w1:r12.4']);
      await expect(reader.runningTurn(thread)).resolves.toBeUndefined();
      await expect(reader.lastEventId?.(thread, 'w1')).resolves.toBe('w1:r12.4');
      // The next turn follows that end.
      publishTurn(writer, thread, 'w2', turn('w2', 1), 0, 2);
      const next = await take(reader, thread, 'w1:r12.4', (r) => ids(r).at(-1) === 'w2:1');
      expect(ids(next)).toEqual(['w2:0', 'w2:1']);
      publishTurn(writer, thread, 'w2', turn('w2', 1), 2);
      await take(reader, thread, 'w2:1', endOf('w2'));
    },
  );

  it.skipIf(!kind.available)(
    'resumes after every event id with nothing missed and nothing twice, across turns',
    async () => {
      const thread = `resume-${Math.random()}`;
      const first = turn('r1', 6);
      const second = turn('r2', 3);
      publishTurn(writer, thread, 'r1', first);
      publishTurn(writer, thread, 'r2', second, 0, 2);
      await take(reader, thread, undefined, (reads) => ids(reads).at(-1) === 'r2:1');
      await expect(reader.runningTurn(thread)).resolves.toBe('r2');
      for (let i = 0; i < first.length; i++) {
        const reads = await take(reader, thread, `r1:${i}`, (r) => ids(r).at(-1) === 'r2:1');
        // r1 is stored and r2 runs: a remote relay keeps r1 until r2 ends; the in-process relay
        // (as a session's own buffer) keeps a stored turn only until the next begins.
        expect(ids(reads)).toEqual(
          kind.name === 'in-process' && i < first.length - 1
            ? ['gap', 'r2:0', 'r2:1']
            : [...first.slice(i + 1).map((_, k) => `r1:${i + 1 + k}`), 'r2:0', 'r2:1'],
        );
      }
      publishTurn(writer, thread, 'r2', second, 2);
      const rest = await take(reader, thread, 'r2:1', endOf('r2'));
      expect(ids(rest)).toEqual(second.slice(2).map((_, k) => `r2:${2 + k}`));
      // The turn-end landed with the last event read: nothing runs now.
      await expect(reader.runningTurn(thread)).resolves.toBeUndefined();
    },
  );

  it.skipIf(!kind.available)(
    'says gap for an unknown or pruned turn, then goes on with the turns not stored',
    async () => {
      const thread = `gap-${Math.random()}`;
      publishTurn(writer, thread, 'g1', turn('g1', 2));
      publishTurn(writer, thread, 'g2', turn('g2', 2));
      const third = turn('g3', 2);
      publishTurn(writer, thread, 'g3', third, 0, 2);
      await take(reader, thread, undefined, (r) => ids(r).at(-1) === 'g3:1');
      for (const id of ['nope:3', 'g1:1']) {
        const reads = await take(reader, thread, id, (r) => ids(r).at(-1) === 'g3:1');
        expect(ids(reads)).toEqual(['gap', 'g3:0', 'g3:1']);
      }
      // g2 is the latest stored turn: its last event resumes cleanly.
      const clean = await take(reader, thread, 'g2:5', (r) => ids(r).at(-1) === 'g3:1');
      expect(ids(clean)).toEqual(['g3:0', 'g3:1']);
      publishTurn(writer, thread, 'g3', third, 2);
    },
  );

  it.skipIf(!kind.available)(
    'a reader without an id that comes just as a turn is stored still gets that turn, then the next',
    async () => {
      // The race of a client that read the store just before the turn was stored and connects
      // just after: made deterministic by connecting once the turn-end has surely landed.
      const thread = `stored-${Math.random()}`;
      const first = turn('s1', 3);
      publishTurn(writer, thread, 's1', first);
      await take(reader, thread, 's1:0', endOf('s1'));
      await expect(reader.runningTurn(thread)).resolves.toBeUndefined();
      const second = turn('s2', 1);
      // Without the latest stored turn kept for it, this reader would wait for s2 (its events
      // are published only once the reader has all of s1) and time out.
      const reads = await take(reader, thread, undefined, (r) => {
        if (endOf('s1')(r)) publishTurn(writer, thread, 's2', second, 0, 1);
        return ids(r).at(-1) === 's2:0';
      });
      expect(ids(reads)).toEqual([...first.map((_, i) => `s1:${i}`), 's2:0']);
      publishTurn(writer, thread, 's2', second, 1);
      await take(reader, thread, 's2:0', endOf('s2'));
      // s2 is stored now: a new reader without an id starts at s2 (s1 is pruned or dropped).
      const again = await take(reader, thread, undefined, endOf('s2'));
      expect(ids(again)).toEqual(second.map((_, i) => `s2:${i}`));
    },
  );

  it.skipIf(!kind.available)(
    'sends control to the process that serves the thread and returns its answer',
    async () => {
      const thread = `control-${Math.random()}`;
      await expect(reader.control(thread, { type: 'cancel' })).resolves.toEqual({
        type: 'not-running',
      });
      publishTurn(writer, thread, 'c1', turn('c1', 1), 0, 2);
      const received: unknown[] = [];
      const stop = writer.serveControl(thread, async (message) => {
        received.push(message);
        return { type: 'cancelled', turnId: 'c1' };
      });
      // A fresh subscription may take a moment to be in place on a remote relay: ask until served.
      let answer = await reader.control(thread, { type: 'cancel', reason: 'stop' });
      while (answer.type === 'not-running')
        answer = await reader.control(thread, { type: 'cancel', reason: 'stop' });
      expect(answer).toEqual({ type: 'cancelled', turnId: 'c1' });
      expect(received.at(-1)).toEqual({ type: 'cancel', reason: 'stop' });
      stop();
      publishTurn(writer, thread, 'c1', turn('c1', 1), 2);
      await take(reader, thread, 'c1:1', endOf('c1'));
      await expect(reader.control(thread, { type: 'steer', text: 'x' })).resolves.toEqual({
        type: 'not-running',
      });
    },
  );
});
