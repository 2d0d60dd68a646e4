// Probe (memory): open and drop many GET /events streams against one long-lived session, and
// watch the heap (AbortSignal.any over the session's long-lived `signal`).
import { createAgentSession, createChunkHandlers } from '/work/main/dist/session/index.js';
import { createChunkStore } from '/work/main/dist/store/index.js';
import { createScriptedModel } from '/work/main/dist/testing/index.js';
const store = createChunkStore({ sqlite: ':memory:' });
await store.migrate();
const model = createScriptedModel(() => ({ parts: [{ type: 'text', text: 'hi' }] }));
const session = createAgentSession({ store, threadId: 'probe-mem', model });
const handlers = process.env.NO_SESSION === '1' ? createChunkHandlers({ store, relay: session.relay, authorize: () => true }) : createChunkHandlers({ store, session, authorize: () => true });
await session.send('x').result;
const heap = () => { globalThis.gc(); globalThis.gc(); return process.memoryUsage().heapUsed / 1e6; };
async function round(n) {
  for (let i = 0; i < n; i++) {
    const ac = new AbortController();
    const res = await handlers.fetch(new Request('http://x/threads/probe-mem/events', { signal: ac.signal }));
    const reader = res.body.getReader();
    await reader.read(); await reader.read();
    ac.abort();
    await reader.cancel().catch(() => {});
  }
}
await round(2000);
const base = heap();
for (let r = 1; r <= 4; r++) { await round(5000); console.log(`after ${r * 5000} more streams: heap +${(heap() - base).toFixed(1)} MB`); }
await session.close(); await store.close();
