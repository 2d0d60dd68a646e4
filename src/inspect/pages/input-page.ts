// The model input of one step of a turn, rebuilt from the store, each message and part shown with
// the Anthropic cache breakpoints it carries; messages the step added to the one before are marked.
import type { ModelMessage } from 'ai';
import type { Thread } from '../../store/types.js';
import type { TurnUsage } from '../../store/usage-types.js';
import { formatCount, shortId } from '../format.js';
import { html, pretty, type SafeHtml } from '../html.js';
import { inputHref, turnHref } from '../links.js';
import { cacheMarker } from '../model-input.js';

/** What the model input page shows. */
export interface InputView {
  readonly thread: Thread;
  readonly turnId: string;
  readonly steps: readonly number[];
  readonly step: number;
  readonly messages: readonly ModelMessage[];
  /** How many messages the step before sent (they are this step's prefix). */
  readonly previousLength: number;
  readonly historyRows: number;
  readonly tokens: number;
  readonly breakpoints: number;
  readonly usage: TurnUsage | undefined;
  /** Show only the newest this many messages unless `all`. */
  readonly window: number;
  readonly all: boolean;
}

function marker(target: unknown): SafeHtml {
  const control = cacheMarker(target) as { type?: string; ttl?: string } | undefined;
  if (control === undefined) return html``;
  return html` <span class="breakpoint" title="providerOptions.anthropic.cacheControl">cache breakpoint · ${control.type ?? ''}${control.ttl ? ` ${control.ttl}` : ''}</span>`;
}

type Part = { readonly type: string; readonly [key: string]: unknown };

function partHtml(part: Part): SafeHtml {
  const mark = marker(part);
  switch (part.type) {
    case 'text':
      return html`<div class="part text"><span class="ptype">text</span>${mark}<pre>${String(part.text)}</pre></div>`;
    case 'reasoning': {
      const meta = part.providerOptions
        ? html`<pre class="meta">${pretty(part.providerOptions)}</pre>`
        : '';
      return html`<details class="part reasoning"><summary><span class="ptype">reasoning</span>${mark} ${String(part.text).length} characters${part.providerOptions ? ' · with provider options' : ''}</summary><pre>${String(part.text)}</pre>${meta}</details>`;
    }
    case 'tool-call':
      return html`<div class="part tool-call"><span class="ptype">tool-call</span> <b>${String(part.toolName)}</b> <code title="${String(part.toolCallId)}">${shortId(String(part.toolCallId))}</code>${mark}<pre>${pretty(part.input)}</pre></div>`;
    case 'tool-result': {
      const output = part.output as { type?: string; value?: unknown } | undefined;
      return html`<div class="part tool-result"><span class="ptype">tool-result</span> <b>${String(part.toolName)}</b> <code title="${String(part.toolCallId)}">${shortId(String(part.toolCallId))}</code> <span class="badge">${output?.type ?? ''}</span>${mark}<pre>${pretty(output?.value)}</pre></div>`;
    }
    case 'file':
    case 'image': {
      const data = part.data ?? part.image;
      const size = typeof data === 'string' ? `${formatCount(data.length)} characters` : '';
      return html`<div class="part file"><span class="ptype">${part.type}</span> ${String(part.mediaType ?? '')} ${String(part.filename ?? '')} ${size}${mark}</div>`;
    }
    default: {
      const { type, ...rest } = part;
      return html`<div class="part other"><span class="ptype">${type}</span>${mark}<pre>${pretty(rest)}</pre></div>`;
    }
  }
}

function messageHtml(message: ModelMessage, index: number, fresh: boolean): SafeHtml {
  const content =
    typeof message.content === 'string'
      ? html`<pre>${message.content}</pre>`
      : (message.content as readonly Part[]).map(partHtml);
  return html`<article class="model-message role-${message.role}${fresh ? ' fresh' : ''}" id="m${index}">
<div class="mhead"><span class="index">#${index}</span> <span class="role">${message.role}</span>${fresh ? html` <span class="badge new">new in this step</span>` : ''}${marker(message)}</div>
${content}</article>`;
}

/**
 * The model input page.
 *
 * @param view - the step's input and how to show it
 * @returns the page's body
 */
export function inputPage(view: InputView): SafeHtml {
  const { thread, turnId, step, messages, usage } = view;
  const tabs = view.steps.map((s) =>
    s === step
      ? html`<b class="tab">step ${s}</b>`
      : html`<a class="tab" href="${inputHref(thread.id, turnId, { step: s })}">step ${s}</a>`,
  );
  const recorded = usage?.steps.find((s) => s.step === step);
  const from = view.all ? 0 : Math.max(0, messages.length - view.window);
  const shown = messages
    .slice(from)
    .map((m, i) => messageHtml(m, from + i, from + i >= view.previousLength));
  const hidden =
    from > 0
      ? html`<p class="hidden-count">${from} earlier message(s) not shown (the cached prefix of the thread) — <a href="${inputHref(thread.id, turnId, { step, all: 1 })}">show all ${messages.length}</a></p>`
      : '';
  return html`<p class="crumbs"><a href="${turnHref(thread.id, turnId)}">← turn ${shortId(turnId)}</a></p>
<h1>Model input of turn ${shortId(turnId)}, step ${step}</h1>
<nav class="tabs">${tabs}</nav>
<dl class="facts"><dt>messages</dt><dd>${messages.length} (${view.historyRows} rows of history before the turn; ${Math.max(0, messages.length - view.previousLength)} new in this step)</dd>
<dt>size</dt><dd>about ${formatCount(view.tokens)} tokens (estimate)${recorded?.usage.inputTokens !== undefined ? ` · ${formatCount(recorded.usage.inputTokens)} input tokens recorded for this step` : ''}${recorded?.usage.cacheReadTokens ? ` (${formatCount(recorded.usage.cacheReadTokens)} read from the cache)` : ''}</dd>
<dt>model</dt><dd>${recorded?.modelId ?? '—'}</dd>
<dt>cache breakpoints</dt><dd>${view.breakpoints} (Anthropic, as <code>applyAnthropicCaching</code> places them; the system prompt's is not counted)</dd></dl>
<p class="note">Rebuilt from the stored rows as a session rebuilds it (<code>groupRowsToMessages</code>, <code>toModelMessages</code>, <code>applyAnthropicCaching</code>). The system prompt and the tools are not stored, and are not shown.</p>
${hidden}
${shown}`;
}
