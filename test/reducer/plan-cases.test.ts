// The reducer test list of the chunk-refactor plan (seeds/000), case by case. Each case runs with
// bare deltas (what the plan's app saw) and, where block markers change nothing, with the
// `*-start`/`*-end` markers `ai@7` sends.
import { describe, expect, it } from 'vitest';
import { createTurnState, foldTurn, reduceTurn } from '../../src/reducer/index.js';
import type { Chunk } from '../../src/schema/index.js';
import { e, ev } from '../support/chunk-events.js';

const types = (chunks: readonly Chunk[]) => chunks.map((c) => c.type);

describe('the plan’s reducer test list', () => {
  it('empty chunks + text-delta → one text chunk with the delta', () => {
    const state = reduceTurn(createTurnState(), e.text('Hello'));
    expect(state.chunks).toStrictEqual([{ type: 'text', step: 0, text: 'Hello' }]);
    expect(state.openIndex).toBe(0);
  });

  it('two consecutive text-deltas → one text chunk with concatenated text', () => {
    expect(foldTurn([e.text('Hel'), e.text('lo')]).chunks).toStrictEqual([
      { type: 'text', step: 0, text: 'Hello' },
    ]);
    expect(
      foldTurn([e.textStart('a'), e.text('Hel', 'a'), e.text('lo', 'a'), e.textEnd('a')]).chunks,
    ).toStrictEqual([{ type: 'text', step: 0, id: 'a', text: 'Hello' }]);
  });

  it('text-delta then reasoning-delta → two chunks (text, thinking)', () => {
    const state = foldTurn([e.text('answer'), e.think('hmm')]);
    expect(state.chunks).toStrictEqual([
      { type: 'text', step: 0, text: 'answer' },
      { type: 'thinking', step: 0, text: 'hmm' },
    ]);
  });

  it('text-delta then tool-call → two chunks (text, tool-batch with one entry)', () => {
    const state = foldTurn([e.text('Let me look.'), e.call('c1', 'read_file', { path: 'a' })]);
    expect(state.chunks).toStrictEqual([
      { type: 'text', step: 0, text: 'Let me look.' },
      {
        type: 'tool-batch',
        step: 0,
        calls: [{ id: 'c1', name: 'read_file', input: { path: 'a' } }],
      },
    ]);
  });

  it('two consecutive tool-calls → one tool-batch with two entries', () => {
    const state = foldTurn([e.call('c1', 'read_file'), e.call('c2', 'list_files')]);
    expect(state.chunks).toStrictEqual([
      {
        type: 'tool-batch',
        step: 0,
        calls: [
          { id: 'c1', name: 'read_file', input: {} },
          { id: 'c2', name: 'list_files', input: {} },
        ],
      },
    ]);
  });

  it('tool-call then tool-call then text → two chunks (tool-batch with 2 entries, text)', () => {
    const state = foldTurn([e.call('c1'), e.call('c2'), e.text('done')]);
    expect(types(state.chunks)).toEqual(['tool-batch', 'text']);
    expect(state.chunks[0]).toMatchObject({ calls: [{ id: 'c1' }, { id: 'c2' }] });
  });

  it('tool-result → updates the matching entry of the latest tool-batch by id', () => {
    const state = foldTurn([e.call('c1'), e.call('c2'), e.result('c2', { lines: 3 })]);
    expect(state.chunks).toStrictEqual([
      {
        type: 'tool-batch',
        step: 0,
        calls: [
          { id: 'c1', name: 'tool', input: {} },
          { id: 'c2', name: 'tool', input: {}, result: { lines: 3 } },
        ],
      },
    ]);
  });

  it('tool-result finds its entry even when the batch is no longer the last chunk', () => {
    const state = foldTurn([e.call('c1'), e.text('while it runs'), e.result('c1', 42)]);
    expect(state.chunks).toStrictEqual([
      { type: 'tool-batch', step: 0, calls: [{ id: 'c1', name: 'tool', input: {}, result: 42 }] },
      { type: 'text', step: 0, text: 'while it runs' },
    ]);
  });

  it('shell output (tool-progress text) → appends to its call’s progress', () => {
    const state = foldTurn([
      e.call('c1', 'shell'),
      e.call('c2', 'shell'),
      e.progress('c2', '$ ls\n'),
      e.progress('c2', 'a.txt\n'),
      e.progress('c1', 'other'),
    ]);
    expect(state.chunks[0]).toMatchObject({
      calls: [
        { id: 'c1', progress: 'other' },
        { id: 'c2', progress: '$ ls\na.txt\n' },
      ],
    });
  });

  it('error event → opens an error chunk; subsequent events go to new chunks', () => {
    const state = foldTurn([e.text('partial'), e.error('Network error', 503), e.text('more')]);
    expect(state.chunks).toStrictEqual([
      { type: 'text', step: 0, text: 'partial' },
      { type: 'error', step: 0, message: 'Network error', statusCode: 503 },
      { type: 'text', step: 0, text: 'more' },
    ]);
  });

  it('system event during a text run → closes text, opens system, re-opens text on the next delta', () => {
    const state = foldTurn([
      e.text('Sure, '),
      e.system('Switched to Sonnet 4', 'model-changed'),
      e.text('here it is'),
    ]);
    expect(state.chunks).toStrictEqual([
      { type: 'text', step: 0, text: 'Sure, ' },
      { type: 'system', step: 0, kind: 'model-changed', text: 'Switched to Sonnet 4' },
      { type: 'text', step: 0, text: 'here it is' },
    ]);
  });

  it('two consecutive system events → two separate system chunks', () => {
    const state = foldTurn([e.system('one'), e.system('two')]);
    expect(state.chunks).toStrictEqual([
      { type: 'system', step: 0, kind: 'notice', text: 'one' },
      { type: 'system', step: 0, kind: 'notice', text: 'two' },
    ]);
  });

  it('interleaved think → text → think → tool → think → text → 6 chunks in order', () => {
    const bare = foldTurn([
      e.think('I should'),
      e.think(' look'),
      e.text('Sure'),
      e.think('Now'),
      e.call('c1'),
      e.think('Then'),
      e.text('Looking'),
    ]);
    expect(types(bare.chunks)).toEqual([
      'thinking',
      'text',
      'thinking',
      'tool-batch',
      'thinking',
      'text',
    ]);
    expect(bare.chunks.map((c) => ('text' in c ? c.text : ''))).toEqual([
      'I should look',
      'Sure',
      'Now',
      '',
      'Then',
      'Looking',
    ]);

    const marked = foldTurn([
      e.thinkStart('r1'),
      e.think('I should', 'r1'),
      e.thinkEnd('r1'),
      e.textStart('t1'),
      e.text('Sure', 't1'),
      e.textEnd('t1'),
      e.thinkStart('r2'),
      e.think('Now', 'r2'),
      e.thinkEnd('r2'),
      ev('tool-input-start', { toolCallId: 'c1', toolName: 'tool' }),
      e.call('c1'),
      e.thinkStart('r3'),
      e.think('Then', 'r3'),
      e.thinkEnd('r3'),
      e.textStart('t2'),
      e.text('Looking', 't2'),
      e.textEnd('t2'),
    ]);
    expect(types(marked.chunks)).toEqual(types(bare.chunks));
    expect(marked.openIndex).toBeNull();
  });
});
