// One turn: the user's message and the answer by step, every chunk kind rendered, the turn's
// facts (status, usage, duration, model), links to the turns before and after it and to the
// model input of each step. A running turn's page reloads itself (no script).
import type { ChunkRow } from '../../schema/chunk-row.js';
import type { TurnInfo } from '../../store/turn-types.js';
import type { Thread } from '../../store/types.js';
import type { TurnUsage } from '../../store/usage-types.js';
import { groupRowsToMessages } from '../../transforms/group-rows.js';
import { stepUsage, turnStatus, turnTimes, usageText } from '../facts.js';
import { dash, formatCost, idCode, shortId, timeHtml } from '../format.js';
import { html, type SafeHtml } from '../html.js';
import { inputHref, rowsHref, threadHref, turnHref } from '../links.js';
import { renderChunk } from '../render-chunk.js';
import { modelsText, statusBadge, turnDuration } from './parts.js';

/** What the turn page shows. */
export interface TurnView {
  readonly thread: Thread;
  readonly turnId: string;
  readonly rows: readonly ChunkRow[];
  readonly usage: TurnUsage | undefined;
  readonly info: TurnInfo | undefined;
  readonly previous: string | undefined;
  readonly next: string | undefined;
  /** Seconds between reloads while the turn runs. */
  readonly refreshSeconds: number;
  readonly now: Date;
}

function neighbours(view: TurnView): SafeHtml {
  const { thread, previous, next } = view;
  const prev = previous
    ? html`<a rel="prev" href="${turnHref(thread.id, previous)}">← previous turn ${idCode(previous)}</a>`
    : html`<span class="muted">first turn</span>`;
  const after = next
    ? html`<a rel="next" href="${turnHref(thread.id, next)}">next turn ${idCode(next)} →</a>`
    : html`<span class="muted">last turn</span>`;
  return html`<nav class="turn-nav">${prev} ${after}</nav>`;
}

function body(view: TurnView): SafeHtml[] {
  return groupRowsToMessages(view.rows).map((message) => {
    let step = -1;
    const chunks = message.chunks.map((chunk) => {
      const recorded = stepUsage(view.usage, chunk.step);
      const header =
        message.role === 'assistant' && chunk.step !== step
          ? html`<div class="step">step ${chunk.step}${recorded ? ` · ${recorded}` : ''}</div>`
          : '';
      step = chunk.step;
      return html`${header}${renderChunk(chunk)}`;
    });
    return html`<article class="message ${message.role}"><div class="role">${message.role}</div>${chunks}</article>`;
  });
}

/**
 * The turn page.
 *
 * @param view - the turn's rows, facts and neighbours
 * @returns the page's body
 */
export function turnPage(view: TurnView): SafeHtml {
  const { thread, turnId, rows, usage, info, now } = view;
  const times = turnTimes(rows);
  const steps = new Set(rows.map((row) => row.step)).size;
  const status = turnStatus(rows, info);
  const running = info?.status === 'running';
  const live = running
    ? html` <span class="live">running — this page reloads every ${view.refreshSeconds} s</span>`
    : '';
  const first = rows[0]?.seq;
  const last = rows.at(-1)?.seq;
  const cost = formatCost(usage?.cost);
  return html`<p class="crumbs"><a href="${threadHref(thread.id)}">← thread ${thread.id}</a></p>
${neighbours(view)}
<h1>Turn ${shortId(turnId)}</h1>
<dl class="facts"><dt>turn id</dt><dd><code>${turnId}</code></dd>
<dt>status</dt><dd>${statusBadge(status)}${live}</dd>
<dt>rows</dt><dd>${rows.length} (<a href="${rowsHref(thread.id, first === undefined ? {} : { before: (last ?? first) + 1 })}">seqs ${first}–${last}</a>)</dd>
<dt>steps</dt><dd>${steps} · <a href="${inputHref(thread.id, turnId)}">model input, step by step →</a></dd>
<dt>started</dt><dd>${timeHtml(info?.startedAt ?? times.first, now)}</dd>
<dt>stored</dt><dd>${timeHtml(times.first, now)}${times.last && times.last !== times.first ? html` – ${timeHtml(times.last, now)}` : ''}</dd>
<dt>duration</dt><dd>${dash(turnDuration(usage, info, now))}</dd>
<dt>usage</dt><dd>${dash(usage === undefined ? undefined : usageText(usage.total))}${cost ? ` · ${cost}` : ''}</dd>
<dt>model</dt><dd>${dash(modelsText(usage))}</dd></dl>
${body(view)}
${neighbours(view)}`;
}
