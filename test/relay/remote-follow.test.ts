// The shared reader of the remote relays, on a backend of a few entries: what follows what.
import { describe, expect, it } from 'vitest';
import {
  type FollowBackend,
  type FollowWatcher,
  followStored,
  type StoredEntry,
} from '../../src/relay/remote-follow.js';

/**
 * A backend that holds `entries`; a reader resuming from `a:2` stands at position 2 (or, `gap`,
 * the relay did not give `a:2`: after the end of turn 1, at position 2).
 */
function backend(entries: StoredEntry<number>[], gap = false): FollowBackend<number> {
  return {
    watch: async (_threadId: string, _watcher: FollowWatcher) => () => {},
    locate: async () =>
      gap
        ? { position: 2, ord: 1, index: 0, ended: true, gap: true }
        : { position: 2, ord: 1, index: 2, ended: undefined, gap: false },
    read: async (_threadId, position, count) =>
      entries.filter((e) => e.position > position).slice(0, count),
  };
}

function entry(position: number, ord: number, turnId: string, index: number): StoredEntry<number> {
  return { position, ord, index, turnId, json: JSON.stringify({ type: 'text-end', id: 'a' }) };
}

/** What a reader resuming from `a:2` reads of what is stored now. */
async function readsAfter(entries: StoredEntry<number>[], gap = false): Promise<string[]> {
  const stopped = new AbortController();
  stopped.abort(); // one read of what is stored, then the iteration ends
  const reads: string[] = [];
  const follow = followStored(backend(entries, gap), 'test', 'thread', {
    lastEventId: 'a:2',
    signal: stopped.signal,
  });
  for await (const read of follow) reads.push(read.type === 'gap' ? 'gap' : read.meta.id);
  return reads;
}

describe('followStored', () => {
  it('goes on with the next index of the same turn', async () => {
    expect(await readsAfter([entry(3, 1, 'a', 3), entry(4, 1, 'a', 4)])).toEqual(['a:3', 'a:4']);
  });

  it('reports a gap before an entry numbered like the last turn but of another turn', async () => {
    // The thread was forgotten and its next turn numbered 1 again: `b:3` is no sequel of `a:2`.
    expect(await readsAfter([entry(3, 1, 'b', 3), entry(4, 1, 'b', 4)])).toEqual([
      'gap',
      'b:3',
      'b:4',
    ]);
  });

  it('reports a gap before the same turn under the next number: it started again, numbered anew', async () => {
    // Where the reader stood did not say whether `a` had ended; `a` under turn 2 is `a` continued
    // anew (its relay could not say how far it got), not a turn after it.
    expect(await readsAfter([entry(3, 2, 'a', 0), entry(4, 2, 'a', 1)])).toEqual([
      'gap',
      'a:0',
      'a:1',
    ]);
  });

  it('reports one gap, not two, when what it reads first after a gap does not follow either', async () => {
    // An id the relay did not give, then a turn numbered past the hole its replaced numbering left.
    expect(await readsAfter([entry(3, 3, 'b', 0), entry(4, 3, 'b', 1)], true)).toEqual([
      'gap',
      'b:0',
      'b:1',
    ]);
    // A gap after an event is reported again.
    expect(await readsAfter([entry(3, 2, 'b', 0), entry(4, 4, 'c', 0)], true)).toEqual([
      'gap',
      'b:0',
      'gap',
      'c:0',
    ]);
  });
});
