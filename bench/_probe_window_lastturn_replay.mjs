// useChunkThread.lastTurn ("The last turn that ended while the page was open") after mount: the
// event stream opened without an id replays the latest stored turn (relay `latest()`), which the
// window ignores (it holds its rows) — but its turn-end still sets lastTurn (turnId null, old usage).
import { Window } from 'happy-dom';
const hd = new Window();
Object.assign(globalThis, { window: hd, document: hd.document, navigator: hd.navigator, IS_REACT_ACT_ENVIRONMENT: true });
const React = await import('react');
const { createRoot } = await import('react-dom/client');
const { useChunkThread } = await import('../dist/react/index.js');
const { explodeTurn } = await import('../dist/index.js');

const rows = [
  ...explodeTurn('t0', [{ type: 'text', step: 0, text: 'old question' }], { role: 'user' }),
  ...explodeTurn('t0', [{ type: 'text', step: 0, text: 'old answer' }], { role: 'assistant' }),
].map((r, i) => ({ ...r, threadId: 'th', seq: i + 1 }));
const sources = [];
class FakeES {
  constructor(url) { this.url = url; this.readyState = 0; sources.push(this); }
  addEventListener() {}
  close() { this.readyState = 2; }
  send(data, id) { this.onmessage?.({ data: JSON.stringify(data), lastEventId: id }); }
}
const fetch = async (url) => {
  const body = String(url).includes('/chunks') ? { chunks: rows, total: 2, oldestSeq: 1, hasMore: false } : { conversationId: 'th', activePath: 'th', branches: [] };
  return new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } });
};
let thread;
function App() { thread = useChunkThread({ threadId: 'th', fetch, createEventSource: (u) => new FakeES(u) }); return null; }
const root = createRoot(hd.document.createElement('div'));
await React.act(async () => root.render(React.createElement(App)));
await React.act(async () => { await new Promise((r) => setTimeout(r, 10)); });
console.log('after page: groups', thread.snapshot.groups.map((m) => m.id), 'lastTurn', thread.lastTurn);
// The relay's replay for a reader without an id: the latest turn kept, even stored.
await React.act(async () => {
  const es = sources.at(-1);
  es.send({ type: 'turn-start', turnId: 't0' }, 't0:0');
  es.send({ type: 'text-delta', text: 'old answer' }, 't0:1');
  es.send({ type: 'turn-end', finishReason: 'stop', usage: { inputTokens: 10, outputTokens: 999 } }, 't0:2');
});
console.log('after replay of stored t0: groups', thread.snapshot.groups.map((m) => m.id), 'lastTurn', JSON.stringify(thread.lastTurn));
await React.act(async () => root.unmount());
