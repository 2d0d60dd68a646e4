// The store's threads, most recently active first, by keyset.
import type { Thread, ThreadPage } from '../../store/types.js';
import { threadOwner, threadTitle } from '../facts.js';
import { dash, idCode, timeHtml } from '../format.js';
import { html, type SafeHtml } from '../html.js';
import { threadHref, threadsHref } from '../links.js';

/**
 * The threads page: the threads that read, then those that do not (`skipped`), with why.
 *
 * @param page - a page of threads
 * @param before - the cursor it was read with
 * @param now - the time, for "how long ago"
 * @returns the page's body
 */
export function threadsPage(page: ThreadPage, before: string | undefined, now: Date): SafeHtml {
  const rows = page.threads.map(
    (thread: Thread) => html`<tr>
<td><a href="${threadHref(thread.id)}">${idCode(thread.id)}</a></td><td>${dash(threadTitle(thread))}</td><td>${dash(threadOwner(thread))}</td>
<td class="num">${thread.total}</td><td>${timeHtml(thread.createdAt, now)}</td><td>${timeHtml(thread.updatedAt, now)}</td>
<td class="meta">${thread.metadata ? html`<code>${JSON.stringify(thread.metadata)}</code>` : '—'}</td></tr>`,
  );
  const unreadable = (page.skipped ?? []).map(
    ({ threadId, error }) => html`<li>${idCode(threadId)}: ${error.message}</li>`,
  );
  const older = page.nextBefore
    ? html`<a rel="next" href="${threadsHref({ before: page.nextBefore })}">older threads →</a>`
    : '';
  return html`<h1>Threads</h1>
${page.threads.length === 0 && unreadable.length === 0 ? html`<p class="empty">${before ? 'No more threads.' : 'This store has no threads yet.'}</p>` : ''}
<table class="threads"><thead><tr><th>thread</th><th>title</th><th>owner</th><th>rows</th><th>created</th><th>last active</th><th>metadata</th></tr></thead>
<tbody>${rows}</tbody></table>
${
  unreadable.length === 0
    ? ''
    : html`<h2>Threads that cannot be read</h2>
<p class="empty">Stored, but their row does not read; each says why (a title or metadata whose key is gone, as in a backup restored after <code>eraseThread</code>; a store opened without its key; a damaged row).</p>
<ul class="unreadable">${unreadable}</ul>`
}
<nav class="pager">${before ? html`<a href="/">← newest</a>` : ''} ${older}</nav>`;
}
