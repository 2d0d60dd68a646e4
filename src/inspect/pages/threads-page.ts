// The store's threads, most recently active first, by keyset.
import type { Thread, ThreadPage } from '../../store/types.js';
import { threadOwner, threadTitle } from '../facts.js';
import { dash, idCode, timeHtml } from '../format.js';
import { html, type SafeHtml } from '../html.js';
import { threadHref, threadsHref } from '../links.js';

/**
 * The threads page.
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
  const older = page.nextBefore
    ? html`<a rel="next" href="${threadsHref({ before: page.nextBefore })}">older threads →</a>`
    : '';
  return html`<h1>Threads</h1>
${page.threads.length === 0 ? html`<p class="empty">${before ? 'No more threads.' : 'This store has no threads yet.'}</p>` : ''}
<table class="threads"><thead><tr><th>thread</th><th>title</th><th>owner</th><th>rows</th><th>created</th><th>last active</th><th>metadata</th></tr></thead>
<tbody>${rows}</tbody></table>
<nav class="pager">${before ? html`<a href="/">← newest</a>` : ''} ${older}</nav>`;
}
