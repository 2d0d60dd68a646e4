// Shared helpers for the _probe_window_* probes (read-only review). Runs against dist/.
import { explodeTurn, foldTurn } from '../dist/index.js';

export class MemoryThread {
  constructor(threadId = 'thread-1') { this.threadId = threadId; this.rows = []; this.running = new Set(); }
  append(drafts) {
    const stored = drafts.map((d, i) => ({ ...d, threadId: this.threadId, seq: this.rows.length + i + 1 }));
    this.rows.push(...stored);
    return stored;
  }
  /** stores a turn from its events as the session would (user text + assistant chunks) */
  storeTurn(turnId, userText, events) {
    const state = foldTurn(events);
    const user = userText == null ? [] : explodeTurn(turnId, [{ type: 'text', step: 0, text: userText }], { role: 'user' });
    const drafts = [...user, ...explodeTurn(turnId, state.chunks, { role: 'assistant' })];
    return this.append(drafts);
  }
  page({ limit, before }) {
    const below = before === undefined ? this.rows : this.rows.filter((r) => r.seq < before);
    const chunks = below.slice(Math.max(0, below.length - limit));
    const page = { chunks, total: this.rows.length, oldestSeq: chunks[0]?.seq ?? null, hasMore: chunks.length > 0 && chunks[0].seq > 1 };
    const status = {};
    for (const r of chunks) if (this.running.has(r.turnId)) status[r.turnId] = 'running';
    return Object.keys(status).length ? { ...page, turnStatus: status } : page;
  }
}

export function textTurn(turnId, n, { perChunk = 1 } = {}) {
  // n text chunks separated by system notices so each is its own chunk
  const ev = [{ type: 'turn-start', turnId }, { type: 'step-start', step: 0 }];
  for (let i = 0; i < n; i++) {
    ev.push({ type: 'text-start', id: `x${i}` });
    for (let k = 0; k < perChunk; k++) ev.push({ type: 'text-delta', id: `x${i}`, text: `c${i}.${k} ` });
    ev.push({ type: 'text-end', id: `x${i}` });
  }
  ev.push({ type: 'step-finish', step: 0, finishReason: 'stop' });
  ev.push({ type: 'turn-end', finishReason: 'stop' });
  return ev;
}

export const flush = async () => { for (let i = 0; i < 5; i++) await Promise.resolve(); await new Promise((r) => setTimeout(r, 0)); };
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
export const summary = (log) => log.map((e) => `${e.id}|${e.role}|${e.type}`);
