// Text and thinking blocks: what `ai@7`'s block markers add to the plan's rules.
import { describe, expect, it } from 'vitest';
import { foldTurn } from '../../src/reducer/index.js';
import { e, ev } from '../support/chunk-events.js';

const sig = (signature: string) => ({ anthropic: { signature } });

describe('provider blocks', () => {
  it('two consecutive blocks of the same kind stay two chunks', () => {
    const state = foldTurn([
      e.textStart('1'),
      e.text('Apple Ginza reopens.', '1'),
      ev('text-end', {
        id: '1',
        citations: [{ source: { sourceType: 'url', id: 's1', url: 'https://apple.com' } }],
      }),
      e.textStart('2'),
      e.text(' ', '2'),
      e.textEnd('2'),
    ]);
    expect(state.chunks).toStrictEqual([
      {
        type: 'text',
        step: 0,
        id: '1',
        text: 'Apple Ginza reopens.',
        citations: [{ source: { sourceType: 'url', id: 's1', url: 'https://apple.com' } }],
      },
      { type: 'text', step: 0, id: '2', text: ' ' },
    ]);
  });

  it('a delta with the id of a still-open block goes to that block, even after other chunks', () => {
    const state = foldTurn([
      e.textStart('a'),
      e.text('Hel', 'a'),
      e.system('config reloaded', 'config-reload'),
      e.text('lo', 'a'),
      e.textEnd('a'),
    ]);
    expect(state.chunks).toStrictEqual([
      { type: 'text', step: 0, id: 'a', text: 'Hello' },
      { type: 'system', step: 0, kind: 'config-reload', text: 'config reloaded' },
    ]);
    expect(state.openIndex).toBeNull();
  });

  it('interleaved blocks (two open at once) each keep their own deltas', () => {
    const state = foldTurn([
      e.thinkStart('r'),
      e.textStart('t'),
      e.think('think ', 'r'),
      e.text('say ', 't'),
      e.think('more', 'r'),
      e.text('more', 't'),
    ]);
    expect(state.chunks).toStrictEqual([
      { type: 'thinking', step: 0, id: 'r', text: 'think more' },
      { type: 'text', step: 0, id: 't', text: 'say more' },
    ]);
    expect(state.openIndex).toBe(0);
    expect(foldTurn([e.thinkEnd('r')], state).openIndex).toBe(1);
  });

  it('keeps a signature that arrives on a reasoning delta with empty text', () => {
    const state = foldTurn([
      e.thinkStart('0'),
      e.think('Opus thinking', '0'),
      ev('reasoning-delta', { id: '0', text: '', providerMetadata: sig('SIG') }),
      e.thinkEnd('0'),
    ]);
    expect(state.chunks).toStrictEqual([
      { type: 'thinking', step: 0, id: '0', text: 'Opus thinking', providerMetadata: sig('SIG') },
    ]);
  });

  it('keeps redacted thinking: a reasoning start with metadata and no deltas', () => {
    const redacted = { anthropic: { redactedData: 'EncryptedBlob==' } };
    const state = foldTurn([
      ev('reasoning-start', { id: '0', providerMetadata: redacted }),
      e.thinkEnd('0'),
      e.textStart('1'),
      e.text('Hi', '1'),
      e.textEnd('1'),
    ]);
    expect(state.chunks).toStrictEqual([
      { type: 'thinking', step: 0, id: '0', text: '', providerMetadata: redacted },
      { type: 'text', step: 0, id: '1', text: 'Hi' },
    ]);
  });

  it('drops an empty block without metadata at its end, or when a step or the turn closes it', () => {
    expect(foldTurn([e.textStart('a'), e.textEnd('a')]).chunks).toEqual([]);
    expect(foldTurn([e.thinkStart('a'), e.stepStart()]).chunks).toEqual([]);
    expect(foldTurn([e.text('x'), e.textStart('a'), e.system('n'), e.turnEnd()]).chunks).toEqual([
      { type: 'text', step: 0, text: 'x' },
      { type: 'system', step: 0, kind: 'notice', text: 'n' },
    ]);
  });

  it('an empty block is in the list while open (it is the open chunk)', () => {
    const state = foldTurn([e.text('x'), e.thinkStart('r')]);
    expect(state.chunks).toStrictEqual([
      { type: 'text', step: 0, text: 'x' },
      { type: 'thinking', step: 0, id: 'r', text: '' },
    ]);
    expect(state.openIndex).toBe(1);
  });

  it('merges metadata across start, deltas and end, per provider key, later values winning', () => {
    const state = foldTurn([
      ev('reasoning-start', {
        id: 'rs:0',
        providerMetadata: { openai: { itemId: 'rs', reasoningEncryptedContent: 'A' } },
      }),
      ev('reasoning-delta', {
        id: 'rs:0',
        text: 'a',
        providerMetadata: { openai: { itemId: 'rs' } },
      }),
      ev('reasoning-delta', { id: 'rs:0', text: 'b', providerMetadata: { other: { x: 1 } } }),
      ev('reasoning-end', {
        id: 'rs:0',
        providerMetadata: { openai: { itemId: 'rs', reasoningEncryptedContent: 'B' } },
      }),
    ]);
    expect(state.chunks).toStrictEqual([
      {
        type: 'thinking',
        step: 0,
        id: 'rs:0',
        text: 'ab',
        providerMetadata: {
          openai: { itemId: 'rs', reasoningEncryptedContent: 'B' },
          other: { x: 1 },
        },
      },
    ]);
  });

  it('keeps what an end with no block to close carries, as an empty block', () => {
    const state = foldTurn([
      ev('reasoning-end', {
        id: 'x',
        providerMetadata: { openai: { reasoningEncryptedContent: 'E' } },
      }),
      e.textEnd('nothing'),
    ]);
    expect(state.chunks).toStrictEqual([
      {
        type: 'thinking',
        step: 0,
        id: 'x',
        text: '',
        providerMetadata: { openai: { reasoningEncryptedContent: 'E' } },
      },
    ]);
  });

  it('a second start with the id of an open block closes it and opens a new block', () => {
    const state = foldTurn([
      e.textStart('a'),
      e.text('one', 'a'),
      e.textStart('a'),
      e.text('two', 'a'),
    ]);
    expect(state.chunks).toStrictEqual([
      { type: 'text', step: 0, id: 'a', text: 'one' },
      { type: 'text', step: 0, id: 'a', text: 'two' },
    ]);
    expect(state.openIndex).toBe(1);
  });

  it('bare deltas: join an unclosed bare chunk of their kind, never a closed block', () => {
    const state = foldTurn([
      e.textStart('a'),
      e.text('block', 'a'),
      e.textEnd('a'),
      e.text('bare '),
      e.text('run', 'y'),
      e.text(' on', 'y'),
      e.text('other id', 'z'),
    ]);
    expect(state.chunks).toStrictEqual([
      { type: 'text', step: 0, id: 'a', text: 'block' },
      { type: 'text', step: 0, text: 'bare run on', id: 'y' },
      { type: 'text', step: 0, id: 'z', text: 'other id' },
    ]);
    expect(state.openIndex).toBe(2);
  });

  it('a delta without an id follows the plan’s rule: after another chunk, it opens a new one', () => {
    const state = foldTurn([
      e.textStart(),
      e.text('a'),
      e.system('note'),
      e.text('b'),
      e.textEnd(),
    ]);
    expect(state.chunks).toStrictEqual([
      { type: 'text', step: 0, text: 'a' },
      { type: 'system', step: 0, kind: 'notice', text: 'note' },
      { type: 'text', step: 0, text: 'b' },
    ]);
    expect(state.openIndex).toBe(0);
    expect(foldTurn([e.textEnd()], state).openIndex).toBeNull();
  });

  it('a bare delta with no id joins the open block of its kind', () => {
    const state = foldTurn([e.textStart('a'), e.text('x', 'a'), e.text('y')]);
    expect(state.chunks).toStrictEqual([{ type: 'text', step: 0, id: 'a', text: 'xy' }]);
  });

  it('an end without an id closes the latest open block (or bare chunk) of its kind', () => {
    expect(foldTurn([e.text('bare'), e.textEnd()]).openIndex).toBeNull();
    const state = foldTurn([e.textStart('a'), e.text('x', 'a'), e.textEnd()]);
    expect(state.openIndex).toBeNull();
    expect(foldTurn([e.text('y')], state).chunks).toHaveLength(2);
  });

  it('ignores a bare empty delta without metadata', () => {
    expect(foldTurn([e.text(''), e.think('')]).chunks).toEqual([]);
  });

  it('a chunk never spans two steps', () => {
    const state = foldTurn([e.stepStart(), e.text('a'), e.stepStart(), e.text('b')]);
    expect(state.chunks).toStrictEqual([
      { type: 'text', step: 0, text: 'a' },
      { type: 'text', step: 1, text: 'b' },
    ]);
  });

  it('an error or an abort with blocks still open and no finish loses nothing', () => {
    const state = foldTurn([
      e.stepStart(),
      e.thinkStart('r'),
      e.think('half a thou', 'r'),
      e.textStart('t'),
      e.text('half an ans', 't'),
      e.error('socket hang up'),
      e.system('The turn was aborted.', 'cancelled'),
    ]);
    expect(state.chunks).toStrictEqual([
      { type: 'thinking', step: 0, id: 'r', text: 'half a thou' },
      { type: 'text', step: 0, id: 't', text: 'half an ans' },
      { type: 'error', step: 0, message: 'socket hang up' },
      { type: 'system', step: 0, kind: 'cancelled', text: 'The turn was aborted.' },
    ]);
    expect(state.openIndex).toBe(0);
    expect(state.ended).toBe(false);
  });
});
