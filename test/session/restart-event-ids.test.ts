// A turn continued after a restart of the only process (no shared relay): the new process's
// in-process relay has none of the dead process's events, so the continued turn numbers its
// events anew. A reader that resumes with an id the dead process gave it must be told to reload
// (`gap`) and then get the continued turn, never the new numbering's events after an index that
// only matches by chance. Readers of the new numbering, and of ordinary turns, resume exactly.
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  createAgentSession,
  createChunkHandlers,
  parseEventId,
} from '../../src/entries/session.js';
import { createScriptedModel } from '../../src/testing/index.js';
import { readSse, serve } from './http-support.js';
import { storeInterruptedTurn } from './support/interrupted-turn.js';
import { gate, openSqliteStore, recordEvents, sequentialIds } from './support.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/**
 * A session of `threadId` whose scripted model answers with `text`, waits for `more`, then
 * answers `rest`; served over HTTP (heartbeats every 50 ms wake readers), its events recorded.
 */
async function servedSession(
  store: Awaited<ReturnType<typeof openSqliteStore>>['store'],
  threadId: string,
  script: { text: string; more: Promise<void>; rest: string },
  options: Omit<Parameters<typeof createAgentSession>[0], 'store' | 'threadId' | 'model'>,
) {
  const session = createAgentSession({
    store,
    threadId,
    model: createScriptedModel([
      {
        parts: [
          { type: 'text', text: script.text },
          { type: 'wait', until: script.more },
          { type: 'text', text: script.rest },
        ],
      },
    ]),
    ...options,
  });
  const handlers = createChunkHandlers({ store, session, authorize: () => true, heartbeatMs: 50 });
  const server = await serve(handlers.fetch);
  cleanups.push(async () => {
    await session.close();
    await server.close();
  });
  return {
    session,
    url: `${server.url}/threads/${threadId}/events`,
    recorded: recordEvents(session),
  };
}

describe('event ids of a turn continued after a restart', () => {
  it('a reader that resumes with the dead process’s Last-Event-ID gets a gap, then the continued turn from its start (its `resumed` notice too)', async () => {
    const { store, dispose } = await openSqliteStore();
    cleanups.push(dispose);
    // The dead process began turn-1 and stored its first step; it had published events
    // turn-1:0 … turn-1:57 of it when it died.
    await storeInterruptedTurn(store, 'r1');
    const more = gate();
    // The new process, its own in-process relay: it continues the turn.
    const { session, url, recorded } = await servedSession(
      store,
      'r1',
      { text: 'Copied so far', more: more.promise, rest: ' and done.' },
      { durability: 'step', recovery: 'continue' },
    );
    const resuming = session.resumeInterruptedTurns();
    await vi.waitFor(() =>
      expect(recorded.events.some((e) => e.event.type === 'text-delta')).toBe(true),
    );
    const sent = recorded.events.map(({ event, meta }) => ({ id: meta.id, data: event }));
    expect(sent[0]?.data).toEqual({ type: 'turn-start', turnId: 'turn-1' });
    expect(sent.map((e) => e.data)).toContainEqual(expect.objectContaining({ kind: 'resumed' }));
    // An id the dead process gave beyond what this one sent, and one it also numbered here.
    for (const dead of ['turn-1:57', 'turn-1:2']) {
      // Heartbeats wake the reader: it stops once it has them all, and gives up (failing the
      // test rather than hanging it) only long after they would have come on a busy machine.
      const deadline = Date.now() + 15_000;
      const read = await readSse(
        url,
        { 'last-event-id': dead },
        (events) => events.length > sent.length || Date.now() > deadline,
      );
      expect(read.status).toBe(200);
      expect(read.events[0]).toEqual({ id: undefined, event: 'gap', data: { lastEventId: dead } });
      expect(read.events.slice(1).map(({ id, data }) => ({ id, data }))).toEqual(sent);
    }
    // The continued turn's ids are event ids of its turn, and none of them is one the dead
    // process gave.
    for (const { id } of sent) expect(parseEventId(id)?.turnId).toBe('turn-1');
    expect(sent.map((e) => e.id)).not.toContain('turn-1:2');

    // A reader of this process's numbering resumes exactly where it was, with no gap.
    const seen = sent[2]?.id as string;
    const again = await readSse(
      url,
      { 'last-event-id': seen },
      (events) => events.length >= sent.length - 3,
    );
    expect(again.events.map(({ id, data }) => ({ id, data }))).toEqual(sent.slice(3));
    expect(session.replay(seen)).toMatchObject({ gap: false });

    more.open();
    const [result] = await resuming;
    expect(result).toMatchObject({ turnId: 'turn-1', outcome: 'completed' });
    // Stored (and still the latest turn kept): the dead process's id is a gap, this one's is not.
    expect(session.replay('turn-1:57')).toEqual({ events: [], gap: true });
    const last = recorded.events.at(-1)?.meta.id as string;
    expect(session.replay(last)).toEqual({ events: [], gap: false });
  });

  it('an ordinary turn keeps its ids `<turnId>:<index>`, and a reader resumes it exactly', async () => {
    const { store, dispose } = await openSqliteStore();
    cleanups.push(dispose);
    const more = gate();
    const { session, url, recorded } = await servedSession(
      store,
      'o1',
      { text: 'one two', more: more.promise, rest: ' three' },
      { idGenerator: sequentialIds() },
    );
    const handle = session.send('go');
    await vi.waitFor(() =>
      expect(recorded.events.some((e) => e.event.type === 'text-delta')).toBe(true),
    );
    const sent = recorded.events.map(({ event, meta }) => ({ id: meta.id, data: event }));
    expect(sent.map((e) => e.id)).toEqual(sent.map((_, i) => `t1:${i}`));
    const read = await readSse(
      url,
      { 'last-event-id': 't1:1' },
      (events) => events.length >= sent.length - 2,
    );
    expect(read.events.map(({ id, data }) => ({ id, data }))).toEqual(sent.slice(2));
    more.open();
    await handle.result;
    const ids = recorded.events.map((e) => e.meta.id);
    expect(ids).toEqual(ids.map((_, i) => `t1:${i}`));
    expect(session.replay('t1:1')).toEqual({
      events: recorded.events.slice(2),
      gap: false,
    });
    expect(session.replay(ids.at(-1) as string)).toEqual({ events: [], gap: false });
  });
});
