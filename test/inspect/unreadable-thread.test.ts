// A thread whose key is gone (a backup restored after `eraseThread`) among readable ones: the
// threads page lists the others and names it as unreadable, saying why; search goes on past it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ChunkStore,
  createChunkStore,
  createMemoryKeyProvider,
} from '../../src/store/index.js';
import { inspectorGet } from './support.js';

let store: ChunkStore;
beforeAll(async () => {
  const keys = createMemoryKeyProvider();
  let clock = Date.UTC(2026, 11, 1);
  store = createChunkStore(
    { sqlite: ':memory:' },
    { encryption: { keys }, now: () => (clock += 1000) },
  );
  await store.migrate();
  for (const id of ['kept-1', 'gone', 'kept-2']) {
    await store.createThread(id, { title: `Title of ${id}`, metadata: { id } });
    await store.appendTurn(id, [
      { turnId: 't1', step: 0, role: 'user', type: 'text', data: { text: `needle in ${id}` } },
    ]);
  }
  await keys.destroyKey('gone');
});
afterAll(() => store.close());

describe('the inspector over a store with a thread whose key is gone', () => {
  it('lists the other threads, and names the unreadable one with why', async () => {
    const { status, text } = await inspectorGet(store, '/');
    expect(status).toBe(200);
    expect(text).toContain('Title of kept-1');
    expect(text).toContain('Title of kept-2');
    expect(text).not.toContain('Title of gone');
    expect(text).toContain('Threads that cannot be read');
    expect(text).toContain('its metadata is encrypted under a key the key provider does not have');
    expect(text).toContain('gone');
    expect(text).not.toContain('This store has no threads yet');
  });

  it('searches the threads that read', async () => {
    const { status, text } = await inspectorGet(store, '/search?q=needle');
    expect(status).toBe(200);
    expect(text).toContain('2 hit(s)');
    expect(text).toContain('href="/threads/kept-1');
    expect(text).toContain('href="/threads/kept-2');
    expect(text).not.toContain('href="/threads/gone');
  });
});
