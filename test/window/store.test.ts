// The window straight over a real chunk store (SQLite in memory): its pages pass the window's
// validation, a streamed turn reconciles to the stored rows, and the history pages back whole.
import { afterEach, describe, expect, it } from 'vitest';

import { foldTurn } from '../../src/reducer/index.js';
import { type ChunkEvent, ChunkPageSchema } from '../../src/schema/index.js';
import { type ChunkStore, createChunkStore } from '../../src/store/index.js';
import { explodeTurn, groupRowsToMessages } from '../../src/transforms/index.js';
import { ChunkWindow } from '../../src/window/index.js';
import { textBlock, toolRound, turnOf } from './support/events.js';

const THREAD = 'thread-1';
let store: ChunkStore | undefined;

afterEach(async () => {
  await store?.close();
  store = undefined;
});

async function openStore(): Promise<ChunkStore> {
  store = createChunkStore({ sqlite: ':memory:' });
  await store.migrate();
  return store;
}

async function storeTurn(s: ChunkStore, turnId: string, events: ChunkEvent[], user: string) {
  await s.appendTurn(THREAD, [
    ...explodeTurn(turnId, [{ type: 'text', step: 0, text: user }], { role: 'user' }),
    ...explodeTurn(turnId, foldTurn(events).chunks, { role: 'assistant' }),
  ]);
}

describe('ChunkWindow over a SQLite chunk store', () => {
  it('streams, reconciles and pages back the stored rows', async () => {
    const s = await openStore();
    for (let t = 0; t < 5; t++) await storeTurn(s, `old${t}`, turnOf(`old${t}`, 3), `q${t}`);
    const window = new ChunkWindow({
      limit: 8,
      pageSize: 3,
      loadPage: (request) => s.getChunks(THREAD, request),
    });
    await window.loadOlder();
    expect(ChunkPageSchema.safeParse(await s.getChunks(THREAD, { limit: 3 })).success).toBe(true);
    expect(window.log.map((e) => e.seq)).toEqual([18, 19, 20]);

    const events: ChunkEvent[] = [
      { type: 'turn-start', turnId: 'live' },
      ...textBlock('Let me ', 'check.'),
      ...toolRound('c1', 'file contents'),
      ...textBlock('Done.'),
      { type: 'turn-end', finishReason: 'stop' },
    ];
    window.addPendingUserMessage('check the file', { turnId: 'live' });
    for (const e of events) window.apply(e);
    const liveIds = window.groups.map((m) => m.id);
    await storeTurn(s, 'live', events, 'check the file');
    await window.reconcile();
    const tail = (await s.getChunks(THREAD, { limit: 8 })).chunks;
    expect(window.log.map((e) => e.seq)).toEqual(tail.map((r) => r.seq));
    expect(window.groups.map((m) => m.id).slice(-2)).toEqual(liveIds.slice(-2));

    window.setScrolledUp(true);
    while (window.hasOlder) await window.loadOlder();
    const all = (await s.getChunks(THREAD, { limit: 1000 })).chunks;
    expect(window.log.map((e) => e.seq)).toEqual(all.map((r) => r.seq));
    expect(window.groups).toEqual(groupRowsToMessages(all));
    expect(window.total).toBe(all.length);
  });
});
