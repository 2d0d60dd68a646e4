// When the app's key provider (its KMS) fails during a store operation, the store says so: the
// error stays `store-failed` (the operation failed), but its message says the key provider
// failed, not the database, and its `cause` is the provider's own error. A chunklog error the
// provider throws (the file provider's wrong master key) passes as it is.
import { afterAll, describe, expect, it } from 'vitest';
import { ChunklogError } from '../../../src/errors/index.js';
import type { ChunkRowDraft } from '../../../src/schema/index.js';
import { createMemoryKeyProvider, type ThreadKeyProvider } from '../../../src/store/index.js';
import { rejected } from '../../support/chunklog-error.js';
import { availableDialects, createHarness, type DialectHarness } from '../support/dialects.js';

const harnesses: DialectHarness[] = [];
afterAll(async () => {
  for (const h of harnesses) await h.dispose();
});

const turn = (turnId: string): ChunkRowDraft[] => [
  { turnId, step: 0, role: 'user', type: 'text', data: { text: 'hello' } },
  { turnId, step: 0, role: 'assistant', type: 'text', data: { text: 'hi' } },
];

/** A memory provider that throws `failure` from every call while `down` is set. */
function kms() {
  const keys = createMemoryKeyProvider();
  const state: { down: unknown } = { down: undefined };
  const fail = () => {
    if (state.down !== undefined) throw state.down;
  };
  const provider: ThreadKeyProvider = {
    async getKey(threadId, version) {
      fail();
      return keys.getKey(threadId, version);
    },
    async createKey(threadId) {
      fail();
      return keys.createKey(threadId);
    },
    async destroyKey(threadId, version) {
      fail();
      return keys.destroyKey(threadId, version);
    },
  };
  return { provider, state, keys };
}

const available = await availableDialects();

describe.each(['sqlite', 'postgres', 'mysql'] as const)('a failing key provider on %s', (name) => {
  const open = async () => {
    const harness = createHarness(name);
    harnesses.push(harness);
    const { provider, state, keys } = kms();
    const store = harness.openStore({ encryption: { keys: provider } });
    await store.migrate();
    return { store, state, keys };
  };

  /** Checks `error` is the provider's failure of `what` on thread `t`. */
  const expectProviderFailure = (error: ChunklogError, what: string, cause: Error) => {
    expect(error.code).toBe('store-failed');
    expect(error.message).toBe(
      `${what} on thread "t" failed: the key provider failed: ${cause.message}`,
    );
    expect(error.cause).toBe(cause);
    expect(error.threadId).toBe('t');
  };

  it.skipIf(!available.includes(name))(
    'says the key provider failed, with its error as the cause, on writes and reads',
    async () => {
      const { store, state, keys } = await open();
      const down = new Error('KMS unreachable');
      state.down = down;
      expectProviderFailure(await rejected(store.appendTurn('t', turn('a'))), 'appendTurn', down);
      state.down = undefined;
      await store.createThread('t', { title: 'secret title' });
      await store.appendTurn('t', turn('a'));
      await keys.createKey('t'); // the KMS made a newer key: the next turn is sealed with it
      await store.appendTurn('t', turn('b'));

      state.down = down;
      expectProviderFailure(await rejected(store.appendTurn('t', turn('c'))), 'appendTurn', down);
      // Rows under two key versions: both keys asked for at once, both fail (neither failure
      // left unhandled, which would end the process).
      expectProviderFailure(await rejected(store.getChunks('t')), 'getChunks', down);
      expectProviderFailure(await rejected(store.getThread('t')), 'getThread', down);
      expectProviderFailure(await rejected(store.rotateThreadKey('t')), 'rotateThreadKey', down);
      expectProviderFailure(await rejected(store.eraseThread('t')), 'eraseThread', down);

      // Back up: nothing was lost, and the erasure goes through.
      state.down = undefined;
      expect((await store.getChunks('t')).chunks.map((c) => c.turnId)).toEqual([
        'a',
        'a',
        'b',
        'b',
      ]);
      expect(await store.eraseThread('t')).toBe(true);
      await store.close();
    },
  );

  /** The store reopened over a provider whose every call fails with `error`, and its call count. */
  const failingProvider = (error: Error) => {
    const counted = { calls: 0 };
    const fail = async (): Promise<never> => {
      counted.calls++;
      throw error;
    };
    const store = harnesses.at(-1)?.openStore({
      encryption: { keys: { getKey: fail, createKey: fail, async destroyKey() {} } },
    });
    if (store === undefined) throw new Error('no harness');
    return { store, counted };
  };

  it.skipIf(!available.includes(name))(
    'asks a provider that timed out once, not again as if the database had dropped',
    async () => {
      const { store } = await open();
      await store.appendTurn('t', turn('a'));
      // A KMS client's timeout carries a network code, as a lost database connection does.
      const timeout = Object.assign(new Error('connect ETIMEDOUT 10.0.0.1:443'), {
        code: 'ETIMEDOUT',
      });
      const reopened = failingProvider(timeout);
      expectProviderFailure(await rejected(reopened.store.getChunks('t')), 'getChunks', timeout);
      expect(reopened.counted.calls).toBe(1);
      await reopened.store.close();
      await store.close();
    },
  );

  it.skipIf(!available.includes(name))(
    'writes once when the provider failed with words a lost database connection has',
    async () => {
      const { store } = await open();
      const lost = new Error('Connection lost: the KMS closed the socket');
      const reopened = failingProvider(lost);
      expectProviderFailure(
        await rejected(reopened.store.appendTurn('t', turn('a'))),
        'appendTurn',
        lost,
      );
      expect(reopened.counted.calls).toBe(1);
      await reopened.store.close();
      await store.close();
    },
  );

  it.skipIf(!available.includes(name))(
    'passes a chunklog error the provider throws as it is',
    async () => {
      const { store, state } = await open();
      const own = new ChunklogError('invalid-option', 'the master key does not open key 1', {
        option: 'masterKey',
      });
      state.down = own;
      expect(await rejected(store.appendTurn('t', turn('a')))).toBe(own);
      await store.close();
    },
  );
});
