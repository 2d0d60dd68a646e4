// Search results: the rows whose text holds the query, with the match marked (a row of an
// alternative under its conversation, linking to that version), and what the scan read; a link
// goes on where a bounded scan stopped. A query that is a thread's id links to that thread.
import type { Thread } from '../../store/types.js';
import { filterQuery, type RowFilter } from '../filters.js';
import { formatCount, idCode, timeHtml } from '../format.js';
import { html, type SafeHtml } from '../html.js';
import { rowsHref, searchHref, threadHref, turnHref } from '../links.js';
import type { SearchCursor, SearchHit, SearchResult } from '../search.js';
import { filterForm } from './parts.js';

/** What the search page shows. */
export interface SearchView {
  readonly query: string;
  readonly thread: Thread | undefined;
  readonly filter: RowFilter;
  /** Undefined before a query is given. */
  readonly result: SearchResult | undefined;
  readonly rowBudget: number;
  /** The most hits a page of results shows. */
  readonly maxHits: number;
  /** The thread whose id the query is (an alternative's too), if any. */
  readonly idMatch?: Thread | undefined;
  readonly now: Date;
}

/** The cursor as query values (`tp`, `ti`, `tv`, `ts`). */
export function cursorQuery(cursor: SearchCursor): Record<string, string | number | undefined> {
  return { tp: cursor.threadsBefore, ti: cursor.index, tv: cursor.version, ts: cursor.before };
}

function snippet(hit: SearchHit, length: number): SafeHtml {
  const { text, at } = hit;
  const start = Math.max(0, at - 60);
  const end = Math.min(text.length, at + length + 100);
  const before = `${start > 0 ? '…' : ''}${text.slice(start, at)}`;
  const after = `${text.slice(at + length, end)}${end < text.length ? '…' : ''}`;
  return html`${before}<mark>${text.slice(at, at + length)}</mark>${after}`;
}

function hitRow(hit: SearchHit, view: SearchView): SafeHtml {
  const { thread, version, row } = hit;
  // A row of an alternative is shown under its conversation; its links open that version.
  const where = version ?? thread.id;
  const of =
    version === undefined
      ? ''
      : html`<br><span class="version">alternative <a href="${threadHref(version)}">${idCode(version)}</a></span>`;
  return html`<tr class="hit">
<td><a href="${threadHref(thread.id)}">${idCode(thread.id)}</a>${of}</td><td><a href="${turnHref(where, row.turnId)}">${idCode(row.turnId)}</a></td>
<td class="num"><a href="${rowsHref(where, { before: row.seq + 1 })}#seq-${row.seq}">${row.seq}</a></td><td>${row.role}</td><td>${row.type}</td>
<td class="snippet">${snippet(hit, view.query.length)}</td><td>${timeHtml(row.createdAt, view.now)}</td></tr>`;
}

/** The thread whose id the query is: a link, and for an alternative its conversation. */
function idMatchNote(thread: Thread | undefined): SafeHtml {
  if (thread === undefined) return html``;
  const of =
    thread.alternativeOf === undefined
      ? ''
      : html`, an alternative of <a href="${threadHref(thread.alternativeOf)}">${idCode(thread.alternativeOf)}</a>`;
  return html`<p class="id-match">Thread <a href="${threadHref(thread.id)}"><code>${thread.id}</code></a> has this id${of}.</p>`;
}

/** What the scan read: rows, threads, and the alternatives of those threads. */
function scanned(result: SearchResult): string {
  const versions =
    result.scannedVersions > 0 ? ` and ${formatCount(result.scannedVersions)} alternative(s)` : '';
  return `${formatCount(result.scannedRows)} row(s) of ${formatCount(result.scannedThreads)} thread(s)${versions} read`;
}

/** Why the scan stopped where it did: the hit cap, the row cap of a page, or the end. */
function stoppedNote(result: SearchResult, view: SearchView): string {
  switch (result.stoppedBy) {
    case 'hits':
      return ` It stopped at ${formatCount(view.maxHits)} hits, the most a page shows: go on for more.`;
    case 'rows':
      return ` It stopped there: a page reads at most ${formatCount(view.rowBudget)} rows. Go on for more.`;
    case 'end':
      return ' That is every row.';
  }
}

/**
 * The search page.
 *
 * @param view - the query, its scope and what was found
 * @returns the page's body
 */
export function searchPage(view: SearchView): SafeHtml {
  const { query, thread, result, filter } = view;
  const scope = thread
    ? html`in thread <a href="${threadHref(thread.id)}"><code>${thread.id}</code></a>`
    : html`in every thread and its alternatives, most recently active first`;
  const form = filterForm('/search', filter, { q: query, thread: thread?.id });
  if (result === undefined) {
    return html`<h1>Search</h1><p class="note">Type words in the search box: every row's text is scanned ${scope}, newest rows first, at most ${formatCount(view.rowBudget)} rows per page of results.</p>`;
  }
  const next = result.next
    ? html`<a rel="next" href="${searchHref({ q: query, thread: thread?.id, ...filterQuery(filter), ...cursorQuery(result.next) })}">go on searching →</a>`
    : '';
  const stopped = stoppedNote(result, view);
  return html`<h1>Search “${query}”</h1>
${form}
${idMatchNote(view.idMatch)}
<p class="scan">${result.hits.length} hit(s) ${scope}; ${scanned(result)}.${stopped}</p>
${result.hits.length === 0 ? html`<p class="empty">No row holds “${query}”${result.next ? ' in what was read' : ''}.</p>` : ''}
<table class="hits"><thead><tr><th>thread</th><th>turn</th><th>seq</th><th>role</th><th>type</th><th>text</th><th>stored</th></tr></thead>
<tbody>${result.hits.map((hit) => hitRow(hit, view))}</tbody></table>
<nav class="pager">${next}</nav>`;
}
