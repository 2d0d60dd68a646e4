// docs/session.md ("A crash mid-turn") says a ChunkWindow folds the continued turn again from its
// turn-start, "what the cut step streamed is dropped, so nothing shows twice". With the event id
// (what connectThreadEvents/useChunkThread pass), the window keeps the cut step and shows the
// re-run step after it: the step shows twice until turn-end.
import { ChunkWindow } from '../dist/window/index.js';
const w = new ChunkWindow({ limit: 300, loadPage: () => ({ chunks: [], total: 0, oldestSeq: null, hasMore: false }) });
await w.loadOlder();
let i = 0;
const dead = [
  { type: 'turn-start', turnId: 't1' }, { type: 'step-start', step: 0 },
  { type: 'text-start', id: 'a' }, { type: 'text-delta', id: 'a', text: 'The answer is 4 because' }, // cut: never stored
];
for (const e of dead) w.apply(e, { id: `t1:${i++}` });
const cont = [
  { type: 'turn-start', turnId: 't1' }, { type: 'system', kind: 'resumed', text: 'resumed' },
  { type: 'step-start', step: 0 }, { type: 'text-start', id: 'b' }, { type: 'text-delta', id: 'b', text: 'The answer is 4 because 2+2=4.' },
];
for (const e of cont) w.apply(e, { id: `t1:${i++}` });
console.log(JSON.stringify(w.groups.map((m) => [m.id, m.chunks.map((c) => `${c.type}:${c.text}`)]), null, 1));
