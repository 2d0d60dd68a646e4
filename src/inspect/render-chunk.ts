// Every chunk kind as HTML, the way the chunk-native front end plan draws them: thinking in place
// and collapsible, tool cards with their progress and result, error cards, system chunks (notices,
// model switches, cancels, sentinels) as separators. Everything from the store is escaped text.
import type { Chunk, ToolCallEntry } from '../schema/chunk.js';
import { errorNextStep, errorTitle } from '../schema/error-next-step.js';
import { html, pretty, type SafeHtml } from './html.js';

function toolCard(call: ToolCallEntry): SafeHtml {
  const state = call.isError
    ? 'error'
    : call.result !== undefined
      ? 'done'
      : call.denied
        ? 'denied'
        : 'no result';
  const input = call.input !== undefined ? JSON.stringify(call.input) : (call.inputText ?? '');
  return html`<div class="call ${state.replace(' ', '-')}">
  <div class="call-head"><span class="tool-name">${call.name || '(tool)'}</span> <code class="input">${input}</code> <span class="badge">${state}</span>${call.providerExecuted ? html` <span class="badge">provider-executed</span>` : ''}</div>
  ${call.progress ? html`<pre class="progress">${call.progress}</pre>` : ''}
  ${call.preliminary !== undefined ? html`<pre class="progress">preliminary: ${pretty(call.preliminary)}</pre>` : ''}
  ${call.result !== undefined ? html`<pre class="result">${pretty(call.result)}</pre>` : ''}
</div>`;
}

/** A link only for http(s) URLs; anything else is text. */
function safeLink(url: string, label: string): SafeHtml {
  try {
    const parsed = new URL(url);
    if (parsed.protocol === 'http:' || parsed.protocol === 'https:') {
      return html`<a href="${parsed.href}" rel="noopener noreferrer nofollow">${label || url}</a>`;
    }
  } catch {
    // not a URL
  }
  return html`<span>${label || url}</span>`;
}

/**
 * One chunk as HTML.
 *
 * @param chunk - the chunk
 * @returns its HTML (every value escaped)
 */
export function renderChunk(chunk: Chunk): SafeHtml {
  switch (chunk.type) {
    case 'text':
      return html`<div class="chunk text">${chunk.text}</div>`;
    case 'thinking': {
      const words = chunk.text.trim().split(/\s+/).filter(Boolean).length;
      const signed = chunk.providerMetadata !== undefined ? ' · with provider metadata' : '';
      const label =
        chunk.text === '' ? 'Thinking (redacted)' : `Thinking · ${words} words${signed}`;
      return html`<details class="chunk thinking"><summary>${label}</summary><div class="body">${chunk.text}</div>${chunk.providerMetadata ? html`<pre class="meta">${pretty(chunk.providerMetadata)}</pre>` : ''}</details>`;
    }
    case 'tool-batch':
      return html`<div class="chunk tool-batch">${chunk.calls.map(toolCard)}</div>`;
    case 'error': {
      const next = errorNextStep(chunk);
      return html`<div class="chunk error"><div class="error-title">${errorTitle(chunk)}</div><div class="body">${chunk.message}</div>${next === undefined ? '' : html`<div class="next-step">${next}</div>`}</div>`;
    }
    case 'system':
      return html`<div class="chunk system kind-${chunk.kind}"><span class="kind">${chunk.kind}</span> <span class="body">${chunk.text}</span>${(chunk.dropped ?? []).map((d) => html`<div class="dropped">steering not sent: ${d.text}</div>`)}</div>`;
    case 'steering':
      return html`<div class="chunk steering"><span class="who">user, while the turn ran</span><div class="body">${chunk.text}</div></div>`;
    case 'source': {
      const s = chunk.source;
      return html`<div class="chunk source">source: ${s.sourceType === 'url' ? safeLink(s.url, s.title ?? '') : s.title}</div>`;
    }
    case 'file':
      return html`<div class="chunk file">file: ${chunk.filename ?? '(unnamed)'} (${chunk.mediaType}${chunk.url ? `, ${chunk.url}` : chunk.data ? `, ${chunk.data.length} base64 characters` : ''})</div>`;
    case 'custom':
      return html`<div class="chunk custom">custom: ${chunk.kind}${chunk.providerMetadata ? html`<pre class="meta">${pretty(chunk.providerMetadata)}</pre>` : ''}</div>`;
    case 'data':
      return html`<div class="chunk data">data-${chunk.name}<pre>${pretty(chunk.data)}</pre></div>`;
    default: {
      const unknown: never = chunk;
      return html`<pre class="chunk other">${pretty(unknown)}</pre>`;
    }
  }
}
