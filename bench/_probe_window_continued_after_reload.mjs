// A page (re)loaded while a crashed turn is continued by another process (durability: 'step',
// recovery: 'continue'): the stored steps (and the user's question) vanish from the window
// until the turn ends, although the continued turn-start carries its id (t1:7, not t1:0).
import { ChunkWindow } from '../dist/window/index.js';
import { explodeTurn, foldTurn } from '../dist/index.js';
import { MemoryThread, textTurn, flush } from './_probe_window_lib.mjs';

const thread = new MemoryThread();
thread.storeTurn('t0', 'first question', textTurn('t0', 1));
// t1: user message + step 0 stored (durability: 'step'); the writer died during step 1.
const step0 = [
  { type: 'turn-start', turnId: 't1' },
  { type: 'step-start', step: 0 },
  { type: 'text-start', id: 'a' }, { type: 'text-delta', id: 'a', text: 'STEP 0 (stored before the crash)' }, { type: 'text-end', id: 'a' },
  { type: 'step-finish', step: 0, finishReason: 'tool-calls' },
];
thread.append([
  ...explodeTurn('t1', [{ type: 'text', step: 0, text: 'second question' }], { role: 'user' }),
  ...explodeTurn('t1', foldTurn(step0).chunks, { role: 'assistant' }),
]);
thread.running.add('t1');

const show = (w, label) => console.log(label.padEnd(34), JSON.stringify(w.groups.map((m) => [m.id, m.chunks.map((c) => c.text ?? c.type).join(' / ')])));

for (const order of ['page-first', 'events-first']) {
  console.log(`--- ${order}`);
  const w = new ChunkWindow({ limit: 300, loadPage: (r) => thread.page(r) });
  // The continued turn, as the new process publishes it (its events number on after the dead one's).
  const continued = [
    [{ type: 'turn-start', turnId: 't1' }, 't1:7'],
    [{ type: 'system', kind: 'resumed', text: 'resumed' }, 't1:8'],
    [{ type: 'step-start', step: 1 }, 't1:9'],
    [{ type: 'text-start', id: 'b' }, 't1:10'],
    [{ type: 'text-delta', id: 'b', text: 'STEP 1 (continued)' }, 't1:11'],
  ];
  if (order === 'page-first') {
    await w.loadOlder();
    show(w, 'after page (stored steps shown)');
    for (const [e, id] of continued) w.apply(e, { id });
  } else {
    for (const [e, id] of continued) w.apply(e, { id });
    await w.loadOlder();
  }
  show(w, 'while the continued turn streams');
}
