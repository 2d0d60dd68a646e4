// An unnamed pending user message ("Without it, the message joins the next turn-start") binds to a
// system-notice turn (turn-start role: 'system') that happens to start first, is shown as that
// notice's user message, and vanishes when the notice is reconciled, while the user's own turn runs.
import { ChunkWindow } from '../dist/window/index.js';
import { explodeTurn } from '../dist/index.js';
import { MemoryThread, flush } from './_probe_window_lib.mjs';

const thread = new MemoryThread();
const w = new ChunkWindow({ limit: 300, loadPage: (r) => thread.page(r) });
await w.loadOlder();
const show = (label) => console.log(label.padEnd(40), JSON.stringify(w.groups.map((m) => [m.id, m.chunks.map((c) => c.text).join('|')])));

w.addPendingUserMessage('What is 2+2?');            // no turnId: joins the next turn-start
show('pending added');
// A notice arrives first (config reload between turns: its own system turn).
w.apply({ type: 'turn-start', turnId: 'n1', role: 'system' });
w.apply({ type: 'system', kind: 'config-reload', text: 'Configuration reloaded' });
w.apply({ type: 'turn-end' });
show('system notice turn n1 live');
thread.append(explodeTurn('n1', [{ type: 'system', step: 0, kind: 'config-reload', text: 'Configuration reloaded' }], { role: 'system' }));
await w.reconcile();
show('after reconcile of n1');
// The user's turn now starts and streams.
w.apply({ type: 'turn-start', turnId: 't1' });
w.apply({ type: 'text-delta', text: 'It is 4.' });
show('user turn t1 streaming');
