// Control of a thread's turn from any instance, through one path (`relay.control`): instance A
// runs the turn, instance B has no session of the thread. A cancel posted to B leaves the turn
// `cancelled` from the first read after the 202 (never `completed` for a moment); a cancel during
// a lease wait drops the waiting turn when it names it or no turn has started, and leaves it when
// it stops the started turn; a send that will wait for another instance's turn answers `queued`;
// and random sequences of cancel, steering and notices get the same answers on A and on B, as a
// simple model of the running turn says.
import { tool } from 'ai';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgentSession, createChunkHandlers } from '../../src/entries/session.js';
import { ChunklogError } from '../../src/errors/index.js';
import { createInProcessRelay } from '../../src/live/in-process-relay.js';
import type { Relay } from '../../src/live/relay.js';
import type { TurnHandle } from '../../src/session/types.js';
import type { ChunkStore } from '../../src/store/index.js';
import { createScriptedModel } from '../../src/testing/index.js';
import {
  inProcessKind,
  postgresKind,
  type RelayKind,
  redisKind,
} from '../relay/relay-factories.js';
import {
  availableDialects,
  createHarness,
  type DialectHarness,
} from '../store/support/dialects.js';

const kinds: RelayKind[] = [inProcessKind(), await redisKind()];
// The PostgreSQL relay cannot tell how many processes a control request reached: a `not-running`
// reply waits for its timeout (30 s here), so it takes only the tests in which the turn answers.
const postgres = await postgresKind();
const harnesses: DialectHarness[] = [];
const dialects = await availableDialects();
afterAll(async () => {
  for (const kind of [...kinds, postgres]) await kind.close();
  for (const h of harnesses) await h.dispose();
});

/** A promise and its resolve function. */
function gateOf(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/** Turns that wait in a tool until released (or aborted), then answer; counts the waits begun. */
function waitingTurn() {
  let gate = gateOf();
  let starts = 0;
  /** Whether a wait was released: the model's next call answers instead of calling the tool. */
  let answerNext = false;
  const waiters: Array<{ n: number; resolve: () => void }> = [];
  const wait = tool({
    inputSchema: z.object({}),
    execute: async (_input, { abortSignal }) => {
      starts++;
      for (const w of waiters.splice(0)) {
        if (starts >= w.n) w.resolve();
        else waiters.push(w);
      }
      const released = await Promise.race([
        gate.promise.then(() => true),
        new Promise<boolean>((resolve) =>
          abortSignal?.addEventListener('abort', () => resolve(false), { once: true }),
        ),
      ]);
      if (released) answerNext = true;
      return 'released';
    },
  });
  // Each turn calls the tool first, then answers once its wait was released.
  const model = createScriptedModel(
    [
      () => {
        if (!answerNext) return { parts: [{ type: 'tool-call', toolName: 'wait', input: {} }] };
        answerNext = false;
        return { parts: [{ type: 'text', text: 'Done waiting.' }] };
      },
    ],
    { repeat: true },
  );
  return {
    model,
    tools: { wait },
    /** Releases the waits begun so far. */
    release: () => {
      gate.resolve();
      gate = gateOf();
    },
    /** Resolves once `n` waits have begun. */
    started: (n: number) =>
      starts >= n
        ? Promise.resolve()
        : new Promise<void>((resolve) => {
            waiters.push({ n, resolve });
          }),
  };
}

const post = (path: string, body?: unknown) =>
  new Request(`http://x${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

/** Two instances: A runs the thread's session, B has only the handlers; one relay between them. */
async function instances(
  store: ChunkStore,
  relays: [Relay, Relay],
  threadId: string,
  durability: 'turn' | 'step',
) {
  const turn = waitingTurn();
  const session = createAgentSession({
    store,
    threadId,
    model: turn.model,
    tools: turn.tools,
    relay: relays[0],
    durability,
    lease: false,
  });
  const a = createChunkHandlers({ store, session, authorize: () => true, relay: relays[0] });
  const b = createChunkHandlers({ store, authorize: () => true, relay: relays[1] });
  return { session, a, b, ...turn };
}

for (const kind of kinds) {
  describe.skipIf(!kind.available)(`control across instances on the ${kind.name} relay`, () => {
    for (const durability of ['turn', 'step'] as const) {
      it(`a cancel posted to the other instance leaves the turn cancelled from the first read after the 202 (${durability})`, async () => {
        const h = createHarness(dialects.includes('postgres') ? 'postgres' : 'sqlite');
        harnesses.push(h);
        const store = h.openStore();
        await store.migrate();
        const relays: [Relay, Relay] = [await kind.open(), await kind.open()];
        const threadId = `cancel-${durability}`;
        const { session, b, started } = await instances(store, relays, threadId, durability);
        try {
          const turn = session.send({ text: 'wait', turnId: 'turn-1' });
          await started(1);
          // Instance B learns of the turn from the relay (as its clients do, from its events).
          await expect.poll(() => relays[1].runningTurn(threadId)).toBe('turn-1');
          const answer = await b.fetch(post(`/threads/${threadId}/cancel`, { turnId: 'turn-1' }));
          expect(answer.status).toBe(202);
          expect(await answer.json()).toEqual({ turnId: 'turn-1' });
          const seen: Array<string | null> = [];
          for (;;) {
            const info = await store.getTurnInfo(threadId, 'turn-1');
            seen.push(info?.status ?? null);
            if (info !== null && info.status !== 'running') break;
            await new Promise((resolve) => setTimeout(resolve, 2));
          }
          expect(seen).not.toContain('completed');
          expect(seen.at(-1)).toBe('cancelled');
          expect((await turn.result).outcome).toBe('cancelled');
        } finally {
          await session.close();
          await store.close();
        }
      });
    }

    it('answers cancel, steering and notices the same on both instances, as the running turn says', async () => {
      const h = createHarness('sqlite');
      harnesses.push(h);
      const store = h.openStore();
      await store.migrate();
      const relays: [Relay, Relay] = [await kind.open(), await kind.open()];
      let run = 0;
      const op = fc.oneof(
        fc.record({ kind: fc.constant('send' as const) }),
        fc.record({
          kind: fc.constant('cancel' as const),
          named: fc.constantFrom('none', 'running', 'other'),
        }),
        fc.record({ kind: fc.constant('steer' as const) }),
        fc.record({ kind: fc.constant('notice' as const) }),
        fc.record({ kind: fc.constant('finish' as const) }),
      );
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.tuple(op, fc.boolean()), { minLength: 1, maxLength: 8 }),
          async (ops) => {
            const threadId = `model-${run++}`;
            const inst = await instances(store, relays, threadId, 'turn');
            /** The model: the turn that runs (its id), if any. */
            let running: string | undefined;
            let handle: ReturnType<typeof inst.session.send> | undefined;
            let turns = 0;
            /** The steering ids the instances answered for the running turn. */
            let steered: string[] = [];
            /** The ids of the running turn's steering the store holds, as its `kind` says. */
            const storedSteering = async (turnId: string, kind: 'dropped' | 'delivered') => {
              const rows = (await store.getRows(threadId)).filter((r) => r.turnId === turnId);
              if (kind === 'delivered') {
                return rows.flatMap((r) => (r.type === 'steering' ? [r.data.id] : []));
              }
              const notice = rows.find((r) => r.type === 'system' && r.data.kind === 'cancelled');
              return notice?.type === 'system' ? (notice.data.dropped ?? []).map((d) => d.id) : [];
            };
            try {
              for (const [o, onB] of ops) {
                const via = onB ? inst.b : inst.a;
                if (o.kind === 'send') {
                  if (running !== undefined) continue;
                  turns++;
                  handle = inst.session.send({ text: 'wait', turnId: `t${turns}` });
                  await inst.started(turns);
                  running = `t${turns}`;
                  steered = [];
                  await expect.poll(() => relays[1].runningTurn(threadId)).toBe(running);
                } else if (o.kind === 'cancel') {
                  const turnId =
                    o.named === 'running' ? running : o.named === 'other' ? 'nope' : undefined;
                  const answer = await via.fetch(
                    post(`/threads/${threadId}/cancel`, turnId === undefined ? {} : { turnId }),
                  );
                  if (running !== undefined && (turnId === undefined || turnId === running)) {
                    expect(answer.status).toBe(202);
                    expect(await answer.json()).toEqual({ turnId: running });
                    await inst.session.idle();
                    if (handle !== undefined) {
                      expect((await handle.result).outcome).toBe('cancelled');
                    }
                    // Steering the turn never read is on its cancel's notice, whichever
                    // instance took it; none of it is stored as steering.
                    expect(await storedSteering(running, 'dropped')).toEqual(steered);
                    expect(await storedSteering(running, 'delivered')).toEqual([]);
                    running = undefined;
                  } else {
                    expect(answer.status).toBe(409);
                    expect(await answer.json()).toMatchObject({ error: { code: 'not-running' } });
                  }
                } else if (o.kind === 'steer') {
                  const answer = await via.fetch(
                    post(`/threads/${threadId}/messages`, { text: 'also this', mode: 'steer' }),
                  );
                  if (running !== undefined) {
                    expect(answer.status).toBe(202);
                    const body = (await answer.json()) as { steeringId: string };
                    expect(Object.keys(body)).toEqual(['steeringId']);
                    steered.push(body.steeringId);
                  } else if (onB) {
                    // No turn runs and no session is on B: nothing can take it.
                    expect(answer.status).toBe(404);
                  } else {
                    // No turn runs: A's session sends it as a turn of its own (it waits in the tool).
                    expect(answer.status).toBe(202);
                    turns++;
                    await inst.started(turns);
                    running = inst.session.runningTurnId;
                    handle = undefined;
                    steered = [];
                    await expect.poll(() => relays[1].runningTurn(threadId)).toBe(running);
                  }
                } else if (o.kind === 'notice') {
                  const answer = await via.fetch(
                    post(`/threads/${threadId}/notices`, { text: 'heads up' }),
                  );
                  if (running !== undefined) {
                    expect(answer.status).toBe(202);
                    expect(await answer.json()).toEqual({ routed: 'turn', turnId: running });
                  } else if (onB) {
                    expect(answer.status).toBe(404);
                  } else {
                    expect(answer.status).toBe(202);
                    expect(await answer.json()).toMatchObject({ routed: 'system-turn' });
                  }
                } else if (o.kind === 'finish' && running !== undefined) {
                  inst.release();
                  await inst.session.idle();
                  expect(await storedSteering(running, 'delivered')).toEqual(steered);
                  expect(await storedSteering(running, 'dropped')).toEqual([]);
                  running = undefined;
                }
              }
            } finally {
              inst.release();
              await inst.session.close();
            }
          },
        ),
        { numRuns: kind.name === 'in-process' ? 25 : 8 },
      );
      await store.close();
    });
  });
}

describe('a cancel during a lease wait, when no turn has started', () => {
  it.each([
    ['naming the waiting turn', { turnId: 'w1' }],
    ['naming no turn', {}],
  ])('%s drops the waiting turn (202), and the model is never called', async (_name, body) => {
    const h = createHarness(dialects.includes('postgres') ? 'postgres' : 'sqlite');
    harnesses.push(h);
    const store = h.openStore();
    await store.migrate();
    // Another process holds the thread's lease (it runs a turn there).
    const other = await store.acquireLease('leased', 'other-process', { ttlMs: 60_000 });
    expect(other.acquired).toBe(true);
    const turn = waitingTurn();
    const session = createAgentSession({
      store,
      threadId: 'leased',
      model: turn.model,
      tools: turn.tools,
      lease: true,
    });
    const handlers = createChunkHandlers({ store, session, authorize: () => true });
    try {
      const waiting = session.send({ text: 'wait for the lease', turnId: 'w1' });
      expect(session.runningTurnId).toBe('w1');
      const answer = await handlers.fetch(post('/threads/leased/cancel', body));
      expect(answer.status).toBe(202);
      expect(await answer.json()).toEqual({ turnId: 'w1' });
      expect((await waiting.result).outcome).toBe('dropped');
      expect(turn.model.calls).toHaveLength(0);
      expect(await store.getTurnInfo('leased', 'w1')).toBeNull();
      // Nothing else waits: a cancel now finds no turn.
      const again = await handlers.fetch(post('/threads/leased/cancel', {}));
      expect(again.status).toBe(409);
    } finally {
      await session.close();
      await store.close();
    }
  });
});

/**
 * Two sessions of one thread on two instances, each with its own relay of `kind`: A runs turn
 * `on-a` (in its tool), B's turn `on-b` waits for the thread's lease, which A holds, and B
 * serves the thread's control meanwhile. B's handlers take the requests. With `sameProcess`,
 * A and B share one process's relay (one session per request, as on a serverless platform), and
 * the handlers are a third instance's, with no session of the thread.
 */
async function aRunsAndBWaits(
  kind: RelayKind,
  via: 'session' | 'http' = 'session',
  sameProcess = false,
) {
  const h = createHarness(dialects.includes('postgres') ? 'postgres' : 'sqlite');
  harnesses.push(h);
  const store = h.openStore();
  await store.migrate();
  const opened = await kind.open();
  const relays: [Relay, Relay] = [opened, sameProcess ? opened : await kind.open()];
  const handlersRelay = sameProcess ? await kind.open() : relays[1];
  const threadId = 'two-sessions';
  const onA = waitingTurn();
  const onB = waitingTurn();
  const open = (turn: ReturnType<typeof waitingTurn>, relay: Relay) =>
    createAgentSession({
      store,
      threadId,
      model: turn.model,
      tools: turn.tools,
      relay,
      lease: true,
    });
  const a = open(onA, relays[0]);
  const b = open(onB, relays[1]);
  const handlersB = createChunkHandlers({
    store,
    ...(sameProcess ? {} : { session: b }),
    authorize: () => true,
    relay: handlersRelay,
  });
  const firstTurn = a.send({ text: 'first, on A', turnId: 'on-a' });
  await onA.started(1);
  await expect.poll(() => relays[1].runningTurn(threadId)).toBe('on-a');
  // B's turn is sent on its session, or posted to its handlers (`posted` is then their answer).
  const sent = { text: 'second, on B', turnId: 'on-b' };
  const posted =
    via === 'http' ? await handlersB.fetch(post(`/threads/${threadId}/messages`, sent)) : undefined;
  const second = via === 'session' ? b.send(sent) : undefined;
  expect(b.runningTurnId).toBe('on-b');
  const listeners = kind.controlListeners;
  if (listeners !== undefined) {
    await expect.poll(() => listeners(threadId)).toBe(sameProcess ? 1 : 2);
  }
  return {
    store,
    threadId,
    a,
    b,
    onA,
    onB,
    first: firstTurn,
    /** B's turn, when sent on its session. */
    second: second as TurnHandle,
    posted,
    handlersB,
    close: async () => {
      onA.release();
      onB.release();
      await a.close();
      await b.close();
      await store.close();
    },
  };
}

for (const kind of [...kinds, postgres]) {
  describe.skipIf(!kind.available)(
    `a second instance waiting for the lease on the ${kind.name} relay`,
    () => {
      it('leaves steering and notices to the running turn: each is stored once, and the waiting turn runs after', async () => {
        const t = await aRunsAndBWaits(kind);
        const { store, threadId, b, onA, onB, first, second, handlersB } = t;
        try {
          const steered = await handlersB.fetch(
            post(`/threads/${threadId}/messages`, { text: 'be brief', mode: 'steer' }),
          );
          expect(steered.status).toBe(202);
          const noticed = await handlersB.fetch(
            post(`/threads/${threadId}/notices`, { text: 'heads up' }),
          );
          expect(noticed.status).toBe(202);
          expect(await noticed.json()).toEqual({ routed: 'turn', turnId: 'on-a' });

          onA.release();
          expect((await first.result).outcome).toBe('completed');
          await onB.started(1);
          onB.release();
          expect((await second.result).outcome).toBe('completed');
          // Nothing else was left to B: the steering and the notice were not taken as work of its own.
          expect(b.queued).toBe(0);
          expect(b.runningTurnId).toBeUndefined();
          expect(onB.model.calls.length).toBe(2);

          const rows = await store.getRows(threadId);
          const texts = (type: string) =>
            rows.filter((r) => r.type === type).map((r) => `${r.turnId}:${JSON.stringify(r.data)}`);
          expect(texts('steering')).toEqual([expect.stringMatching(/^on-a:.*be brief/)]);
          expect(
            rows.filter((r) => JSON.stringify(r.data).includes('heads up')).map((r) => r.turnId),
          ).toEqual(['on-a']);
          expect([...new Set(rows.map((r) => r.turnId))]).toEqual(['on-a', 'on-b']);
        } finally {
          await t.close();
        }
      });

      it('a cancel without a turn id stops the running turn and leaves the waiting one, which runs after it', async () => {
        const t = await aRunsAndBWaits(kind);
        const { store, threadId, onB, first, second, handlersB } = t;
        try {
          const cancel = await handlersB.fetch(post(`/threads/${threadId}/cancel`, {}));
          expect(cancel.status).toBe(202);
          expect(await cancel.json()).toEqual({ turnId: 'on-a' });
          expect((await first.result).outcome).toBe('cancelled');
          // B's turn was sent and answered 202: it takes the lease and runs, as a queued turn would.
          await onB.started(1);
          onB.release();
          expect((await second.result).outcome).toBe('completed');
          expect(await store.getTurnInfo(threadId, 'on-a')).toMatchObject({ status: 'cancelled' });
          expect(await store.getTurnInfo(threadId, 'on-b')).toMatchObject({ status: 'completed' });
        } finally {
          await t.close();
        }
      });

      it('with both sessions on one process, a third instance steers and stops the running turn, and the waiting one runs after it', async () => {
        const t = await aRunsAndBWaits(kind, 'session', true);
        const { store, threadId, onB, first, second, handlersB } = t;
        try {
          const steered = await handlersB.fetch(
            post(`/threads/${threadId}/messages`, { text: 'be brief', mode: 'steer' }),
          );
          // Taken by the running turn (its session was asked beside the waiting one).
          expect(steered.status).toBe(202);
          expect(await steered.json()).toEqual({ steeringId: expect.any(String) });
          const cancel = await handlersB.fetch(post(`/threads/${threadId}/cancel`, {}));
          expect(cancel.status).toBe(202);
          expect(await cancel.json()).toEqual({ turnId: 'on-a' });
          expect((await first.result).outcome).toBe('cancelled');
          await onB.started(1);
          onB.release();
          expect((await second.result).outcome).toBe('completed');
          expect(await store.getTurnInfo(threadId, 'on-a')).toMatchObject({ status: 'cancelled' });
          expect(await store.getTurnInfo(threadId, 'on-b')).toMatchObject({ status: 'completed' });
        } finally {
          await t.close();
        }
      });

      it('a send posted while another instance runs the thread answers queued, and runs after it', async () => {
        const t = await aRunsAndBWaits(kind, 'http');
        const { store, threadId, onA, onB, first, posted } = t;
        try {
          expect(posted?.status).toBe(202);
          expect(await posted?.json()).toEqual({ turnId: 'on-b', queued: true });
          onA.release();
          expect((await first.result).outcome).toBe('completed');
          await onB.started(1);
          onB.release();
          await expect
            .poll(async () => (await store.getTurnInfo(threadId, 'on-b'))?.status)
            .toBe('completed');
        } finally {
          await t.close();
        }
      });

      it('a cancel naming the waiting turn drops it and leaves the running one', async () => {
        const t = await aRunsAndBWaits(kind);
        const { store, threadId, a, onA, onB, first, second, handlersB } = t;
        try {
          const cancel = await handlersB.fetch(
            post(`/threads/${threadId}/cancel`, { turnId: 'on-b' }),
          );
          expect(cancel.status).toBe(202);
          expect(await cancel.json()).toEqual({ turnId: 'on-b' });
          expect((await second.result).outcome).toBe('dropped');
          expect(a.runningTurnId).toBe('on-a');
          onA.release();
          expect((await first.result).outcome).toBe('completed');
          expect(onB.model.calls).toHaveLength(0);
          expect(await store.getTurnInfo(threadId, 'on-b')).toBeNull();
        } finally {
          await t.close();
        }
      });
    },
  );
}

describe('`queued` in the answer to a send, when the relay says a turn runs elsewhere', () => {
  it.each([
    ['a session without the lease runs its turn at once: not queued', false, 'ok'],
    ['a relay that cannot say counts as no turn: the send goes on', true, 'down'],
  ] as const)('%s', async (_name, lease, relayAnswers) => {
    const h = createHarness('sqlite');
    harnesses.push(h);
    const store = h.openStore();
    await store.migrate();
    const relay = createInProcessRelay();
    let asked = 0;
    relay.runningTurn = async () => {
      asked++;
      if (relayAnswers === 'down')
        throw new ChunklogError('relay-unavailable', 'The relay is down.');
      return 'a-turn-elsewhere';
    };
    const session = createAgentSession({
      store,
      threadId: 'q',
      model: createScriptedModel([{ parts: [{ type: 'text', text: 'ok' }] }]),
      relay,
      lease,
    });
    expect(session.leased).toBe(lease);
    const handlers = createChunkHandlers({ store, session, authorize: () => true, relay });
    try {
      const answer = await handlers.fetch(
        post('/threads/q/messages', { text: 'hi', turnId: 'q1' }),
      );
      expect(answer.status).toBe(202);
      expect(await answer.json()).toEqual({ turnId: 'q1', queued: false });
      expect(asked).toBe(lease ? 1 : 0);
      await expect.poll(async () => (await store.getTurnInfo('q', 'q1'))?.status).toBe('completed');
    } finally {
      await session.close();
      await store.close();
    }
  });
});
