// The inspector's three pages: threads, a page of a thread's rows, one turn. Server-rendered HTML
// with no script; every value from the store is escaped.

import type { ChunkPage } from '../schema/chunk-page.js';
import type { ChunkRow } from '../schema/chunk-row.js';
import type { TurnInfo } from '../store/turn-types.js';
import type { Thread, ThreadPage } from '../store/types.js';
import type { TurnUsage } from '../store/usage-types.js';
import { groupRowsToMessages } from '../transforms/group-rows.js';
import { stepUsage, threadOwner, threadTitle, turnStatus, turnTimes, usageText } from './facts.js';
import { html, pretty, type SafeHtml } from './html.js';
import { renderChunk } from './render-chunk.js';

const threadHref = (id: string) => `/threads/${encodeURIComponent(id)}`;
const turnHref = (threadId: string, turnId: string) =>
  `${threadHref(threadId)}/turns/${encodeURIComponent(turnId)}`;
const dash = (value: string | undefined) => value ?? '—';

/** The page around a body. */
export function layout(title: string, source: string, body: SafeHtml): SafeHtml {
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · chunklog inspect</title><link rel="icon" href="data:,"><link rel="stylesheet" href="/inspector.css"></head>
<body><header><a href="/" class="brand">chunklog inspect</a> <span class="source">${source}</span> <span class="ro">read-only</span></header>
<main>${body}</main></body></html>`;
}

/** Threads, most recently active first. */
export function threadsPage(page: ThreadPage, before: string | undefined): SafeHtml {
  const rows = page.threads.map(
    (thread: Thread) => html`<tr>
<td><a href="${threadHref(thread.id)}">${thread.id}</a></td><td>${dash(threadTitle(thread))}</td><td>${dash(threadOwner(thread))}</td>
<td class="num">${thread.total}</td><td>${thread.createdAt}</td><td>${thread.updatedAt}</td>
<td>${thread.metadata ? html`<code>${JSON.stringify(thread.metadata)}</code>` : '—'}</td></tr>`,
  );
  return html`<h1>Threads</h1>
${page.threads.length === 0 ? html`<p class="empty">${before ? 'No more threads.' : 'This store has no threads yet.'}</p>` : ''}
<table class="threads"><thead><tr><th>thread</th><th>title</th><th>owner</th><th>rows</th><th>created</th><th>updated</th><th>metadata</th></tr></thead>
<tbody>${rows}</tbody></table>
<nav class="pager">${before ? html`<a href="/">newest</a>` : ''} ${page.nextBefore ? html`<a rel="next" href="/?before=${encodeURIComponent(page.nextBefore)}">older threads →</a>` : ''}</nav>`;
}

/** A one-line view of a row's data. */
function rowSummary(row: ChunkRow): SafeHtml {
  const data = row.data as Record<string, unknown>;
  switch (row.type) {
    case 'text':
    case 'thinking':
    case 'steering':
      return html`${String(data.text ?? '')}`;
    case 'tool_call':
      return html`<b>${String(data.name)}</b> <code>${JSON.stringify(data.input ?? data.inputText ?? null)}</code>`;
    case 'tool_result':
      return html`<b>${String(data.name)}</b> ${data.isError ? html`<span class="badge error">error</span>` : ''} <code>${JSON.stringify(data.result ?? null)?.slice(0, 300)}</code>`;
    case 'error':
      return html`<span class="badge error">${data.statusCode ? `Error ${data.statusCode}` : 'Error'}</span> ${String(data.message ?? '')}`;
    case 'system':
      return html`<span class="badge">${String(data.kind)}</span> ${String(data.text ?? '')}`;
    default:
      return html`<code>${JSON.stringify(data).slice(0, 300)}</code>`;
  }
}

/** A page of a thread's rows, newest page first, by keyset (`before`). */
export function rowsPage(thread: Thread, page: ChunkPage, before: number | undefined): SafeHtml {
  const rows = page.chunks.map(
    (row) => html`<tr class="row type-${row.type}">
<td class="num">${row.seq}</td><td><a href="${turnHref(thread.id, row.turnId)}">${row.turnId}</a></td><td class="num">${row.step}</td>
<td>${row.role}</td><td>${row.type}</td><td class="data"><details><summary>${rowSummary(row)}</summary><pre>${pretty(row.data)}</pre></details></td><td>${dash(row.createdAt)}</td></tr>`,
  );
  const newer =
    before !== undefined && before <= page.total
      ? html`<a href="${threadHref(thread.id)}?before=${Math.min(before + page.chunks.length, page.total + 1)}">← newer rows</a> <a href="${threadHref(thread.id)}">newest</a>`
      : '';
  const older =
    page.hasMore && page.oldestSeq !== null
      ? html`<a rel="next" href="${threadHref(thread.id)}?before=${page.oldestSeq}">older rows →</a>`
      : '';
  return html`<h1>Thread <code>${thread.id}</code></h1>
<dl class="facts"><dt>title</dt><dd>${dash(threadTitle(thread))}</dd><dt>owner</dt><dd>${dash(threadOwner(thread))}</dd>
<dt>rows</dt><dd>${thread.total}</dd><dt>created</dt><dd>${thread.createdAt}</dd><dt>updated</dt><dd>${thread.updatedAt}</dd>
<dt>metadata</dt><dd>${thread.metadata ? html`<code>${JSON.stringify(thread.metadata)}</code>` : '—'}</dd></dl>
<h2>Rows ${page.chunks[0]?.seq ?? ''}${page.chunks.length > 1 ? `–${page.chunks.at(-1)?.seq}` : ''} of ${page.total}</h2>
<nav class="pager">${newer} ${older}</nav>
<table class="rows"><thead><tr><th>seq</th><th>turn</th><th>step</th><th>role</th><th>type</th><th>data</th><th>created</th></tr></thead>
<tbody>${rows}</tbody></table>
<nav class="pager">${newer} ${older}</nav>`;
}

/** One turn: its messages, each assistant message's chunks by step, rendered by kind. */
export function turnPage(
  thread: Thread,
  turnId: string,
  rows: readonly ChunkRow[],
  usage?: TurnUsage,
  info?: TurnInfo,
): SafeHtml {
  const messages = groupRowsToMessages(rows);
  const times = turnTimes(rows);
  const steps = [...new Set(rows.map((row) => row.step))].sort((a, b) => a - b);
  const body = messages.map((message) => {
    let step = -1;
    const chunks = message.chunks.map((chunk) => {
      const header =
        message.role === 'assistant' && chunk.step !== step
          ? html`<div class="step">step ${chunk.step}${stepUsage(usage, chunk.step) ? ` · ${stepUsage(usage, chunk.step)}` : ''}</div>`
          : '';
      step = chunk.step;
      return html`${header}${renderChunk(chunk)}`;
    });
    return html`<article class="message ${message.role}"><div class="role">${message.role}</div>${chunks}</article>`;
  });
  return html`<p class="crumbs"><a href="${threadHref(thread.id)}">← thread ${thread.id}</a></p>
<h1>Turn <code>${turnId}</code></h1>
<dl class="facts"><dt>rows</dt><dd>${rows.length} (seqs ${rows[0]?.seq}–${rows.at(-1)?.seq})</dd>
<dt>steps</dt><dd>${steps.length}</dd><dt>status</dt><dd>${dash(turnStatus(rows, info))}</dd>
<dt>stored</dt><dd>${dash(times.first)}${times.last && times.last !== times.first ? ` – ${times.last}` : ''}</dd>
<dt>usage</dt><dd>${dash(usage === undefined ? undefined : usageText(usage.total))}</dd></dl>
${body}`;
}

/** A short error page. */
export function errorPage(title: string, message: string): SafeHtml {
  return html`<h1>${title}</h1><p class="error">${message}</p><p><a href="/">threads</a></p>`;
}
