// Probe: with durability 'step' + lease, one transient failure of the turn's final write
// (appendSteps with the status) leaves the turn 'running' in the store for good: the same
// session's later turns never recover it (its path is in #recovered, it never "takes over").
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAgentSession } from '/work/main/dist/session/index.js';
import { createChunkStore } from '/work/main/dist/store/index.js';
import { createScriptedModel } from '/work/main/dist/testing/index.js';

const dir = mkdtempSync(join(tmpdir(), 'probe-stuck-'));
const real = createChunkStore({ sqlite: join(dir, 't.db') });
await real.migrate();
let failNext = true;
const store = new Proxy(real, {
  get(target, prop) {
    const value = Reflect.get(target, prop);
    if (prop === 'appendSteps') {
      return async (threadId, turnId, drafts, options) => {
        if (failNext && options?.status !== undefined) {
          failNext = false;
          throw Object.assign(new Error('connection reset (simulated, once)'), { code: 'ECONNRESET' });
        }
        return value.call(target, threadId, turnId, drafts, options);
      };
    }
    return typeof value === 'function' ? value.bind(target) : value;
  },
});
const threadId = 'probe-stuck-running';
const model = createScriptedModel(() => ({ parts: [{ type: 'text', text: 'hi there' }] }));
const errors = [];
const session = createAgentSession({
  store, threadId, model, durability: 'step', lease: { ttlMs: 3000 },
  onError: (e, ctx) => errors.push(`${ctx.source}: ${e.message}`),
});
const t1 = session.send('first');
const r1 = await t1.result.then((r) => r.outcome, (e) => `rejected: ${e.message}`);
console.log('turn 1 result:', r1);
const t2 = session.send('second');
console.log('turn 2 result:', (await t2.result).outcome);
await new Promise((r) => setTimeout(r, 4000)); // well past the lease ttl
const t3 = session.send('third');
console.log('turn 3 result:', (await t3.result).outcome);
for (const t of await real.listTurns(threadId)) console.log('stored', t.turnId === t1.turnId ? 'turn1' : t.turnId === t2.turnId ? 'turn2' : 'turn3', t.status);
console.log('onError:', errors);
const page = await real.getChunks(threadId, { limit: 50 });
console.log('page.turnStatus:', JSON.stringify(page.turnStatus));
await session.close();
await real.close();
