// DOM for messages and chunks, as the chunk-refactor plan's display phase describes them. Every
// piece of model output goes into the page with `textContent`: it is never parsed as HTML.
import type { ChatMessage, Chunk, JSONValue, ToolCallEntry } from 'chunklog';
import { errorNextStep, errorTitle } from 'chunklog/window';

/** `document.createElement` with a class and, optionally, text. */
function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  className: string,
  text?: string,
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

const json = (value: JSONValue | undefined): string =>
  value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value, null, 2);

/** Thinking blocks the user opened, so that re-rendering keeps them open. */
export const openThinking: Set<string> = new Set();

function thinking(chunk: Extract<Chunk, { type: 'thinking' }>, key: string): HTMLElement {
  const details = el('details', 'chunk thinking');
  details.open = openThinking.has(key);
  details.addEventListener('toggle', () => {
    if (details.open) openThinking.add(key);
    else openThinking.delete(key);
  });
  const words = chunk.text.trim().split(/\s+/).filter(Boolean).length;
  const label = chunk.text === '' ? 'Thinking (redacted)' : `Thinking · ${words} words`;
  details.append(el('summary', '', label), el('div', 'body', chunk.text));
  return details;
}

/** A call without a result runs while its turn is live; in a turn that ended it was cut short. */
function toolCall(call: ToolCallEntry, live: boolean): HTMLElement {
  const state = call.isError
    ? 'error'
    : call.result !== undefined
      ? 'done'
      : call.denied
        ? 'denied'
        : live
          ? 'running'
          : 'unfinished';
  const box = el('div', `call ${state}`);
  const head = el('div', 'call-head');
  const input = call.input !== undefined ? JSON.stringify(call.input) : (call.inputText ?? '');
  head.append(
    el('span', 'tool-name', call.name || '(tool)'),
    el('span', 'input', input),
    el('span', `badge ${state}`, state),
  );
  box.append(head);
  if (call.progress) box.append(el('pre', 'progress', call.progress));
  if (call.preliminary !== undefined && call.result === undefined)
    box.append(el('pre', 'progress', `⇢ ${json(call.preliminary)}`));
  if (call.result !== undefined) box.append(el('pre', 'result', json(call.result)));
  return box;
}

/** A link only for http(s) URLs; anything else is shown as text. */
function safeLink(url: string, label: string): HTMLElement {
  try {
    const parsed = new URL(url);
    if (parsed.protocol === 'http:' || parsed.protocol === 'https:') {
      const a = el('a', '', label || url);
      a.href = parsed.href;
      a.rel = 'noopener noreferrer nofollow';
      a.target = '_blank';
      return a;
    }
  } catch {
    // not a URL
  }
  return el('span', '', label || url);
}

/** One chunk's element (`live`: its turn runs). Every chunk element has the class `chunk`. */
export function renderChunk(chunk: Chunk, key: string, live: boolean): HTMLElement {
  switch (chunk.type) {
    case 'text':
      return el('div', 'chunk text', chunk.text);
    case 'thinking':
      return thinking(chunk, key);
    case 'tool-batch': {
      const batch = el('div', 'chunk tool-batch');
      for (const call of chunk.calls) batch.append(toolCall(call, live));
      return batch;
    }
    case 'error': {
      const card = el('div', 'chunk error');
      card.append(el('div', 'error-title', errorTitle(chunk)), el('div', 'body', chunk.message));
      const next = errorNextStep(chunk);
      if (next !== undefined) card.append(el('div', 'next-step', next));
      return card;
    }
    case 'system': {
      const line = el('div', `chunk system kind-${chunk.kind}`);
      line.append(el('span', 'kind', chunk.kind), el('span', 'body', chunk.text));
      // Steering the cancel dropped: the model never read it.
      for (const d of chunk.dropped ?? []) line.append(el('div', 'dropped', `Not sent: ${d.text}`));
      return line;
    }
    case 'steering': {
      const aside = el('div', 'chunk steering');
      aside.append(el('span', 'who', 'You, while it worked'), el('div', 'body', chunk.text));
      return aside;
    }
    case 'source': {
      const source = el('div', 'chunk source');
      const s = chunk.source;
      source.append(
        s.sourceType === 'url' ? safeLink(s.url, s.title ?? '') : el('span', '', s.title),
      );
      return source;
    }
    case 'file':
      return el('div', 'chunk file', `📎 ${chunk.filename ?? 'file'} (${chunk.mediaType})`);
    case 'custom': {
      const custom = el('div', 'chunk custom', chunk.kind);
      custom.hidden = true; // provider bookkeeping (a fallback marker): kept, not shown
      return custom;
    }
    default: {
      // Chunk kinds this page does not know (an app's data parts): shown as JSON text.
      const unknown = chunk as { type: string; data?: JSONValue };
      return el('pre', 'chunk other', `${unknown.type}: ${json(unknown.data)}`);
    }
  }
}

/**
 * A key for a chunk that does not change when chunks are added before or after it (so the page
 * can keep it in place while older pages load): its provider block id, its first call's id, or
 * its content.
 */
function chunkKey(message: ChatMessage, chunk: Chunk): string {
  const id =
    'id' in chunk && typeof chunk.id === 'string'
      ? chunk.id
      : chunk.type === 'tool-batch'
        ? chunk.calls[0]?.id
        : undefined;
  return `${message.id}|${chunk.type}|${chunk.step}|${id ?? JSON.stringify(chunk).slice(0, 200)}`;
}

/**
 * Where a user's message not stored yet is: `sending` until the server accepted it, `queued`
 * while it waits behind the running turn. Once its turn runs it reads as sent (no label).
 */
export type UserMessageStatus = 'sending' | 'queued';

const STATUS_TEXT: Record<UserMessageStatus, string> = {
  sending: 'sending…',
  queued: 'queued: it runs after the current turn',
};

/**
 * A message bubble: the user's, the assistant's (every chunk in order), or a system one. `live`:
 * its turn runs. Call `followProgress` once it is on the page.
 */
export function renderMessage(
  message: ChatMessage,
  status: UserMessageStatus | undefined,
  live: boolean,
): HTMLElement {
  const bubble = el('article', `message ${message.role}${status ? ` ${status}` : ''}`);
  bubble.dataset.id = message.id;
  for (const chunk of message.chunks) {
    const key = chunkKey(message, chunk);
    const node = renderChunk(chunk, key, live);
    node.dataset.key = key;
    bubble.append(node);
  }
  if (status) bubble.append(el('div', 'message-status', STATUS_TEXT[status]));
  return bubble;
}

/** A tool's progress box shows its newest lines, like a terminal: scrolled to its end. */
export function followProgress(bubble: HTMLElement): void {
  for (const pre of bubble.querySelectorAll<HTMLElement>('pre.progress')) {
    pre.scrollTop = pre.scrollHeight;
  }
}
