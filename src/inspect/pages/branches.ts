// Where a thread sits among forks and alternatives: the thread it was forked from and at which
// seq, the conversation it is an alternative of, which path of a conversation the page shows,
// and the conversation's branch points with a link to each version and the active one marked.
import type {
  Alternative,
  Alternatives,
  BranchPoint,
  ConversationVersion,
  Thread,
} from '../../store/types.js';
import { idCode, timeHtml } from '../format.js';
import { html, type SafeHtml } from '../html.js';
import { pathHref, threadHref, turnHref } from '../links.js';
import type { ThreadPaths } from '../paths.js';

/** A thread's id (shortened when long) as a link to its page. */
export const threadLink = (threadId: string): SafeHtml =>
  html`<a href="${threadHref(threadId)}">${idCode(threadId)}</a>`;

/** Which path of a conversation is shown, and which is active. */
function shownPath({ thread, path, active }: ThreadPaths): SafeHtml {
  const activeLink = html`<a href="${pathHref(thread.id, active)}">${idCode(active)}</a>`;
  if (path.id === thread.id) {
    return active === thread.id
      ? html`Showing the conversation's own path, the active one.`
      : html`Showing the conversation's own path; the active path is alternative ${activeLink}.`;
  }
  const pathLink = html`<a href="${pathHref(thread.id, path.id)}">${idCode(path.id)}</a>`;
  if (path.id === active) return html`Showing the active path: alternative ${pathLink}.`;
  const which =
    active === thread.id ? html`the conversation's own` : html`alternative ${activeLink}`;
  return html`Showing alternative ${pathLink}; the active path is ${which}.`;
}

/**
 * What the thread is (a fork, an alternative) and, for a conversation with alternatives, which
 * of its paths the page shows; nothing for a plain thread.
 *
 * @param paths - the thread and the path shown
 * @returns a paragraph per fact
 */
export function lineage(paths: ThreadPaths): SafeHtml {
  const { thread } = paths;
  const fork = thread.forkOf;
  const at = fork ? html`at seq <span class="seq">${fork.atSeq}</span>` : '';
  // An alternative branches from its conversation's path, or from another alternative's.
  const branching =
    fork === undefined
      ? ''
      : fork.threadId === thread.alternativeOf
        ? html`, branching ${at}`
        : html`, branching from ${threadLink(fork.threadId)} ${at}`;
  const what =
    thread.alternativeOf !== undefined
      ? html`<p class="lineage">Alternative of ${threadLink(thread.alternativeOf)}${branching}.</p>`
      : fork
        ? html`<p class="lineage">Forked from ${threadLink(fork.threadId)} ${at}.</p>`
        : '';
  const shown = paths.pinned ? html`<p class="lineage shown">${shownPath(paths)}</p>` : '';
  return html`${what}${shown}`;
}

function version(
  conversationId: string,
  alternative: Alternative,
  index: number,
  active: boolean,
): SafeHtml {
  const { threadId, turnId } = alternative;
  const turn =
    turnId === undefined
      ? html`<span class="muted">no turn yet</span>`
      : html`turn <a href="${turnHref(threadId, turnId)}">${idCode(turnId)}</a>`;
  return html`<li class="version${active ? ' active' : ''}"><a href="${pathHref(conversationId, threadId)}">version ${index + 1}</a> ${idCode(threadId)} · ${turn}${active ? html` <span class="badge active">active</span>` : ''}</li>`;
}

function branchRow(conversationId: string, branch: BranchPoint): SafeHtml {
  const versions = branch.alternatives.map((alternative, i) =>
    version(conversationId, alternative, i, i === branch.active),
  );
  return html`<tr class="branch"><td class="num">${branch.atSeq}</td><td><ol class="versions">${versions}</ol></td></tr>`;
}

/** The versions no branch point of the active path lists (nor the active path itself). */
function offPathVersions(alternatives: Alternatives): readonly ConversationVersion[] {
  const listed = new Set(
    alternatives.branches.flatMap((b) => b.alternatives.map((a) => a.threadId)),
  );
  listed.add(alternatives.activePath).add(alternatives.conversationId);
  // `versions` is new in 0115: a store answering without it lists none.
  return (alternatives.versions ?? []).filter((v) => !listed.has(v.threadId));
}

function offPathRow(conversationId: string, v: ConversationVersion): SafeHtml {
  const from = v.forkOf;
  const turn =
    v.turnId === undefined
      ? html`<span class="muted">no turn yet</span>`
      : html`turn <a href="${turnHref(v.threadId, v.turnId)}">${idCode(v.turnId)}</a>`;
  return html`<tr class="off-path"><td><a href="${pathHref(conversationId, v.threadId)}">${idCode(v.threadId)}</a></td><td>${from ? threadLink(from.threadId) : '—'}</td><td class="num">${from?.atSeq ?? '—'}</td><td>${turn}</td><td class="num">${v.total}</td></tr>`;
}

/**
 * The branch points of the conversation (its active path's turns that have more than one
 * version): at which seq, each version as a link to its path with the turn it starts with, the
 * active one marked; then the versions the active path does not reach (made on a version a
 * switch left, or beyond where the active path was cut), each with where it branches. Nothing
 * when there are none.
 *
 * @param paths - the thread and its conversation's branch points and versions
 * @returns headings and tables, or nothing
 */
export function branchTable(paths: ThreadPaths): SafeHtml {
  const alternatives = paths.alternatives;
  if (alternatives === undefined) return html``;
  const { conversationId, branches } = alternatives;
  const of = conversationId === paths.thread.id ? '' : html` of ${threadLink(conversationId)}`;
  const points =
    branches.length === 0
      ? ''
      : html`<h2>Branch points${of}</h2>
<p class="note">Each version opens its path; the active path runs through the marked ones.</p>
<table class="branches"><thead><tr><th>at seq</th><th>versions, oldest first</th></tr></thead>
<tbody>${branches.map((branch) => branchRow(conversationId, branch))}</tbody></table>`;
  const off = offPathVersions(alternatives);
  const others =
    off.length === 0
      ? ''
      : html`<h2>Versions off the active path${of}</h2>
<p class="note">No branch point of the active path leads to these; each opens its path.</p>
<table class="versions"><thead><tr><th>version</th><th>branching from</th><th>at seq</th><th>starts with</th><th>rows</th></tr></thead>
<tbody>${off.map((v) => offPathRow(conversationId, v))}</tbody></table>`;
  return html`${points}${others}`;
}

function forkRow(fork: Thread, now: Date): SafeHtml {
  const from = fork.forkOf;
  return html`<tr class="fork"><td>${threadLink(fork.id)}</td><td>${from ? threadLink(from.threadId) : '—'}</td><td class="num">${from?.atSeq ?? '—'}</td><td class="num">${fork.total}</td><td>${timeHtml(fork.updatedAt, now)}</td></tr>`;
}

/**
 * The forks made of the thread (and of the path shown): each as a link, with the thread it was
 * forked from, at which seq, its rows and last activity. Nothing when there are none.
 *
 * @param paths - the thread and its forks
 * @param now - the time relative times are shown against
 * @returns a heading and a table, or nothing
 */
export function forkTable(paths: ThreadPaths, now: Date): SafeHtml {
  const forks = paths.forks;
  if (forks === undefined || forks.threads.length === 0) return html``;
  const more = forks.hasMore
    ? html`<p class="note">Only the ${forks.threads.length} most recently active are listed.</p>`
    : '';
  return html`<h2>Forks</h2>
<table class="forks"><thead><tr><th>fork</th><th>forked from</th><th>at seq</th><th>rows</th><th>last active</th></tr></thead>
<tbody>${forks.threads.map((fork) => forkRow(fork, now))}</tbody></table>${more}`;
}
