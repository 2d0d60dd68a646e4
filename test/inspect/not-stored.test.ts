// A thread or a turn the store does not hold: the inspector's 404 says that a running turn is
// stored only when it ends under the default durability: 'turn' (with 'step', as it runs), so a
// user looking for a turn that runs knows why it is not there.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChunkStore, createChunkStore } from '../../src/store/index.js';
import { inspectorGet } from './support.js';

let store: ChunkStore;
beforeAll(async () => {
  store = createChunkStore({ sqlite: ':memory:' });
  await store.migrate();
  await store.appendTurn('done', [
    { turnId: 't1', step: 0, role: 'user', type: 'text', data: { text: 'hello' } },
  ]);
});
afterAll(() => store.close());

async function get(path: string) {
  const { status, text } = await inspectorGet(store, path);
  return { status, text: text.replaceAll('&#39;', "'") };
}

const HINT =
  "A running turn is stored only when it ends under a session's default durability: 'turn'; with durability: 'step' its rows are stored as it runs.";

describe('the inspector on what the store does not hold', () => {
  it('says why a thread whose first turn runs may not be there', async () => {
    const { status, text } = await get('/threads/running');
    expect(status).toBe(404);
    expect(text).toContain('No such thread');
    expect(text).toContain(HINT);
  });

  it('says why a running turn of a stored thread may not be there', async () => {
    const { status, text } = await get('/threads/done/turns/t2');
    expect(status).toBe(404);
    expect(text).toContain('Thread done has no turn t2.');
    expect(text).toContain(HINT);
  });
});
