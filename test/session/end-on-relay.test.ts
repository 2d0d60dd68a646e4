// `endOnRelay` ends a closed turn on the relay after the last event the relay holds of it, in that
// event's numbering: `t1:r12.41` after `t1:r12.40` (a plain `t1:41` could be an id a process that
// died before the continuation gave). A relay written before `lastEventId` existed gets a plain id.
import { describe, expect, it } from 'vitest';
import type { EventMeta } from '../../src/live/event-meta.js';
import type { Relay } from '../../src/live/relay.js';
import { parseEventId } from '../../src/live/replay-buffer.js';
import type { ChunkEvent } from '../../src/schema/chunk-event.js';
import { endOnRelay } from '../../src/session/recovery.js';

type EndingRelay = Pick<Relay, 'runningTurn' | 'lastIndex' | 'lastEventId' | 'publish'>;

/** A relay that runs `t1`, whose last event it holds is `lastId`, recording what is published. */
function relayHolding(lastId: string, withLastEventId: boolean) {
  const published: Array<{ event: ChunkEvent; meta: EventMeta }> = [];
  const relay: EndingRelay = {
    runningTurn: async () => 't1',
    lastIndex: async () => parseEventId(lastId)?.index,
    publish: (_threadId, event, meta) => {
      published.push({ event, meta });
    },
    ...(withLastEventId ? { lastEventId: async () => lastId } : {}),
  };
  return { relay, published };
}

describe('endOnRelay', () => {
  it('ends a continued turn with the id after the last one the relay holds, in its epoch', async () => {
    const { relay, published } = relayHolding('t1:r12.40', true);
    await endOnRelay(relay, 'thread-1', ['t1']);
    expect(published).toEqual([
      { event: { type: 'turn-end' }, meta: { id: 't1:r12.41', turnId: 't1', index: 41 } },
    ]);
  });

  it('ends a turn of a plain numbering with a plain id', async () => {
    const { relay, published } = relayHolding('t1:40', true);
    await endOnRelay(relay, 'thread-1', ['t1']);
    expect(published.map((p) => p.meta)).toEqual([{ id: 't1:41', turnId: 't1', index: 41 }]);
  });

  it('asks a relay without lastEventId for the last index, and ends with a plain id', async () => {
    const { relay, published } = relayHolding('t1:r12.40', false);
    await endOnRelay(relay, 'thread-1', ['t1']);
    expect(published.map((p) => p.meta)).toEqual([{ id: 't1:41', turnId: 't1', index: 41 }]);
  });
});
