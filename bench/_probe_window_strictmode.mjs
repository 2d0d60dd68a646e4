// useChunkThread under <StrictMode> (double render, double effect): how many event streams are
// open, how many pages are loaded, whether subscriptions leak, after mount and after unmount.
import { Window } from 'happy-dom';
const hd = new Window();
globalThis.window = hd; globalThis.document = hd.document; if (!globalThis.navigator) globalThis.navigator = hd.navigator; globalThis.HTMLElement = hd.HTMLElement; globalThis.Node = hd.Node;
globalThis.IS_REACT_ACT_ENVIRONMENT = true;
const React = await import('react');
const { createRoot } = await import('react-dom/client');
const { act } = React;
const { useChunkThread } = await import('../dist/react/index.js');

const sources = [];
class FakeES {
  constructor(url) { this.url = url; this.readyState = 0; this.closed = false; sources.push(this); this.gap = []; }
  addEventListener(t, l) { this.gap.push(l); }
  close() { this.closed = true; this.readyState = 2; }
  send(data, id) { this.onmessage?.({ data: JSON.stringify(data), lastEventId: id }); }
}
const requests = [];
const fetch = async (url, init) => {
  requests.push(`${init?.method ?? 'GET'} ${url}`);
  const body = String(url).includes('/chunks') ? { chunks: [], total: 0, oldestSeq: null, hasMore: false } : { conversationId: 't', activePath: 't', branches: [] };
  return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
};
let thread;
function App() {
  thread = useChunkThread({ threadId: 't', basePath: '/api', fetch, createEventSource: (u) => new FakeES(u), newTurnId: () => 'turn-x' });
  return React.createElement('div', null, String(thread.snapshot.groups.length));
}
const el = document.createElement('div');
const root = createRoot(el);
await act(async () => root.render(React.createElement(React.StrictMode, null, React.createElement(App))));
await act(async () => { await new Promise((r) => setTimeout(r, 10)); });
const w = thread.window;
console.log('event sources created:', sources.length, 'open:', sources.filter((s) => !s.closed).length);
console.log('requests:', requests);
console.log('window listeners after mount:', w.listeners.set.size);
// Live event through the still-open source
const live = sources.find((s) => !s.closed);
await act(async () => {
  live.send({ type: 'turn-start', turnId: 'a' }, 'a:0');
  live.send({ type: 'text-delta', text: 'hello' }, 'a:1');
});
console.log('groups after a live event:', el.textContent, thread.turn.status);
await act(async () => root.unmount());
console.log('after unmount: open sources', sources.filter((s) => !s.closed).length, 'window listeners', w.listeners.set.size);
