// The conformance kit fails a store that breaks the contract: it must not pass it, nor hang on it.
import { describe, expect, it } from 'vitest';
import { type ChunkStore, createChunkStore } from '../../src/store/index.js';
import { type ConformanceTestApi, describeChunkStore } from '../../src/testing/index.js';

/** The kit's tests, declared through an api that collects them instead of running them. */
function collect(open: () => Promise<ChunkStore>) {
  const tests = new Map<string, () => Promise<void>>();
  const before: Array<() => Promise<void>> = [];
  const after: Array<() => Promise<void>> = [];
  const path: string[] = [];
  const group = (name: string, body: () => void) => {
    path.push(name);
    body();
    path.pop();
  };
  const api: ConformanceTestApi = {
    describe: Object.assign(group, { skip: () => {} }),
    it: (name, body) => tests.set([...path, name].join(' > '), body),
    expect: (actual, message) => expect(actual, message),
    beforeAll: (body) => before.push(body),
    afterAll: (body) => after.push(body),
  };
  describeChunkStore('under test', open, { api });
  return { tests, before, after };
}

/** A SQLite store whose `getChunks` ignores `before`: every page is the newest one. */
async function ignoringBefore(): Promise<ChunkStore> {
  const store = createChunkStore({ sqlite: ':memory:' });
  return new Proxy(store, {
    get(target, key, receiver) {
      if (key === 'getChunks') {
        return (threadId: string, options?: { limit?: number }) =>
          target.getChunks(threadId, { limit: options?.limit });
      }
      const value = Reflect.get(target, key, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

describe('describeChunkStore', () => {
  it('fails a store whose pages ignore `before`, in the page test, without looping', async () => {
    const { tests, before, after } = collect(ignoringBefore);
    const name = [...tests.keys()].find((n) =>
      n.endsWith('pages backwards by keyset with total, oldestSeq and hasMore'),
    );
    expect(name).toBeDefined();
    for (const run of before) await run();
    try {
      await expect((tests.get(name as string) as () => Promise<void>)()).rejects.toThrow();
    } finally {
      for (const run of after) await run();
    }
  });
});
