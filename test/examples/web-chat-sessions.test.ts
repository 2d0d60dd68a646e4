// examples/web-chat keeps one session per thread it is asked about, and closes a session once
// it has been unused for its idle time with no turn running or queued. The clock is the test's:
// nothing here waits for a timer.
import { createAgentSession } from 'chunklog/session';
import { createChunkStore } from 'chunklog/store';
import { createScriptedModel, parseScript } from 'chunklog/testing';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createSessionPool } from '../../examples/web-chat/session-pool.js';
import { ensureBuilt } from './support.js';

beforeAll(() => ensureBuilt());
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

describe('examples/web-chat sessions', () => {
  it('closes the sessions idle for idleMs, keeps those in use or running a turn', async () => {
    const store = createChunkStore({ sqlite: ':memory:' });
    await store.migrate();
    closers.push(() => store.close());
    let clock = 0;
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const pool = createSessionPool({
      idleMs: 1000,
      now: () => clock,
      create: (threadId) =>
        createAgentSession({
          store,
          threadId,
          // 'busy' runs a turn that waits for the test; the others answer at once.
          model: createScriptedModel(
            threadId === 'busy'
              ? [
                  {
                    parts: [
                      { type: 'wait', until: held },
                      { type: 'text', text: 'done' },
                    ],
                  },
                ]
              : parseScript('text hi'),
          ),
        }),
    });
    closers.push(() => pool.close());
    const idle = pool.get('idle');
    const used = pool.get('used');
    const busy = pool.get('busy');
    const turn = busy.send('work');
    expect(pool.size).toBe(3);
    clock = 999;
    expect(await pool.sweep()).toEqual([]);
    clock = 1500;
    expect(pool.get('used')).toBe(used); // used again now
    expect(await pool.sweep()).toEqual(['idle']);
    expect(idle.signal.aborted).toBe(true);
    expect(busy.signal.aborted).toBe(false);
    // Asked about again: a new session over the same thread.
    expect(pool.get('idle')).not.toBe(idle);
    release();
    await turn.rows;
    clock = 5000;
    expect((await pool.sweep()).sort()).toEqual(['busy', 'idle', 'used']);
    expect(pool.size).toBe(0);
  });
});
