// Random event sequences — interleaved blocks with ids, empty blocks, streamed tool input,
// approvals, steering, step boundaries, errors and notices — applied to a window with a small
// limit while the user scrolls and forces evictions. After every step: invariant 7, the live
// entries are exactly the rows of the chunks the window holds, the window's turn is what an
// independent fold (evicted at the same moments) gives, and groups are groupRowsToMessages(log).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import {
  createTurnState,
  evictLeadingChunks,
  reduceTurn,
  type TurnState,
} from '../../src/reducer/index.js';
import { CHUNK_EVENT_TYPES, type ChunkEvent } from '../../src/schema/index.js';
import { explodeTurn, groupRowsToMessages } from '../../src/transforms/index.js';
import { ChunkWindow } from '../../src/window/index.js';
import { verifyRowCounts } from '../../src/window/row-count.js';
import { chunkEventArb } from '../support/event-arbitraries.js';

// Check the targeted row counting against a full recount after every event.
verifyRowCounts(true);

const id = fc.option(fc.constantFrom('a', 'b'), { nil: undefined });
const callId = fc.constantFrom('c1', 'c2', 'c3');
const text = fc.string({ maxLength: 3 });
const withId = <T extends object>(event: T, blockId: string | undefined): T =>
  blockId === undefined ? event : { ...event, id: blockId };

const eventArb: fc.Arbitrary<ChunkEvent> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .tuple(id, text)
      .map(([b, t]) => withId({ type: 'text-delta', text: t } as ChunkEvent, b)),
  },
  { weight: 2, arbitrary: id.map((b) => withId({ type: 'text-start' } as ChunkEvent, b)) },
  { weight: 2, arbitrary: id.map((b) => withId({ type: 'text-end' } as ChunkEvent, b)) },
  {
    weight: 3,
    arbitrary: fc
      .tuple(id, text)
      .map(([b, t]) => withId({ type: 'reasoning-delta', text: t } as ChunkEvent, b)),
  },
  { weight: 1, arbitrary: id.map((b) => withId({ type: 'reasoning-start' } as ChunkEvent, b)) },
  {
    weight: 1,
    arbitrary: id.map((b) =>
      withId(
        {
          type: 'reasoning-end',
          providerMetadata: { anthropic: { signature: 's' } },
        } as ChunkEvent,
        b,
      ),
    ),
  },
  {
    weight: 1,
    arbitrary: callId.map(
      (c): ChunkEvent => ({ type: 'tool-input-start', toolCallId: c, toolName: 'read' }),
    ),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(callId, text)
      .map(([c, d]): ChunkEvent => ({ type: 'tool-input-delta', toolCallId: c, delta: d })),
  },
  {
    weight: 2,
    arbitrary: callId.map(
      (c): ChunkEvent => ({ type: 'tool-call', toolCallId: c, toolName: 'read', input: { c } }),
    ),
  },
  {
    weight: 2,
    arbitrary: callId.map(
      (c): ChunkEvent => ({ type: 'tool-result', toolCallId: c, toolName: 'read', output: 'ok' }),
    ),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(callId, text)
      .map(([c, t]): ChunkEvent => ({ type: 'tool-progress', toolCallId: c, text: t })),
  },
  {
    weight: 1,
    arbitrary: callId.map(
      (c): ChunkEvent => ({ type: 'tool-approval-request', toolCallId: c, approvalId: `p-${c}` }),
    ),
  },
  {
    weight: 1,
    arbitrary: fc.tuple(callId, fc.boolean()).map(
      ([c, ok]): ChunkEvent => ({
        type: 'tool-approval-response',
        approvalId: `p-${c}`,
        approved: ok,
      }),
    ),
  },
  {
    weight: 1,
    arbitrary: fc
      .nat({ max: 3 })
      .map((s): ChunkEvent => ({ type: 'steering-message', id: `s${s}`, text: 'more', step: s })),
  },
  { weight: 1, arbitrary: fc.constant<ChunkEvent>({ type: 'step-start' }) },
  {
    weight: 1,
    arbitrary: fc.constant<ChunkEvent>({ type: 'step-finish', finishReason: 'tool-calls' }),
  },
  {
    weight: 1,
    arbitrary: fc.constant<ChunkEvent>({ type: 'error', message: 'boom', statusCode: 500 }),
  },
  {
    weight: 1,
    arbitrary: fc.constant<ChunkEvent>({ type: 'system', kind: 'notice', text: 'note' }),
  },
  { weight: 1, arbitrary: fc.constant<ChunkEvent>({ type: 'custom', kind: 'anthropic.fallback' }) },
);

type Op =
  | { readonly kind: 'event'; readonly event: ChunkEvent }
  | { readonly kind: 'scroll'; readonly up: boolean }
  | { readonly kind: 'force' };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 12, arbitrary: eventArb.map((event): Op => ({ kind: 'event', event })) },
  { weight: 1, arbitrary: fc.boolean().map((up): Op => ({ kind: 'scroll', up })) },
  { weight: 1, arbitrary: fc.constant<Op>({ kind: 'force' }) },
);

function rowsOf(turnId: string, state: TurnState) {
  return explodeTurn(turnId, state.chunks, { role: 'assistant' });
}

/** Applies `ops` to a window of `limit` and checks it after each one. */
function check(limit: number, ops: readonly Op[]): void {
  const window = new ChunkWindow({
    limit,
    loadPage: () => ({ chunks: [], total: 0, oldestSeq: null, hasMore: false }),
  });
  window.apply({ type: 'turn-start', turnId: 'r' });
  let shadow = reduceTurn(createTurnState(), { type: 'turn-start', turnId: 'r' });
  let scrolledUp = false;
  let firstId = 0;
  for (const op of ops) {
    if (op.kind === 'event') {
      window.apply(op.event);
      shadow = reduceTurn(shadow, op.event);
    } else if (op.kind === 'scroll') {
      window.setScrolledUp(op.up);
      scrolledUp = op.up;
    } else {
      window.evict({ force: true });
    }
    const snapshot = window.getSnapshot();
    const state = snapshot.liveTurn as TurnState;
    // The window's turn is the independent fold, evicted at the same moments.
    expect(state.evicted).toBeGreaterThanOrEqual(shadow.evicted);
    shadow = evictLeadingChunks(shadow, state.evicted - shadow.evicted);
    expect(state.evicted).toBe(shadow.evicted);
    expect(state.chunks).toEqual(shadow.chunks);
    expect(state.openIndex).toBe(shadow.openIndex);
    // The live entries are the rows of the held chunks, with ids that never go back.
    const rows = rowsOf('r', state);
    const log = snapshot.log;
    expect(log).toHaveLength(rows.length);
    const first = log.length === 0 ? firstId : Number(log[0]?.id.split(':')[1]);
    expect(first).toBeGreaterThanOrEqual(firstId);
    firstId = first;
    log.forEach((entry, i) => {
      expect(entry).toEqual({
        ...rows[i],
        id: `r:${first + i}`,
        seq: null,
        live: true,
        pending: false,
      });
    });
    // Invariant 7: over the limit only when nothing before the open chunk is left.
    if (!scrolledUp && log.length > limit) {
      expect(state.openIndex).toBe(0);
    }
    expect(snapshot.groups).toEqual(groupRowsToMessages(log));
  }
}

const runs = { numRuns: Number(process.env.WINDOW_PROP_RUNS ?? 200) };

describe('ChunkWindow over random event sequences', () => {
  it('keeps invariant 7 and the live view exact (interleavings that matter)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 8 }), fc.array(opArb, { maxLength: 120 }), check),
      runs,
    );
  });

  it('keeps invariant 7 and the live view exact (every event type and field)', () => {
    const types = CHUNK_EVENT_TYPES.filter((t) => t !== 'turn-start' && t !== 'turn-end');
    const anyOp: fc.Arbitrary<Op> = fc.oneof(
      {
        weight: 12,
        arbitrary: chunkEventArb(types).map((event): Op => ({ kind: 'event', event })),
      },
      { weight: 1, arbitrary: fc.boolean().map((up): Op => ({ kind: 'scroll', up })) },
      { weight: 1, arbitrary: fc.constant<Op>({ kind: 'force' }) },
    );
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 8 }), fc.array(anyOp, { maxLength: 80 }), check),
      runs,
    );
  });

  it('counts the rows of a call whose own batch lies before a deferred result of it (a counterexample)', () => {
    // The deferred result's batch comes after the call's own; tool-progress then changes the
    // call's own entry, before the first open (or last) chunk: the targeted count must look there.
    const events: ChunkEvent[] = [
      { type: 'tool-approval-response', approvalId: 'p1', approved: false, toolCallId: 'c1' },
      { type: 'tool-result', toolCallId: 'c3', output: false },
      { type: 'tool-result', toolCallId: 'c1', output: null, providerExecuted: true },
      { type: 'tool-progress', toolCallId: 'c1', output: {} },
    ];
    check(
      4,
      events.map((event): Op => ({ kind: 'event', event })),
    );
  });
});
