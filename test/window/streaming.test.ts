import { describe, expect, it } from 'vitest';

import { foldTurn } from '../../src/reducer/index.js';
import type { ChunkEvent } from '../../src/schema/index.js';
import { explodeTurn, groupRowsToMessages } from '../../src/transforms/index.js';
import { ChunkWindow } from '../../src/window/index.js';
import { verifyRowCounts } from '../../src/window/row-count.js';
import { reasoningBlock, textBlock } from './support/events.js';
import { MemoryThread } from './support/page-source.js';

// Check the targeted row counting against a full recount after every event.
verifyRowCounts(true);

function liveWindow(limit = 1000): ChunkWindow {
  const thread = new MemoryThread();
  return new ChunkWindow({ limit, loadPage: (r) => thread.page(r) });
}

const rich: ChunkEvent[] = [
  { type: 'turn-start', turnId: 'r', assistantId: 'a1' },
  { type: 'step-start', step: 0 },
  ...reasoningBlock('let me ', 'think'),
  ...textBlock('Hel', 'lo ', 'there'),
  { type: 'tool-call', toolCallId: 'sh', toolName: 'shell', input: { cmd: 'ls' } },
  { type: 'tool-call', toolCallId: 'rd', toolName: 'read', input: { path: 'a' } },
  { type: 'tool-progress', toolCallId: 'sh', text: 'file1\n' },
  { type: 'tool-progress', toolCallId: 'sh', text: 'file2\n' },
  { type: 'tool-result', toolCallId: 'rd', toolName: 'read', output: 'contents' },
  { type: 'tool-result', toolCallId: 'sh', toolName: 'shell', output: { exit: 0 } },
  { type: 'step-finish', step: 0, finishReason: 'tool-calls' },
  { type: 'step-start', step: 1 },
  { type: 'steering-message', id: 's1', text: 'also check b', step: 1 },
  { type: 'system', kind: 'notice', text: 'model switched' },
  ...textBlock('done'),
  { type: 'error', message: 'rate limited', statusCode: 429 },
  { type: 'step-finish', step: 1, finishReason: 'stop' },
  { type: 'turn-end', finishReason: 'stop' },
];

describe('streaming fidelity (the live flat view)', () => {
  it('after every event, the live entries are explodeTurn of the folded chunks, ids by position', () => {
    const window = liveWindow();
    for (let n = 1; n <= rich.length; n++) {
      window.apply(rich[n - 1] as ChunkEvent);
      const rows = explodeTurn('r', foldTurn(rich.slice(0, n)).chunks, { role: 'assistant' });
      expect(window.log).toEqual(
        rows.map((row, i) => ({ ...row, id: `r:${i}`, seq: null, live: true, pending: false })),
      );
      expect(window.groups).toEqual(groupRowsToMessages(rows));
    }
    expect(window.groups.map((m) => m.id)).toEqual(['r:assistant']);
    expect(window.groups[0]?.chunks).toEqual(foldTurn(rich).chunks);
    expect(window.getSnapshot().liveTurn?.assistantId).toBe('a1');
  });

  it('coalesces deltas into one growing entry with a stable id', () => {
    const window = liveWindow();
    window.apply({ type: 'turn-start', turnId: 't' });
    window.apply({ type: 'text-start' });
    const ids = new Set<string>();
    for (const piece of ['a', 'b', 'c']) {
      window.apply({ type: 'text-delta', text: piece });
      ids.add(window.log.at(-1)?.id ?? '');
    }
    window.apply({ type: 'text-end' });
    expect(window.log).toHaveLength(1);
    expect([...ids]).toEqual(['t:0']);
    expect(window.log[0]).toMatchObject({ type: 'text', role: 'assistant', data: { text: 'abc' } });
  });

  it('seals thinking metadata that arrives on reasoning-end', () => {
    const window = liveWindow();
    window.apply({ type: 'turn-start', turnId: 't' });
    window.apply({ type: 'reasoning-start' });
    window.apply({ type: 'reasoning-delta', text: 'hmm' });
    window.apply({
      type: 'reasoning-end',
      providerMetadata: { anthropic: { signature: 'sig-1' } },
    });
    expect(window.log[0]).toMatchObject({
      type: 'thinking',
      data: { text: 'hmm', providerMetadata: { anthropic: { signature: 'sig-1' } } },
    });
  });

  it('fills a tool result into its call, and shows progress on the result row while it runs', () => {
    const window = liveWindow();
    window.apply({ type: 'turn-start', turnId: 't' });
    window.apply({ type: 'tool-call', toolCallId: 'c', toolName: 'shell', input: { cmd: 'make' } });
    expect(window.log.map((e) => e.type)).toEqual(['tool_call']);
    window.apply({ type: 'tool-progress', toolCallId: 'c', text: 'building\n' });
    window.apply({ type: 'tool-progress', toolCallId: 'c', text: 'ok\n' });
    expect(window.log.map((e) => [e.type, e.role])).toEqual([
      ['tool_call', 'assistant'],
      ['tool_result', 'tool'],
    ]);
    expect(window.log[1]).toMatchObject({ data: { callId: 'c', progress: 'building\nok\n' } });
    window.apply({ type: 'tool-result', toolCallId: 'c', toolName: 'shell', output: 'built' });
    expect(window.log[1]).toMatchObject({ data: { callId: 'c', result: 'built' } });
    const call = window.groups[0]?.chunks[0];
    expect(call).toMatchObject({
      type: 'tool-batch',
      calls: [{ id: 'c', input: { cmd: 'make' }, progress: 'building\nok\n', result: 'built' }],
    });
  });

  it('folds events that come without a turn-start into a provisional turn', () => {
    const window = liveWindow();
    for (const e of textBlock('joined late')) window.apply(e);
    expect(window.liveTurnId).toMatch(/^~live-/);
    expect(window.log[0]).toMatchObject({
      id: `${window.liveTurnId}:0`,
      data: { text: 'joined late' },
    });
    window.apply({ type: 'turn-end' });
    window.apply({ type: 'turn-start', turnId: 'next' });
    expect(window.liveTurnId).toBe('next');
    expect(window.log).toHaveLength(1);
  });

  it('exploding chunk by chunk gives the rows of the whole turn (what the cache relies on)', () => {
    const chunks = foldTurn(rich).chunks;
    const whole = explodeTurn('r', chunks, { role: 'assistant' });
    const piecewise = chunks.flatMap((c) => explodeTurn('r', [c], { role: 'assistant' }));
    expect(piecewise).toEqual(whole);
  });

  it("a queued message's turn starts right after it, before the messages queued behind it", () => {
    const window = liveWindow();
    const shown = () =>
      window.groups.map(
        (m) => `${m.id}=${m.chunks.map((c) => (c.type === 'text' ? c.text : '')).join('')}`,
      );
    window.addPendingUserMessage('Q1', { turnId: 't1' });
    window.apply({ type: 'turn-start', turnId: 't1' });
    for (const e of textBlock('A1')) window.apply(e);
    // Sent while t1 runs: both wait, named with the turns they will start.
    window.addPendingUserMessage('Q2', { turnId: 't2' });
    window.addPendingUserMessage('Q3', { turnId: 't3' });
    window.apply({ type: 'turn-end' });
    window.apply({ type: 'turn-start', turnId: 't2' });
    for (const e of textBlock('A2')) window.apply(e);
    expect(shown()).toEqual([
      't1:user=Q1',
      't1:assistant=A1',
      't2:user=Q2',
      't2:assistant=A2',
      't3:user=Q3',
    ]);
    // An unnamed message joins the next turn-start, and moves to right before it.
    const unnamed = liveWindow();
    const first = unnamed.addPendingUserMessage('first');
    const second = unnamed.addPendingUserMessage('second');
    unnamed.apply({ type: 'turn-start', turnId: 'u1' });
    for (const e of textBlock('answer')) unnamed.apply(e);
    expect(unnamed.groups.map((m) => m.id)).toEqual(['u1:user', 'u1:assistant', `${second}:user`]);
    expect(unnamed.log[0]?.id).toBe(`${first}:0`);
  });

  it('a replayed turn-start of a live turn starts it again instead of doubling it', () => {
    const window = liveWindow();
    const events: ChunkEvent[] = [{ type: 'turn-start', turnId: 't' }, ...textBlock('once')];
    for (const e of events) window.apply(e);
    for (const e of events) window.apply(e);
    expect(window.log.map((e) => e.id)).toEqual(['t:0']);
  });

  it('a turn-start numbered after 0 of the turn it follows (a turn continued after a crash) folds on into it', () => {
    const window = liveWindow();
    window.apply({ type: 'turn-start', turnId: 't' }, { id: 't:0' });
    for (const [i, e] of textBlock('before the crash').entries())
      window.apply(e, { id: `t:${i + 1}` });
    // Another process continues the turn: its turn-start again, numbered after those events.
    window.apply({ type: 'turn-start', turnId: 't' }, { id: 't:4' });
    for (const [i, e] of textBlock('after').entries()) window.apply(e, { id: `t:${i + 5}` });
    const texts = () => window.log.map((e) => (e.type === 'text' ? e.data.text : e.type));
    expect(texts()).toEqual(['before the crash', 'after']);
    // Event 0 again (a replay from the start), an id of another shape or none: folded again.
    for (const id of ['t:0', 'garbage', undefined]) {
      window.apply({ type: 'turn-start', turnId: 't' }, id === undefined ? undefined : { id });
      expect(texts()).toEqual([]);
      window.apply(textBlock('x')[0] as ChunkEvent);
    }
    // Another turn's turn-start mid-stream is a new turn, whatever its number.
    window.apply({ type: 'turn-start', turnId: 'u' }, { id: 'u:9' });
    expect(window.liveTurnId).toBe('u');
  });

  it('a turn-start with a continuation’s epoch (a turn numbered anew after a crash) folds on into the turn it follows, at any index', () => {
    const window = liveWindow();
    window.apply({ type: 'turn-start', turnId: 't' }, { id: 't:0' });
    for (const [i, e] of textBlock('before the crash').entries())
      window.apply(e, { id: `t:${i + 1}` });
    // A process that restarted continues the turn in a numbering of its own, from 0.
    window.apply({ type: 'turn-start', turnId: 't' }, { id: 't:r12.0' });
    for (const [i, e] of textBlock('after').entries()) window.apply(e, { id: `t:r12.${i + 1}` });
    const texts = () => window.log.map((e) => (e.type === 'text' ? e.data.text : e.type));
    expect(texts()).toEqual(['before the crash', 'after']);
    // Numbered on after another continuation's events: still a continuation.
    window.apply({ type: 'turn-start', turnId: 't' }, { id: 't:r15.4' });
    for (const [i, e] of textBlock('more').entries()) window.apply(e, { id: `t:r15.${i + 5}` });
    expect(texts()).toEqual(['before the crash', 'after', 'more']);
    // Not an epoch: folded again from its start.
    window.apply({ type: 'turn-start', turnId: 't' }, { id: 't:x12.0' });
    expect(texts()).toEqual([]);
  });

  it('apply refuses an unknown option or an id that is not a string, changing nothing', () => {
    const window = liveWindow();
    window.apply({ type: 'turn-start', turnId: 't' });
    for (const options of [{ id: 7 }, { idx: 3 }, { index: -1 }, { turnId: 1 }, 'x']) {
      expect(() => window.apply({ type: 'text-delta', text: 'no' }, options as never)).toThrowError(
        expect.objectContaining({ code: 'invalid-option' }),
      );
    }
    expect(window.log).toEqual([]);
  });
});
