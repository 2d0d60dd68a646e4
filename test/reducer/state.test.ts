// The state object: the cached chunk list, O(1) access, structural sharing, branching, eviction.
import { describe, expect, it } from 'vitest';
import {
  createTurnState,
  evictLeadingChunks,
  foldTurn,
  reduceTurn,
  type TurnState,
} from '../../src/reducer/index.js';
import { TurnStateImpl } from '../../src/reducer/turn-state.js';
import { e } from '../support/chunk-events.js';

describe('TurnState', () => {
  it('materializes `chunks` once per state, frozen', () => {
    const state = foldTurn([e.text('a'), e.system('b')]);
    expect(state.chunks).toBe(state.chunks);
    expect(Object.isFrozen(state.chunks)).toBe(true);
    expect(state.chunkCount).toBe(2);
    expect(state.chunkAt(0)).toBe(state.chunks[0]);
    expect(state.chunkAt(1)).toBe(state.chunks[1]);
    expect(state.chunkAt(2)).toBeUndefined();
    expect(state.chunkAt(-1)).toBeUndefined();
    expect(state.chunkAt(0.5)).toBeUndefined();
  });

  it('shares unchanged chunks between states and never changes an older one', () => {
    let state: TurnState = createTurnState();
    const history: Array<{ state: TurnState; json: string }> = [];
    for (let i = 0; i < 50; i++) {
      state = reduceTurn(state, i % 10 === 0 ? e.system(`s${i}`) : e.text(`${i},`));
      history.push({ state, json: JSON.stringify(state.chunks) });
    }
    for (const { state: old, json } of history) expect(JSON.stringify(old.chunks)).toBe(json);
    const last = history.at(-1)?.state as TurnState;
    const next = reduceTurn(last, e.text('more'));
    for (let i = 0; i < last.chunkCount - 1; i++) expect(next.chunkAt(i)).toBe(last.chunkAt(i));
  });

  it('two branches from one state do not see each other', () => {
    const base = foldTurn([e.system('a'), e.system('b')]);
    const left = foldTurn([e.system('left'), e.system('left 2')], base);
    const right = foldTurn([e.system('right')], base);
    expect(left.chunks.map((c) => ('text' in c ? c.text : ''))).toEqual([
      'a',
      'b',
      'left',
      'left 2',
    ]);
    expect(right.chunks.map((c) => ('text' in c ? c.text : ''))).toEqual(['a', 'b', 'right']);
    expect(base.chunkCount).toBe(2);
  });

  it('serializes its public fields with JSON.stringify', () => {
    const state = foldTurn([e.turnStart('t1'), e.text('x')]);
    expect(JSON.parse(JSON.stringify(state))).toStrictEqual({
      chunks: [{ type: 'text', step: 0, text: 'x' }],
      chunkCount: 1,
      openIndex: 0,
      evicted: 0,
      turnId: 't1',
      assistantId: null,
      step: 0,
      ended: false,
      steps: [],
    });
  });

  it('adopts a TurnState it did not make', () => {
    const foreign: TurnState = {
      chunks: [{ type: 'text', step: 0, text: 'x' }],
      chunkCount: 1,
      chunkAt: (i) => (i === 0 ? { type: 'text', step: 0, text: 'x' } : undefined),
      openIndex: null,
      evicted: 0,
      turnId: 't',
      assistantId: null,
      step: 0,
      ended: false,
      finishReason: undefined,
      usage: undefined,
      steps: [],
    };
    const next = reduceTurn(foreign, e.text('y'));
    expect(next.chunks).toStrictEqual([
      { type: 'text', step: 0, text: 'x' },
      { type: 'text', step: 0, text: 'y' },
    ]);
    expect(next.turnId).toBe('t');
  });
});

describe('evictLeadingChunks', () => {
  const many = foldTurn(Array.from({ length: 10 }, (_, i) => e.system(`n${i}`)));

  it('drops the requested leading chunks and counts them in `evicted`', () => {
    const smaller = evictLeadingChunks(many, 4);
    expect(smaller.chunkCount).toBe(6);
    expect(smaller.evicted).toBe(4);
    expect(smaller.chunks).toStrictEqual(many.chunks.slice(4));
    expect(smaller.chunkAt(0)).toBe(many.chunkAt(4));
    expect(many.chunkCount).toBe(10);
    expect(evictLeadingChunks(smaller, 2).chunks).toStrictEqual(many.chunks.slice(6));
  });

  it('can drop every chunk when none is open, and then keeps going', () => {
    const empty = evictLeadingChunks(many, 100);
    expect(empty.chunkCount).toBe(0);
    expect(empty.evicted).toBe(10);
    const next = reduceTurn(empty, e.text('x'));
    expect(next.chunks).toStrictEqual([{ type: 'text', step: 0, text: 'x' }]);
    expect(next.openIndex).toBe(0);
  });

  it('never drops the open chunk nor anything after it', () => {
    const open = foldTurn([e.system('a'), e.textStart('t'), e.system('b'), e.system('c')]);
    expect(open.openIndex).toBe(1);
    const smaller = evictLeadingChunks(open, 3);
    expect(smaller.evicted).toBe(1);
    expect(smaller.openIndex).toBe(0);
    const continued = reduceTurn(smaller, e.text('late', 't'));
    expect(continued.chunkAt(0)).toMatchObject({ type: 'text', text: 'late' });
  });

  it('ignores a count that is zero, negative or not a number', () => {
    expect(evictLeadingChunks(many, 0)).toBe(many);
    expect(evictLeadingChunks(many, -3)).toBe(many);
    expect(evictLeadingChunks(many, Number.NaN)).toBe(many);
    expect(evictLeadingChunks(many, 2.7).evicted).toBe(2);
  });

  it('a later result for a call in a dropped batch becomes an orphan entry', () => {
    const state = foldTurn([e.call('a'), e.text('x'), e.system('y')]);
    const smaller = evictLeadingChunks(state, 1);
    const next = reduceTurn(smaller, e.result('a', 1));
    expect(next.chunks.at(-1)).toStrictEqual({
      type: 'tool-batch',
      step: 0,
      calls: [{ id: 'a', name: '', orphan: true, result: 1 }],
    });
  });

  it('frees the memory of what it drops once the dropped part outgrows the rest', () => {
    const big = foldTurn(Array.from({ length: 1000 }, (_, i) => e.system(`n${i}`)));
    const smaller = evictLeadingChunks(big, 990);
    expect(smaller).toBeInstanceOf(TurnStateImpl);
    expect((smaller as TurnStateImpl).buf.length).toBeLessThanOrEqual(10);
    const slightly = evictLeadingChunks(big, 10);
    expect((slightly as TurnStateImpl).buf).toBe((big as TurnStateImpl).buf);
  });

  it('keeps working on a long turn evicted in small slices', () => {
    let state: TurnState = createTurnState();
    for (let i = 0; i < 2000; i++) {
      state = reduceTurn(state, e.system(`n${i}`));
      if (i % 7 === 6) state = evictLeadingChunks(state, 5);
    }
    expect(state.evicted + state.chunkCount).toBe(2000);
    expect(state.chunkAt(state.chunkCount - 1)).toMatchObject({ text: 'n1999' });
    expect(state.chunkAt(0)).toMatchObject({ text: `n${state.evicted}` });
  });
});
