// A single process restarts (no shared relay) and continues a crashed turn from `t1:0` again
// (docs/session.md: "without one, they number from ${turnId}:0 again, and a client that followed
// the dead process reconciles from the store"). The client's EventSource reconnects on its own with
// `Last-Event-ID: t1:16` (the dead process's numbering). What does the new process's relay send?
import { createInProcessRelay } from '../dist/relay/index.js';

const relay = createInProcessRelay();          // the NEW process's relay
const meta = (i) => ({ id: `t1:${i}`, turnId: 't1', index: i });
// The new process continues t1 from index 0 (its relay had nothing of t1: lastIndex undefined).
const continued = [
  { type: 'turn-start', turnId: 't1' },
  { type: 'system', kind: 'resumed', text: 'resumed' },
  { type: 'step-start', step: 1 },
  { type: 'text-start', id: 'b' },
];
for (let i = 0; i < 20; i++) continued.push({ type: 'text-delta', id: 'b', text: `w${i} ` });
continued.forEach((e, i) => relay.publish('th', e, meta(i)));

// The browser reconnects with the id of the last event the DEAD process sent.
const ac = new AbortController();
const got = [];
const reader = (async () => {
  for await (const read of relay.follow('th', { lastEventId: 't1:16', signal: ac.signal })) {
    got.push(read.type === 'gap' ? 'GAP' : `${read.meta.id} ${read.event.type}`);
  }
})();
await new Promise((r) => setTimeout(r, 50));
ac.abort();
await reader.catch(() => {});
console.log('new process published', continued.length, 'events (t1:0 .. t1:' + (continued.length - 1) + ')');
console.log('reader resumed with Last-Event-ID t1:16 got:', got);
console.log('gap sent:', got.includes('GAP'), '| turn-start/resumed/step-start received:', got.some((g) => / (turn-start|system|step-start)$/.test(g)));

// What a window that followed the dead process shows after applying what the relay sent.
const { ChunkWindow } = await import('../dist/window/index.js');
const w = new ChunkWindow({ limit: 300, loadPage: () => ({ chunks: [], total: 0, oldestSeq: null, hasMore: false }) });
await w.loadOlder();
const dead = [{ type: 'turn-start', turnId: 't1' }, { type: 'step-start', step: 0 }, { type: 'text-start', id: 'a' }];
for (let i = 0; i < 14; i++) dead.push({ type: 'text-delta', id: 'a', text: `d${i} ` });
dead.forEach((e, i) => w.apply(e, { id: `t1:${i}` }));          // t1:0 .. t1:16 from the dead process
for (const id of got.filter((g) => g !== 'GAP').map((g) => g.split(' ')[0])) {
  const i = Number(id.split(':')[1]);
  w.apply(continued[i], { id });
}
console.log('window after resume:', JSON.stringify(w.groups.map((m) => [m.id, m.chunks.map((c) => `${c.type}(step ${c.step}):${c.text ?? c.kind}`)])));
console.log('missing from the window: the resumed notice, step-start 1 and w0..w12 of the continued step (until turn-end)');
