// A thread: its facts and usage, where it sits among forks and alternatives, then the turns of
// the path shown (a conversation's active one), newest first, a page at a time.
import { TURN_STATUSES, type TurnStatus } from '../../schema/turn-status.js';
import type { ThreadUsage } from '../../store/usage-types.js';
import { threadOwner, threadTitle, usageText } from '../facts.js';
import { dash, formatCost, idCode, preview, timeHtml } from '../format.js';
import { html, type SafeHtml } from '../html.js';
import { rowsHref, threadHref, threadsHref, turnHref } from '../links.js';
import type { ThreadPaths } from '../paths.js';
import type { TurnListPage, TurnSummary } from '../turn-list.js';
import { branchTable, forkTable, lineage, threadLink } from './branches.js';
import { forkPointNote } from './fork-point-note.js';
import { modelsText, statusBadge, tokensText, turnDuration } from './parts.js';

/** What the thread page shows. */
export interface ThreadView {
  /** The thread, and the path whose turns are listed. */
  readonly paths: ThreadPaths;
  readonly usage: ThreadUsage | undefined;
  readonly turns: TurnListPage;
  readonly status: TurnStatus | undefined;
  readonly before: number | undefined;
  /** Whether costs are shown (a price is known). */
  readonly priced: boolean;
  readonly now: Date;
}

/**
 * The thread's usage (`getThreadUsage`: the steps recorded on its own rows, so that summing over
 * threads counts each step once), and what it leaves out: a fork's or an alternative's turns up
 * to its fork seq are read from its parent and counted there; a conversation shown on an
 * alternative's path counts its own path's turns, not the path shown's. The turns list shows each
 * turn's usage wherever its rows are.
 */
function usageFact(view: ThreadView): SafeHtml {
  const { usage } = view;
  const { thread, path } = view.paths;
  const fork = thread.forkOf !== undefined && thread.forkOf.atSeq > 0 ? thread.forkOf : undefined;
  const total = usage === undefined ? undefined : usageText(usage.total);
  const cost = formatCost(usage?.cost);
  const spent =
    usage === undefined
      ? '—'
      : usage.steps === 0
        ? fork
          ? 'none'
          : '—'
        : `${dash(total)} over ${usage.turns} turn(s), ${usage.steps} step(s)${cost ? ` · ${cost}` : ''}`;
  const notes: SafeHtml[] = [];
  if (fork) {
    const own = thread.alternativeOf !== undefined ? 'this version' : 'this fork';
    notes.push(
      html`on the turns ${own} holds, after seq <span class="seq">${fork.atSeq}</span>: those up to it are read from ${threadLink(fork.threadId)} and counted there`,
    );
  }
  if (path.id !== thread.id) {
    notes.push(
      html`on the conversation's own path, not the path shown: alternative ${threadLink(path.id)} counts its own turns on its page`,
    );
  }
  if (notes.length === 0) return html`${spent}`;
  return html`${spent} <span class="note usage-scope">(${notes.map((note, i) => html`${i > 0 ? '; ' : ''}${note}`)}; each turn below shows its own)</span>`;
}

/** What the turns list says of a turn: the user's message, or a retention sentinel's notice. */
function said(view: ThreadView, turn: TurnSummary): SafeHtml {
  if (turn.sentinelText === undefined) {
    return html`${turn.firstText !== undefined ? preview(turn.firstText) : ''}`;
  }
  return html`<span class="badge">retention</span> ${preview(turn.sentinelText)}${forkPointNote(view.paths, turn.firstSeq)}`;
}

function turnRow(view: ThreadView, turn: TurnSummary): SafeHtml {
  const { now, priced } = view;
  const path = view.paths.path;
  const cost = priced ? html`<td class="num">${dash(formatCost(turn.usage?.cost))}</td>` : '';
  return html`<tr class="turn turn-${turn.status ?? 'unknown'}">
<td><a href="${turnHref(path.id, turn.turnId)}">${idCode(turn.turnId)}</a></td>
<td>${timeHtml(turn.info?.startedAt ?? turn.createdAt, now)}</td><td>${statusBadge(turn.status)}</td>
<td class="num">${turn.steps}</td><td class="num">${dash(tokensText(turn.usage))}</td>${cost}
<td class="num">${dash(turnDuration(turn.usage, turn.info, now))}</td><td>${dash(modelsText(turn.usage))}</td>
<td class="num">${turn.firstSeq}–${turn.lastSeq}</td><td class="said">${said(view, turn)}</td></tr>`;
}

/** The `path` query value links keep, so that a page of a conversation stays on its path. */
function pin({ paths }: ThreadView): { path?: string } {
  return paths.pinned ? { path: paths.path.id } : {};
}

function statusLinks(view: ThreadView): SafeHtml {
  const all = [undefined, ...TURN_STATUSES];
  return html`<nav class="statuses">${all.map((status) =>
    status === view.status
      ? html`<b>${status ?? 'all'}</b> `
      : html`<a href="${threadHref(view.paths.thread.id, { ...pin(view), status })}">${status ?? 'all'}</a> `,
  )}</nav>`;
}

/**
 * The thread page.
 *
 * @param view - the thread, its usage and a page of its turns
 * @returns the page's body
 */
export function threadPage(view: ThreadView): SafeHtml {
  const { turns, now } = view;
  const { thread, path } = view.paths;
  const rows = turns.turns.map((turn) => turnRow(view, turn));
  const older =
    turns.nextBefore !== undefined
      ? html`<a rel="next" href="${threadHref(thread.id, { ...pin(view), before: turns.nextBefore, status: view.status })}">older turns →</a>`
      : '';
  const newest =
    view.before !== undefined
      ? html`<a href="${threadHref(thread.id, { ...pin(view), status: view.status })}">← newest turns</a>`
      : '';
  const empty = view.status
    ? `No ${view.status} turn${view.before ? ' below this point' : ''}.`
    : 'This thread has no turns yet.';
  return html`<p class="crumbs"><a href="${threadsHref()}">← threads</a></p>
<h1>Thread <code>${thread.id}</code></h1>
${lineage(view.paths)}
<dl class="facts"><dt>title</dt><dd>${dash(threadTitle(thread))}</dd><dt>owner</dt><dd>${dash(threadOwner(thread))}</dd>
<dt>rows</dt><dd><a href="${rowsHref(path.id)}">${path.total} rows</a>${path.id === thread.id ? '' : ' on the path shown'}</dd><dt>created</dt><dd>${timeHtml(thread.createdAt, now)}</dd>
<dt>last active</dt><dd>${timeHtml(thread.updatedAt, now)}</dd><dt>usage</dt><dd class="usage">${usageFact(view)}</dd>
<dt>metadata</dt><dd>${thread.metadata ? html`<code>${JSON.stringify(thread.metadata)}</code>` : '—'}</dd></dl>
<form class="search-thread" action="/search" method="get"><input type="hidden" name="thread" value="${path.id}"><input type="search" name="q" placeholder="Search this thread" aria-label="Search this thread"> <button type="submit">Search</button></form>
${branchTable(view.paths)}
${forkTable(view.paths, now)}
<h2>Turns</h2>
${statusLinks(view)}
${rows.length === 0 ? html`<p class="empty">${empty}</p>` : ''}
<table class="turns"><thead><tr><th>turn</th><th>started</th><th>status</th><th>steps</th><th>tokens</th>${view.priced ? html`<th>cost</th>` : ''}<th>duration</th><th>model</th><th>seqs</th><th>user said</th></tr></thead>
<tbody>${rows}</tbody></table>
<nav class="pager">${newest} ${older}</nav>`;
}
