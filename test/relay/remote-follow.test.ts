// The shared reader of the remote relays, on a backend of a few entries: what follows what.
import { describe, expect, it } from 'vitest';
import {
  type FollowBackend,
  type FollowWatcher,
  followStored,
  type StoredEntry,
} from '../../src/relay/remote-follow.js';

/** A backend that holds `entries`; a reader resuming from `a:2` stands at position 2. */
function backend(entries: StoredEntry<number>[]): FollowBackend<number> {
  return {
    watch: async (_threadId: string, _watcher: FollowWatcher) => () => {},
    locate: async () => ({ position: 2, ord: 1, index: 2, ended: undefined, gap: false }),
    read: async (_threadId, position, count) =>
      entries.filter((e) => e.position > position).slice(0, count),
  };
}

function entry(position: number, ord: number, turnId: string, index: number): StoredEntry<number> {
  return { position, ord, index, turnId, json: JSON.stringify({ type: 'text-end', id: 'a' }) };
}

/** What a reader resuming from `a:2` reads of what is stored now. */
async function readsAfter(entries: StoredEntry<number>[]): Promise<string[]> {
  const stopped = new AbortController();
  stopped.abort(); // one read of what is stored, then the iteration ends
  const reads: string[] = [];
  const follow = followStored(backend(entries), 'test', 'thread', {
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
});
