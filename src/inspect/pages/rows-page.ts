// A page of a thread's rows (seq, turn, step, role, type, data), filtered or not.
import type { ChunkRow } from '../../schema/chunk-row.js';
import { errorTitle } from '../../schema/error-next-step.js';
import { isSentinelRow } from '../../store/queries/sentinel.js';
import type { Thread } from '../../store/types.js';
import { describeFilter, filterQuery, isEmptyFilter, type RowFilter } from '../filters.js';
import { formatCount, idCode, timeHtml } from '../format.js';
import { html, pretty, type SafeHtml } from '../html.js';
import { rowsHref, threadHref, turnHref } from '../links.js';
import type { ThreadPaths } from '../paths.js';
import type { RowsRead } from '../row-scan.js';
import { lineage } from './branches.js';
import { forkPointNote } from './fork-point-note.js';
import { filterForm } from './parts.js';

/** A one-line view of a row's data. */
export function rowSummary(row: ChunkRow): SafeHtml {
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
      return html`<span class="badge error">${errorTitle(row.data)}</span> ${row.data.message}`;
    case 'system': {
      const dropped = row.data.dropped ?? [];
      return html`<span class="badge">${String(data.kind)}</span> ${String(data.text ?? '')}${dropped.length === 0 ? '' : ` (steering not sent: ${dropped.map((d) => JSON.stringify(d.text)).join(', ')})`}`;
    }
    default:
      return html`<code>${JSON.stringify(data).slice(0, 300)}</code>`;
  }
}

/**
 * A row as a table row: seq (an anchor), turn, step, role, type, data (expandable), time; a
 * retention sentinel with the listed forks it stands for.
 */
export function rowLine(view: RowsView, row: ChunkRow): SafeHtml {
  const { thread, read, now, paths } = view;
  const status = read.statusOf(row.turnId);
  const forks = paths !== undefined && isSentinelRow(row) ? forkPointNote(paths, row.seq) : '';
  return html`<tr class="row type-${row.type}" id="seq-${row.seq}">
<td class="num">${row.seq}</td><td><a href="${turnHref(thread.id, row.turnId)}">${idCode(row.turnId)}</a>${status !== 'completed' ? html` <span class="status status-${status}">${status}</span>` : ''}</td><td class="num">${row.step}</td>
<td>${row.role}</td><td>${row.type}</td><td class="data"><details><summary>${rowSummary(row)}</summary><pre>${pretty(row.data)}</pre></details>${forks}</td><td>${timeHtml(row.createdAt, now)}</td></tr>`;
}

/** What the rows page shows. */
export interface RowsView {
  /** The thread whose rows are shown (a conversation's active path, or the one asked for). */
  readonly thread: Thread;
  /** The thread asked for and the path shown, for what the page says about them. */
  readonly paths?: ThreadPaths | undefined;
  readonly read: RowsRead;
  readonly filter: RowFilter;
  readonly before: number | undefined;
  readonly now: Date;
}

function heading(view: RowsView): string {
  const { read, filter } = view;
  const rows = read.rows;
  if (isEmptyFilter(filter)) {
    const span = rows.length > 1 ? `–${rows.at(-1)?.seq}` : '';
    return `Rows ${rows[0]?.seq ?? ''}${span} of ${read.total}`;
  }
  const looked = read.scanned
    ? ` in seqs ${read.scanned.from}–${read.scanned.to} (${formatCount(read.scanned.rows)} rows read)`
    : '';
  return `${rows.length} row(s) with ${describeFilter(filter)}${looked}, of ${read.total}`;
}

/**
 * The rows page.
 *
 * @param view - the thread, the page read, the filter and cursor
 * @returns the page's body
 */
export function rowsPage(view: RowsView): SafeHtml {
  const { thread, read, filter, before } = view;
  const keep = filterQuery(filter);
  const filtered = !isEmptyFilter(filter);
  const newer =
    before !== undefined && before <= read.total
      ? html`${
          filtered
            ? ''
            : html`<a href="${rowsHref(thread.id, { before: Math.min(before + read.rows.length, read.total + 1) })}">← newer rows</a> `
        }<a href="${rowsHref(thread.id, keep)}">newest</a>`
      : '';
  const older =
    read.nextBefore !== undefined
      ? html`<a rel="next" href="${rowsHref(thread.id, { ...keep, before: read.nextBefore })}">older rows →</a>`
      : '';
  const lines = read.rows.map((row) => rowLine(view, row));
  // Back to the thread asked for: a conversation, when the rows are of its active path.
  const back = view.paths?.thread.id ?? thread.id;
  return html`<p class="crumbs"><a href="${threadHref(back)}">← thread ${back}</a></p>
<h1>Rows of <code>${thread.id}</code></h1>
${view.paths ? lineage(view.paths) : ''}
${filterForm(rowsHref(thread.id), filter)}
<h2>${heading(view)}</h2>
<nav class="pager">${newer} ${older}</nav>
${lines.length === 0 ? html`<p class="empty">No rows${filtered ? ' match here' : ''}.</p>` : ''}
<table class="rows"><thead><tr><th>seq</th><th>turn</th><th>step</th><th>role</th><th>type</th><th>data</th><th>stored</th></tr></thead>
<tbody>${lines}</tbody></table>
<nav class="pager">${newer} ${older}</nav>`;
}
