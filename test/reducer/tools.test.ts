// Tool calls: batches, streamed input, results anywhere in the turn, progress, approvals, orphans.
import { describe, expect, it } from 'vitest';
import { foldTurn, reduceTurn } from '../../src/reducer/index.js';
import type { Chunk } from '../../src/schema/index.js';
import { e, ev } from '../support/chunk-events.js';

describe('tool calls', () => {
  it('streams a call’s input into inputText; the tool-call sets input and drops inputText', () => {
    const streaming = foldTurn([
      ev('tool-input-start', { toolCallId: 'c1', toolName: 'lookup', providerExecuted: true }),
      ev('tool-input-delta', { toolCallId: 'c1', delta: '{"q":' }),
      ev('tool-input-delta', { toolCallId: 'c1', delta: '"x"}' }),
    ]);
    expect(streaming.chunks).toStrictEqual([
      {
        type: 'tool-batch',
        step: 0,
        calls: [{ id: 'c1', name: 'lookup', providerExecuted: true, inputText: '{"q":"x"}' }],
      },
    ]);
    expect(streaming.openIndex).toBe(0);
    const called = foldTurn(
      [
        e.call('c1', 'lookup', { q: 'x' }),
        ev('tool-input-delta', { toolCallId: 'c1', delta: 'late' }),
      ],
      streaming,
    );
    expect(called.chunks).toStrictEqual([
      {
        type: 'tool-batch',
        step: 0,
        calls: [{ id: 'c1', name: 'lookup', providerExecuted: true, input: { q: 'x' } }],
      },
    ]);
    expect(called.openIndex).toBeNull();
  });

  it('a call whose input never finished keeps its inputText when the turn ends', () => {
    const state = foldTurn([
      ev('tool-input-start', { toolCallId: 'c1', toolName: 'write' }),
      ev('tool-input-delta', { toolCallId: 'c1', delta: '{"pa' }),
      e.turnEnd('error'),
    ]);
    expect(state.chunks[0]).toStrictEqual({
      type: 'tool-batch',
      step: 0,
      calls: [{ id: 'c1', name: 'write', inputText: '{"pa' }],
    });
    expect(state.openIndex).toBeNull();
  });

  it('parallel calls whose inputs stream interleaved join one batch', () => {
    const state = foldTurn([
      ev('tool-input-start', { toolCallId: 'a', toolName: 'x' }),
      ev('tool-input-start', { toolCallId: 'b', toolName: 'y' }),
      ev('tool-input-delta', { toolCallId: 'b', delta: '{}' }),
      ev('tool-input-delta', { toolCallId: 'a', delta: '{}' }),
      e.call('b', 'y'),
      e.call('a', 'x'),
    ]);
    expect(state.chunks).toStrictEqual([
      {
        type: 'tool-batch',
        step: 0,
        calls: [
          { id: 'a', name: 'x', input: {} },
          { id: 'b', name: 'y', input: {} },
        ],
      },
    ]);
  });

  it('calls of a new step open a new batch', () => {
    const state = foldTurn([e.stepStart(), e.call('a'), e.stepStart(), e.call('b')]);
    expect(state.chunks).toStrictEqual([
      { type: 'tool-batch', step: 0, calls: [{ id: 'a', name: 'tool', input: {} }] },
      { type: 'tool-batch', step: 1, calls: [{ id: 'b', name: 'tool', input: {} }] },
    ]);
  });

  it('a result lands in its batch wherever it is, leaving older states unchanged', () => {
    const before = foldTurn([e.call('a'), e.call('b'), e.text('meanwhile'), e.think('hmm')]);
    const after = reduceTurn(before, e.result('a', { ok: true }));
    expect(after.chunks[0]).toStrictEqual({
      type: 'tool-batch',
      step: 0,
      calls: [
        { id: 'a', name: 'tool', input: {}, result: { ok: true } },
        { id: 'b', name: 'tool', input: {} },
      ],
    });
    expect(before.chunks[0]).toStrictEqual({
      type: 'tool-batch',
      step: 0,
      calls: [
        { id: 'a', name: 'tool', input: {} },
        { id: 'b', name: 'tool', input: {} },
      ],
    });
    expect(after.chunks[1]).toBe(before.chunks[1]);
  });

  it('records errors and denials on the call', () => {
    const state = foldTurn([
      e.call('a'),
      e.call('b'),
      ev('tool-result', { toolCallId: 'a', output: 'Error: boom', isError: true }),
      ev('tool-result', { toolCallId: 'b', output: null, isError: true, denied: true }),
    ]);
    expect(state.chunks[0]).toMatchObject({
      calls: [
        { id: 'a', result: 'Error: boom', isError: true },
        { id: 'b', result: null, isError: true, denied: true },
      ],
    });
  });

  it('progress: text is appended, a preliminary output replaces the one before', () => {
    const state = foldTurn([
      e.call('a', 'search'),
      ev('tool-progress', { toolCallId: 'a', output: { status: 'searching' } }),
      ev('tool-progress', { toolCallId: 'a', text: 'line 1\n' }),
      ev('tool-progress', { toolCallId: 'a', output: { status: 'found 3' }, text: 'line 2\n' }),
      e.result('a', ['r1', 'r2', 'r3']),
    ]);
    expect(state.chunks[0]).toStrictEqual({
      type: 'tool-batch',
      step: 0,
      calls: [
        {
          id: 'a',
          name: 'search',
          input: {},
          preliminary: { status: 'found 3' },
          progress: 'line 1\nline 2\n',
          result: ['r1', 'r2', 'r3'],
        },
      ],
    });
  });

  it('keeps a result for an unknown call as an orphan entry; its later call fills it in', () => {
    const orphaned = foldTurn([
      e.text('hi'),
      ev('tool-result', { toolCallId: 'x', toolName: 'lookup', output: 1 }),
      ev('tool-progress', { toolCallId: 'y', text: 'out' }),
    ]);
    expect(orphaned.chunks).toStrictEqual([
      { type: 'text', step: 0, text: 'hi' },
      {
        type: 'tool-batch',
        step: 0,
        calls: [
          { id: 'x', name: 'lookup', orphan: true, result: 1 },
          { id: 'y', name: '', orphan: true, progress: 'out' },
        ],
      },
    ]);
    const called = reduceTurn(orphaned, e.call('x', 'lookup', { q: 1 }));
    expect(called.chunks[1]).toMatchObject({
      calls: [{ id: 'x', name: 'lookup', input: { q: 1 }, result: 1 }, { id: 'y' }],
    });
    expect(called.chunks[1]).not.toMatchObject({ calls: [{ orphan: true }] });
  });

  it('records an approval request and its response on the call', () => {
    const requested = foldTurn([
      e.call('a', 'delete'),
      ev('tool-approval-request', {
        toolCallId: 'a',
        approvalId: 'p1',
        reason: 'destructive',
        signature: 'hmac',
      }),
    ]);
    expect(requested.chunks[0]).toMatchObject({
      calls: [{ id: 'a', approval: { id: 'p1', reason: 'destructive', signature: 'hmac' } }],
    });
    const answered = reduceTurn(
      requested,
      ev('tool-approval-response', { approvalId: 'p1', approved: false, reason: 'no' }),
    );
    expect(answered.chunks[0]).toMatchObject({
      calls: [
        { id: 'a', approval: { id: 'p1', approved: false, reason: 'no', signature: 'hmac' } },
      ],
    });
  });

  it('keeps an approval for an unknown call as an orphan entry', () => {
    const state = foldTurn([
      ev('tool-approval-response', { approvalId: 'p9', approved: true, toolCallId: 'z' }),
    ]);
    expect(state.chunks).toStrictEqual([
      {
        type: 'tool-batch',
        step: 0,
        calls: [{ id: 'z', name: '', orphan: true, approval: { id: 'p9', approved: true } }],
      },
    ]);
  });

  it('keeps the metadata of a call and of its result apart (neither overwrites the other)', () => {
    const state = foldTurn([
      ev('tool-input-start', {
        toolCallId: 'ws',
        toolName: 'web_search',
        providerExecuted: true,
        providerMetadata: { openai: { itemId: 'ws_call', phase: 'start' } },
      }),
      ev('tool-call', {
        toolCallId: 'ws',
        toolName: 'web_search',
        input: { q: 'x' },
        providerExecuted: true,
        providerMetadata: { openai: { itemId: 'ws_call' } },
      }),
      ev('tool-result', {
        toolCallId: 'ws',
        toolName: 'web_search',
        output: { hits: 1 },
        providerExecuted: true,
        providerMetadata: { openai: { itemId: 'ws_result' } },
      }),
      ev('tool-result', {
        toolCallId: 'orphan',
        toolName: 'calc',
        output: 3,
        providerMetadata: { openai: { status: 'done' } },
      }),
    ]);
    const [ws, orphan] = (state.chunks[0] as Extract<Chunk, { type: 'tool-batch' }>).calls;
    // The call's metadata merges across its start and call; the result's is its own.
    expect(ws?.providerMetadata).toStrictEqual({ openai: { itemId: 'ws_call', phase: 'start' } });
    expect(ws?.resultProviderMetadata).toStrictEqual({ openai: { itemId: 'ws_result' } });
    // A result whose call never came: its metadata is the result's, not a call's.
    expect(orphan).toStrictEqual({
      id: 'orphan',
      name: 'calc',
      orphan: true,
      result: 3,
      resultProviderMetadata: { openai: { status: 'done' } },
    });
  });
});
