// The checks every public entry point shares for its options: an object with methods (a store, a
// relay, a database client) names each missing method, at every entry point that takes one.
import { describe, expect, it } from 'vitest';
import { requireMethods } from '../../src/errors/invalid-option.js';
import { createChunkHandlers } from '../../src/http/index.js';
import { createAgentSession } from '../../src/session/index.js';
import { exportThread, importThread } from '../../src/transfer/index.js';
import { thrown } from '../support/chunklog-error.js';

describe('requireMethods', () => {
  it('accepts an object with every method, on its prototype too', () => {
    class Store {
      read(): void {}
    }
    expect(() => requireMethods('f', 'store', new Store(), ['read'], 'a store')).not.toThrow();
  });

  it('names every missing method, and every method of a value that is no object', () => {
    const some = thrown(() =>
      requireMethods('f', 'store', { a: () => 1, b: 'x' }, ['a', 'b', 'c'], 'a store'),
    );
    expect(some.code).toBe('invalid-option');
    expect(some.option).toBe('store');
    expect(some.message).toBe('f: `store` must be a store; `b`, `c` are missing');
    const none = thrown(() => requireMethods('f', 'pool', null, ['query'], 'a pg Pool'));
    expect(none.message).toBe('f: `pool` must be a pg Pool; `query` is missing');
  });

  it('is what every entry point taking a store, a session or a relay says', async () => {
    const partial = { getThread: () => undefined };
    expect(thrown(() => exportThread(partial as never, 't')).message).toContain(
      '`getChunksAfter`, `getTurnUsage`, `getAlternatives` are missing',
    );
    await expect(importThread(partial as never, '')).rejects.toThrow(
      '`createThread`, `hasTurn`, `appendTurn`, `recordUsage` are missing',
    );
    const handlers = () => createChunkHandlers({ store: partial as never, authorize: () => true });
    expect(thrown(handlers).option).toBe('store');
    expect(thrown(handlers).message).toContain('`getChunks` is missing');
    const session = () =>
      createAgentSession({
        store: { appendTurn: () => undefined } as never,
        threadId: 't',
        model: 'm',
      });
    expect(thrown(session).option).toBe('store');
    expect(thrown(session).message).toMatch(
      /^createAgentSession: `store` must be a ChunkStore .*; `[a-zA-Z]+`, .* are missing$/,
    );
  });
});
