// The recorded provider streams (real @ai-sdk/anthropic and @ai-sdk/openai output), sent through
// the wire as JSON into windows of several limits: eviction keeps to the limit, the held turn is
// the fold evicted at the same moments, and once the turn is stored a reconcile and paging back
// give the stored rows, grouped to the turn's chunks.
import { describe, expect, it } from 'vitest';

import { toChunkEventStream } from '../../src/events/index.js';
import {
  evictLeadingChunks,
  foldTurn,
  reduceTurn,
  type TurnState,
} from '../../src/reducer/index.js';
import type { ChunkEvent } from '../../src/schema/index.js';
import { explodeTurn, groupRowsToMessages } from '../../src/transforms/index.js';
import { ChunkWindow } from '../../src/window/index.js';
import { verifyRowCounts } from '../../src/window/row-count.js';
import {
  recordedFixtureNames,
  recordedFixturesAvailable,
  streamRecorded,
} from '../support/recorded-fixtures.js';
import { MemoryThread } from './support/page-source.js';

// Check the targeted row counting against a full recount after every event.
verifyRowCounts(true);

async function eventsOf(name: string): Promise<ChunkEvent[]> {
  const events: ChunkEvent[] = [{ type: 'turn-start', turnId: 'rec' }];
  for await (const event of toChunkEventStream(streamRecorded(name).result.stream)) {
    if (event.type !== 'turn-start' && event.type !== 'turn-end') events.push(event);
  }
  events.push({ type: 'turn-end', finishReason: 'stop' });
  // Through the wire.
  return JSON.parse(JSON.stringify(events)) as ChunkEvent[];
}

describe.runIf(recordedFixturesAvailable).each(recordedFixtureNames())(
  '%s through a window',
  (name) => {
    it.each([1, 2, 3, 1000])('with limit %i', async (limit) => {
      const events = await eventsOf(name);
      const thread = new MemoryThread();
      const window = new ChunkWindow({ limit, pageSize: 2, loadPage: (r) => thread.page(r) });
      let shadow: TurnState | undefined;
      for (const event of events) {
        window.apply(event);
        shadow = shadow === undefined ? foldTurn([event]) : reduceTurn(shadow, event);
        const state = window.getSnapshot().liveTurn as TurnState;
        shadow = evictLeadingChunks(shadow, state.evicted - shadow.evicted);
        expect(state.chunks).toEqual(shadow.chunks);
        const log = window.log;
        expect(log).toEqual(
          explodeTurn('rec', state.chunks, { role: 'assistant' }).map((row, i) => ({
            ...row,
            id: log[i]?.id,
            seq: null,
            live: true,
            pending: false,
          })),
        );
        if (log.length > limit) expect(state.openIndex).toBe(0);
      }
      const full = foldTurn(events);
      thread.append(explodeTurn('rec', full.chunks, { role: 'assistant' }));
      await window.reconcile();
      expect(window.log.map((e) => e.seq)).toEqual(thread.tail(limit).map((r) => r.seq));
      window.setScrolledUp(true);
      while (window.hasOlder) await window.loadOlder();
      expect(window.log.map((e) => e.seq)).toEqual(thread.rows.map((r) => r.seq));
      expect(window.groups).toEqual(groupRowsToMessages(thread.rows));
      expect(window.groups.map((m) => m.id)).toEqual(['rec:assistant']);
      expect(window.groups[0]?.chunks).toEqual(full.chunks);
    });
  },
);
