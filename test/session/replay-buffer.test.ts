import { describe, expect, it } from 'vitest';
import { parseEventId } from '../../src/entries/session.js';
import { ReplayBuffer } from '../../src/live/replay-buffer.js';
import type { ChunkEvent } from '../../src/schema/chunk-event.js';

/** Feeds a turn of `count` events (turn-start … turn-end when `end`) into the buffer. */
function turn(buffer: ReplayBuffer, turnId: string, count: number, end = true): string[] {
  buffer.begin(turnId);
  const ids: string[] = [];
  for (let index = 0; index < count; index++) {
    const event: ChunkEvent =
      index === 0
        ? { type: 'turn-start', turnId }
        : end && index === count - 1
          ? { type: 'turn-end' }
          : { type: 'text-delta', text: String(index) };
    buffer.push(event, { id: `${turnId}:${index}`, turnId, index });
    ids.push(`${turnId}:${index}`);
  }
  return ids;
}

const ids = (replay: ReturnType<ReplayBuffer['since']>) => replay.events.map((e) => e.meta.id);

describe('ReplayBuffer', () => {
  it('buffers a turn taken over after a crash from its first index: what came before is a gap, nothing twice', () => {
    const buffer = new ReplayBuffer(100);
    turn(buffer, 't1', 4, false);
    // The same turn begins again here (a takeover), numbered on from 6: 4 and 5 are not here.
    buffer.begin('t1', 6);
    for (let index = 6; index < 9; index++) {
      buffer.push(
        { type: 'text-delta', text: String(index) },
        { id: `t1:${index}`, turnId: 't1', index },
      );
    }
    expect(buffer.lastIndex('t1')).toBe(8);
    expect(buffer.lastIndex('t0')).toBeUndefined();
    expect(ids(buffer.since('t1:6'))).toEqual(['t1:7', 't1:8']);
    expect(buffer.since('t1:6').gap).toBe(false);
    const before = buffer.since('t1:2');
    expect([ids(before), before.gap]).toEqual([['t1:6', 't1:7', 't1:8'], true]);
    expect(buffer.latest().gap).toBe(true);
  });

  it('gives a fresh client the live turn, and a resuming one exactly what follows its last id', () => {
    const buffer = new ReplayBuffer(100);
    const live = turn(buffer, 't1', 5, false);
    expect(ids(buffer.since())).toEqual(live);
    expect(ids(buffer.since('t1:2'))).toEqual(['t1:3', 't1:4']);
    expect(ids(buffer.since('t1:4'))).toEqual([]);
    expect(buffer.since('t1:2').gap).toBe(false);
  });

  it('gives a fresh client nothing once the turn is stored (it reads the store)', () => {
    const buffer = new ReplayBuffer(100);
    turn(buffer, 't1', 3);
    buffer.sealed('t1');
    expect(buffer.since()).toEqual({ events: [], gap: false });
    // …but a client that saw part of it still gets the rest.
    expect(ids(buffer.since('t1:0'))).toEqual(['t1:1', 't1:2']);
  });

  it('resumes across turns: the end of the old one, then the whole new one', () => {
    const buffer = new ReplayBuffer(100);
    turn(buffer, 't1', 3);
    const second = turn(buffer, 't2', 4, false);
    expect(ids(buffer.since('t1:1'))).toEqual(['t1:2', ...second]);
    expect(ids(buffer.since('t1:2'))).toEqual(second);
    expect(buffer.since('t1:2').gap).toBe(false);
  });

  it('flags a gap when a missed turn was stored and dropped', () => {
    const buffer = new ReplayBuffer(100);
    turn(buffer, 't1', 3);
    buffer.sealed('t1');
    turn(buffer, 't2', 3);
    buffer.sealed('t2');
    const third = turn(buffer, 't3', 2, false);
    // t2 was stored and dropped: a client that saw all of t1 missed it whole.
    expect(buffer.since('t1:2')).toEqual({
      events: buffer.since().events,
      gap: true,
    });
    expect(ids(buffer.since('t1:2'))).toEqual(third);
    expect(buffer.since('t2:2').gap).toBe(false);
  });

  it('flags a gap for an unknown or dropped id, and for events past the limit', () => {
    const buffer = new ReplayBuffer(4);
    const live = turn(buffer, 't1', 10, false);
    expect(buffer.since('other:3').gap).toBe(true);
    const fresh = buffer.since();
    expect(fresh.gap).toBe(true);
    expect(ids(fresh)).toEqual(live.slice(-fresh.events.length));
    expect(fresh.events.length).toBeGreaterThanOrEqual(4);
    expect(fresh.events.length).toBeLessThanOrEqual(5);
    expect(buffer.since('t1:0').gap).toBe(true);
    expect(ids(buffer.since('t1:8'))).toEqual(['t1:9']);
  });

  it('answers an id of a turn it knows but did not give (another numbering of a continued turn) as an unknown one: a gap, then the live turns', () => {
    const buffer = new ReplayBuffer(100);
    // A process that restarted continues t1 from 0, its ids with the epoch 12.
    buffer.begin('t1');
    const continued: string[] = [];
    for (let index = 0; index < 5; index++) {
      const id = `t1:r12.${index}`;
      const event: ChunkEvent =
        index === 0 ? { type: 'turn-start', turnId: 't1' } : { type: 'text-delta', text: 'x' };
      buffer.push(event, { id, turnId: 't1', index });
      continued.push(id);
    }
    // Ids the dead process gave: one this numbering also has, one past it, one of another epoch.
    for (const dead of ['t1:2', 't1:57', 't1:r9.2', 't1:r12.9']) {
      expect([dead, ids(buffer.since(dead)), buffer.since(dead).gap]).toEqual([
        dead,
        continued,
        true,
      ]);
    }
    // Its own ids resume exactly.
    expect(buffer.since('t1:r12.2')).toEqual({
      events: buffer.since().events.slice(3),
      gap: false,
    });
    // Stored, then dropped behind the next turn: only its own last id reads on with no gap.
    buffer.push({ type: 'turn-end' }, { id: 't1:r12.5', turnId: 't1', index: 5 });
    buffer.sealed('t1');
    const next = turn(buffer, 't2', 2, false);
    expect(buffer.since('t1:r12.5')).toEqual({ events: buffer.since().events, gap: false });
    expect(ids(buffer.since('t1:r12.5'))).toEqual(next);
    for (const dead of ['t1:5', 't1:57', 't1:r12.3']) expect(buffer.since(dead).gap).toBe(true);
  });

  it('reads on across a turn numbered on with another epoch (a second continuation in one process)', () => {
    const buffer = new ReplayBuffer(100);
    buffer.begin('t1');
    buffer.push({ type: 'turn-start', turnId: 't1' }, { id: 't1:r12.0', turnId: 't1', index: 0 });
    buffer.push({ type: 'text-delta', text: 'a' }, { id: 't1:r12.1', turnId: 't1', index: 1 });
    buffer.push({ type: 'turn-start', turnId: 't1' }, { id: 't1:r15.2', turnId: 't1', index: 2 });
    buffer.push({ type: 'text-delta', text: 'b' }, { id: 't1:r15.3', turnId: 't1', index: 3 });
    expect(buffer.since('t1:r12.1')).toMatchObject({ gap: false });
    expect(ids(buffer.since('t1:r12.1'))).toEqual(['t1:r15.2', 't1:r15.3']);
    expect(ids(buffer.since('t1:r15.2'))).toEqual(['t1:r15.3']);
    for (const dead of ['t1:2', 't1:r12.2', 't1:r15.1']) expect(buffer.since(dead).gap).toBe(true);
  });
});

describe('parseEventId', () => {
  it.each([
    ['t1:0', { turnId: 't1', index: 0 }],
    ['a:b:12', { turnId: 'a:b', index: 12 }],
    ['t1:r12.0', { turnId: 't1', index: 0, epoch: 12 }],
    ['a:r1.5:r7.3', { turnId: 'a:r1.5', index: 3, epoch: 7 }],
    ['t1:r.3', undefined],
    ['t1:r12', undefined],
    ['t1:12.3', undefined],
    ['t1', undefined],
    [':3', undefined],
    ['t1:x', undefined],
    ['t1:-1', undefined],
  ])('%j', (id, expected) => {
    expect(parseEventId(id)).toEqual(expected);
  });
});
