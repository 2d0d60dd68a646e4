// Probe: a cancel that arrives while a `send` is in admission and the session is continuing an
// interrupted turn (recovery: 'continue' on lease takeover) is acknowledged for the recovered turn
// but does not stop it: the recovered turn runs to 'completed'; the user's new send is dropped.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAgentSession, createChunkHandlers } from '/work/main/dist/session/index.js';
import { createChunkStore } from '/work/main/dist/store/index.js';
import { createScriptedModel } from '/work/main/dist/testing/index.js';

const dir = mkdtempSync(join(tmpdir(), 'probe-cancel-rec-'));
const store = createChunkStore({ sqlite: join(dir, 't.db') });
await store.migrate();
const threadId = 'probe-cancel-rec';
// A dead holder: took the lease for 50 ms, began a turn, never finished.
await store.acquireLease(threadId, 'dead-holder', { ttlMs: 50 });
await store.beginTurn(threadId, [
  { turnId: 'turn-dead', step: 0, role: 'user', type: 'text', data: { text: 'hello' } },
]);
await new Promise((r) => setTimeout(r, 100));

const model = createScriptedModel(
  () => ({ parts: [{ type: 'delay', ms: 1500 }, { type: 'text', text: 'slow answer' }] }),
);
const session = createAgentSession({
  store, threadId, model, durability: 'step', lease: { ttlMs: 30_000 }, recovery: 'continue',
});
const handlers = createChunkHandlers({ store, session, authorize: () => true });
const seen = [];
session.subscribe((e, meta) => seen.push(`${meta.id} ${e.type}${e.kind ? `:${e.kind}` : ''}`));

const turn = session.send('new message');
// wait until the recovered turn is live
for (let i = 0; i < 100 && session.runningTurnId !== 'turn-dead'; i++) await new Promise((r) => setTimeout(r, 10));
console.log('runningTurnId before cancel:', session.runningTurnId);
const res = await handlers.fetch(new Request(`http://x/threads/${threadId}/cancel`, {
  method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ reason: 'Stop pressed' }),
}));
console.log('POST /cancel ->', res.status, await res.text());
const result = await turn.result;
await session.idle();
console.log('new send outcome:', result.outcome);
const info = await store.getTurnInfo(threadId, 'turn-dead');
console.log('recovered turn-dead stored status:', info?.status);
console.log('events:', seen.join(' | '));
await session.close();
await store.close();
