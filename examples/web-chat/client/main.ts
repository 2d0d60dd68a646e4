// The page: a ChunkWindow fed by the session's live events (SSE) and by pages of stored rows,
// rendered without a framework. The window bounds what the page holds: at the bottom it evicts
// the oldest chunks past `limit`; scrolled up, it keeps them and loads older pages.
import type { ChatMessage, ChunkEvent, TokenUsage } from 'chunklog';
import { ChunkWindow, type ChunkWindowSnapshot } from 'chunklog/window';
import { describeWindow, WINDOW_STATS_LEGEND } from '../../shared/window-stats.js';
import { followProgress, renderMessage, type UserMessageStatus } from './render.js';

const params = new URLSearchParams(location.search);
const threadId = params.get('thread') ?? 'web';
const limit = Number(params.get('limit') ?? document.body.dataset.limit ?? 40);
const api = `/api/threads/${encodeURIComponent(threadId)}`;

const logEl = document.getElementById('log') as HTMLElement;
const olderButton = document.getElementById('older') as HTMLButtonElement;
const input = document.getElementById('input') as HTMLTextAreaElement;
const note = document.getElementById('note') as HTMLElement;
const buttons = {
  send: document.getElementById('send') as HTMLButtonElement,
  steer: document.getElementById('steer') as HTMLButtonElement,
  queue: document.getElementById('queue') as HTMLButtonElement,
  stop: document.getElementById('stop') as HTMLButtonElement,
};
(document.getElementById('thread') as HTMLElement).textContent = `thread ${threadId}`;
(document.getElementById('stats') as HTMLElement).title = WINDOW_STATS_LEGEND;

const chunkWindow = new ChunkWindow({
  limit,
  pageSize: Math.max(10, Math.floor(limit / 2)),
  loadPage: async ({ limit, before }) => {
    const query = new URLSearchParams({ limit: String(limit) });
    if (before !== undefined) query.set('before', String(before));
    const response = await fetch(`${api}/chunks?${query}`);
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    return response.json(); // the window validates it
  },
});

// Live events first, then the newest page, so that no turn falls in between.
const source = new EventSource(`${api}/events`);
source.onmessage = (message) => {
  const event = JSON.parse(message.data) as ChunkEvent;
  // The event's id tells a turn another instance continued after a crash (docs/window.md).
  chunkWindow.apply(event, { id: message.lastEventId });
  if (event.type === 'steering-message') steered.delete(event.id);
  if (event.type === 'system') for (const { id } of event.dropped ?? []) steeringDropped(id);
  if (event.type === 'turn-end') {
    showUsage(event.usage);
    void chunkWindow.reconcile();
  }
};
source.addEventListener('gap', () => void chunkWindow.reconcile());
void chunkWindow.loadOlder();

/** The last turn's usage, as its turn-end event carried it. */
function showUsage(usage: TokenUsage | undefined): void {
  if (usage === undefined) return;
  const n = (value: number | undefined) => (value ?? 0).toLocaleString('en-US');
  let text = `last turn: ${n(usage.inputTokens)} in · ${n(usage.outputTokens)} out tokens`;
  if (usage.reasoningTokens) text += ` (${n(usage.reasoningTokens)} reasoning)`;
  if (usage.cacheReadTokens) text += ` · ${n(usage.cacheReadTokens)} from cache`;
  (document.getElementById('usage') as HTMLElement).textContent = text;
}

// ── rendering ────────────────────────────────────────────────────────────────────────────────

type Status = UserMessageStatus | undefined;
interface Rendered {
  readonly message: ChatMessage;
  readonly status: Status;
  readonly live: boolean;
  readonly node: HTMLElement;
}
const rendered = new Map<string, Rendered>();

/** The turns the server accepted (its 202), and whether it queued them, until they are stored. */
const accepted = new Map<string, { queued: boolean }>();

/**
 * A user message not stored yet reads "sending…" until the server accepted it or its turn
 * started, "queued" while the server holds it behind the running turn, and then as sent.
 */
function statusOf(snapshot: ChunkWindowSnapshot): (message: ChatMessage) => Status {
  const pending = new Set<string>();
  const started = new Set<string>();
  for (const entry of snapshot.log) {
    if (entry.pending) pending.add(entry.turnId);
    else if (entry.live) started.add(entry.turnId);
  }
  if (snapshot.liveTurnId !== null) started.add(snapshot.liveTurnId);
  for (const turnId of accepted.keys()) if (!pending.has(turnId)) accepted.delete(turnId);
  return (message) => {
    if (message.role !== 'user' || !pending.has(message.turnId)) return undefined;
    if (started.has(message.turnId)) return undefined;
    const answer = accepted.get(message.turnId);
    if (answer === undefined) return 'sending';
    return answer.queued ? 'queued' : undefined;
  };
}
let scheduled = false;
chunkWindow.subscribe(() => {
  if (scheduled) return;
  scheduled = true;
  requestAnimationFrame(() => {
    scheduled = false;
    render(chunkWindow.getSnapshot());
  });
});

/** The first chunk visible at the top of the log, and where it is, to keep it in place. */
function anchor(): { key: string; offset: number } | null {
  const top = logEl.getBoundingClientRect().top;
  for (const node of logEl.querySelectorAll<HTMLElement>('.chunk')) {
    const box = node.getBoundingClientRect();
    if (box.bottom > top && node.dataset.key)
      return { key: node.dataset.key, offset: box.top - top };
  }
  return null;
}

function restore(kept: { key: string; offset: number }): void {
  for (const node of logEl.querySelectorAll<HTMLElement>('.chunk')) {
    if (node.dataset.key !== kept.key) continue;
    const offset = node.getBoundingClientRect().top - logEl.getBoundingClientRect().top;
    logEl.scrollTop += offset - kept.offset;
    return;
  }
}

function render(snapshot: ChunkWindowSnapshot): void {
  const atBottom = !snapshot.scrolledUp;
  const kept = atBottom ? null : anchor();
  const status = statusOf(snapshot);
  const running = snapshot.liveTurnId !== null && snapshot.liveTurn?.ended !== true;
  const fresh: HTMLElement[] = [];

  // Messages keyed by their stable id: one that did not change keeps its element.
  const seen = new Set<string>();
  let previous: HTMLElement | null = null;
  for (const message of snapshot.groups) {
    seen.add(message.id);
    const state = status(message);
    const live = running && message.turnId === snapshot.liveTurnId;
    let entry = rendered.get(message.id);
    if (
      entry === undefined ||
      entry.message !== message ||
      entry.status !== state ||
      entry.live !== live
    ) {
      const node = renderMessage(message, state, live);
      entry?.node.replaceWith(node);
      fresh.push(node);
      entry = { message, status: state, live, node };
      rendered.set(message.id, entry);
    }
    const expected: Element | null = previous
      ? previous.nextElementSibling
      : logEl.firstElementChild;
    if (expected !== entry.node) {
      if (previous) previous.after(entry.node);
      else logEl.prepend(entry.node);
    }
    previous = entry.node;
  }
  for (const [id, entry] of rendered) {
    if (!seen.has(id)) {
      entry.node.remove();
      rendered.delete(id);
    }
  }

  for (const node of fresh) followProgress(node);
  if (atBottom) logEl.scrollTop = logEl.scrollHeight;
  else if (kept) restore(kept);

  setRunning(running);
  const chunks = logEl.querySelectorAll('.chunk').length;
  (document.getElementById('stats') as HTMLElement).textContent = describeWindow(snapshot, limit);
  document.body.dataset.chunks = String(chunks);
  document.body.dataset.reconcile = snapshot.reconcileStatus;
  document.body.dataset.total = String(snapshot.total);

  // An empty thread says what to type.
  (document.getElementById('empty') as HTMLElement).hidden =
    snapshot.groups.length > 0 || snapshot.total > 0 || snapshot.reconcileStatus !== 'idle';

  // When everything held fits on the screen there is no scrolling up: offer a button instead.
  olderButton.hidden = !snapshot.hasOlder || logEl.scrollHeight > logEl.clientHeight;
}

olderButton.addEventListener('click', () => {
  chunkWindow.setScrolledUp(true); // reading history: keep what is loaded
  void chunkWindow.loadOlder();
});

logEl.addEventListener('scroll', () => {
  const fromBottom = logEl.scrollHeight - logEl.scrollTop - logEl.clientHeight;
  chunkWindow.setScrolledUp(fromBottom > 60);
  const { hasOlder, loadingOlder } = chunkWindow.getSnapshot();
  if (logEl.scrollTop < 120 && hasOlder && !loadingOlder) void chunkWindow.loadOlder();
});

// ── composing ────────────────────────────────────────────────────────────────────────────────

function setRunning(running: boolean): void {
  document.body.dataset.running = String(running);
  (document.getElementById('status') as HTMLElement).textContent = running ? 'working…' : 'idle';
  buttons.send.hidden = running;
  buttons.steer.hidden = !running;
  buttons.queue.hidden = !running;
  buttons.stop.hidden = !running;
}

async function post(path: string, body: unknown): Promise<Response> {
  return fetch(`${api}/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

/** Sends (or queues) a message as a new turn, shown at once as a pending message. */
async function send(text: string): Promise<void> {
  const turnId = `web-${crypto.randomUUID()}`;
  const pending = chunkWindow.addPendingUserMessage(text, { turnId });
  const response = await post('messages', { text, mode: 'send', turnId });
  if (!response.ok) {
    chunkWindow.removePendingUserMessage(pending);
    return;
  }
  const { queued } = (await response.json()) as { turnId: string; queued: boolean };
  accepted.set(turnId, { queued });
  render(chunkWindow.getSnapshot()); // the window did not change: its message's status did
}

/** This page's steering messages the server took (its 202), by id, until their turn ended. */
const steered = new Map<string, string>();
/** Ids of steering messages a cancel dropped (its `cancelled` notice lists them). */
const dropped = new Set<string>();

/**
 * Adds a message to the running turn (`POST …/messages` `{ mode: 'steer' }`, 202
 * `{ steeringId }`). A message the turn never read, because it was cancelled first, is listed
 * on the turn's `cancelled` notice (its `dropped`): the page says so above the box and puts the
 * text back in it, unless the user is typing something else by then.
 */
async function steer(text: string): Promise<void> {
  try {
    const response = await post('messages', { text, mode: 'steer' });
    if (!response.ok) return;
    const { steeringId } = (await response.json()) as { steeringId: string };
    steered.set(steeringId, text);
    giveBack(steeringId); // the cancel's notice may have come before this answer
  } catch {
    // No answer: the page knows nothing to say.
  }
}

/** A `cancelled` notice lists steering `id` as dropped. */
function steeringDropped(id: string): void {
  dropped.add(id);
  giveBack(id);
}

/** Gives a dropped steering message of this page back to the user, once. */
function giveBack(id: string): void {
  const text = steered.get(id);
  if (text === undefined || !dropped.has(id)) return;
  steered.delete(id);
  dropped.delete(id);
  const back = input.value.trim() === '';
  if (back) input.value = text;
  showNote(
    back
      ? 'Not sent: the turn was cancelled. Your message is back in the box.'
      : `Not sent, the turn was cancelled: “${text}”`,
  );
}

/** A line above the message box (role status: read out), until the next message. */
function showNote(text: string): void {
  note.textContent = text;
  note.hidden = text === '';
}

async function submit(mode: 'send' | 'steer'): Promise<void> {
  const text = input.value.trim();
  if (text === '') return;
  input.value = '';
  showNote('');
  chunkWindow.setScrolledUp(false); // back to the bottom, where the answer appears
  if (text.startsWith('/notice')) {
    await post('notices', { kind: 'notice', text: text.slice(7).trim() || 'A notice.' });
  } else if (mode === 'steer') {
    await steer(text);
  } else {
    await send(text);
  }
}

(document.getElementById('composer') as HTMLFormElement).addEventListener('submit', (event) => {
  event.preventDefault();
  void submit('send');
});
input.addEventListener('keydown', (event) => {
  if (event.key === 'Enter' && !event.shiftKey) {
    event.preventDefault();
    void submit('send'); // while a turn runs, a sent message is queued behind it
  }
});
buttons.steer.addEventListener('click', () => void submit('steer'));
buttons.queue.addEventListener('click', () => void submit('send'));
// Stop the turn on the screen: naming it, a stop that arrives after it ended (409) does not stop
// the turn queued behind it.
buttons.stop.addEventListener('click', () => {
  const turnId = chunkWindow.getSnapshot().liveTurnId;
  void post('cancel', { reason: 'Stopped by the user.', ...(turnId ? { turnId } : {}) });
});
input.focus();
