// Rolling eviction vs a tool call still waiting for its result (streaming progress).
import { ChunkWindow } from '../dist/window/index.js';
const w = new ChunkWindow({ limit: 3, loadPage: () => ({ chunks: [], total: 0, oldestSeq: null, hasMore: false }) });
await w.loadOlder();
w.apply({ type: 'turn-start', turnId: 't' });
w.apply({ type: 'step-start', step: 0 });
w.apply({ type: 'tool-call', toolCallId: 'c1', toolName: 'build', input: {} });
for (let i = 0; i < 4; i++) w.apply({ type: 'tool-progress', toolCallId: 'c1', text: `line ${i}\n` });
const s = () => JSON.stringify(w.groups.map((m) => [m.id, m.chunks.map((c) => c.type === 'tool-batch' ? `batch(${c.calls.map((k) => `${k.id}:${k.name}:${k.progress ?? ''}:${k.result === undefined ? 'pending' : 'done'}`).join(',')})` : `${c.type}:${c.text ?? ''}`)]));
console.log('log', w.log.map((e) => `${e.id}:${e.type}`), 'open', w.getSnapshot().liveTurn.openIndex);
w.apply({ type: 'system', kind: 'notice', text: 'n1' });
w.apply({ type: 'system', kind: 'notice', text: 'n2' });
w.apply({ type: 'system', kind: 'notice', text: 'n3' });
console.log('after 3 notices  ', s());
w.apply({ type: 'tool-progress', toolCallId: 'c1', text: 'line 4\n' });
w.apply({ type: 'tool-result', toolCallId: 'c1', toolName: 'build', output: 'ok' });
console.log('after result     ', s());
console.log('log', w.log.map((e) => `${e.id}:${e.role}:${e.type}`));
