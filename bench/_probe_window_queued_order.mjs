// Two messages queued behind a running turn (useChunkThread.send names each with its turn id).
// When the first queued turn starts, its answer is placed after BOTH pending messages.
import { ChunkWindow } from '../dist/window/index.js';
const w = new ChunkWindow({ limit: 300, loadPage: () => ({ chunks: [], total: 0, oldestSeq: null, hasMore: false }) });
await w.loadOlder();
const show = (label) => console.log(label.padEnd(28), w.groups.map((m) => `${m.id}=${JSON.stringify(m.chunks.map((c) => c.text).join(''))}`).join('  '));
w.addPendingUserMessage('Q1', { turnId: 't1' });
w.apply({ type: 'turn-start', turnId: 't1' });
w.apply({ type: 'text-delta', text: 'A1 (long answer...)' });
// While t1 runs the user sends two more messages: both queued (POST answers { queued: true }).
w.addPendingUserMessage('Q2', { turnId: 't2' });
w.addPendingUserMessage('Q3', { turnId: 't3' });
show('t1 running, 2 queued');
w.apply({ type: 'turn-end' });
w.apply({ type: 'turn-start', turnId: 't2' });
w.apply({ type: 'text-delta', text: 'A2' });
show('t2 started');
