// How the inspector writes ids, times, durations, counts and costs.
import { html, type SafeHtml } from './html.js';

const count = new Intl.NumberFormat('en-US');

/** A count with thousands separators: `12,400`. */
export function formatCount(value: number): string {
  return count.format(value);
}

/** An id as it is shown in lists: whole up to 14 characters, else its first 8 and `…`. */
export function shortId(id: string): string {
  return id.length <= 14 ? id : `${id.slice(0, 8)}…`;
}

/** An id shortened for a list, the whole id in its title (a tooltip) for copying. */
export function idCode(id: string): SafeHtml {
  const short = shortId(id);
  return short === id
    ? html`<code class="id">${id}</code>`
    : html`<code class="id" title="${id}">${short}</code>`;
}

/** A value, or a dash where there is none. */
export function dash(value: string | undefined): string {
  return value ?? '—';
}

const pad = (n: number) => String(n).padStart(2, '0');

/** The machine's time zone, as the pages say once. */
export function timeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone ?? 'local time';
}

/** `2026-12-01 14:03:22` in the machine's time zone. */
export function localTime(date: Date): string {
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}

/** How long ago, in words (`42 s ago`, `5 min ago`, `3 h ago`, `12 days ago`); '' past 60 days. */
export function ago(ms: number): string {
  if (ms < 0) return 'in the future';
  const s = Math.floor(ms / 1000);
  if (s < 60) return `${s} s ago`;
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  if (s < 48 * 3600) return `${Math.floor(s / 3600)} h ago`;
  if (s < 60 * 86_400) return `${Math.floor(s / 86_400)} days ago`;
  return '';
}

/**
 * A stored time (ISO 8601) as a `<time>` element: local date and time and how long ago, the
 * exact value in its `datetime` and title. "—" when absent.
 */
export function timeHtml(iso: string | undefined, now: Date): SafeHtml {
  if (iso === undefined) return html`—`;
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return html`${iso}`;
  const since = ago(now.getTime() - date.getTime());
  return html`<time datetime="${iso}" title="${iso}">${localTime(date)}${since ? html` <span class="ago">${since}</span>` : ''}</time>`;
}

/** A duration: `850 ms`, `2.3 s`, `4 min 05 s`, `1 h 02 min`. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const s = Math.round(ms / 1000);
  if (s < 3600) return `${Math.floor(s / 60)} min ${pad(s % 60)} s`;
  return `${Math.floor(s / 3600)} h ${pad(Math.floor((s % 3600) / 60))} min`;
}

/** A cost in dollars: `$0.0042`, `$1.37`; undefined when not a finite number. */
export function formatCost(cost: number | undefined): string | undefined {
  if (cost === undefined || !Number.isFinite(cost)) return undefined;
  return `$${cost !== 0 && Math.abs(cost) < 0.1 ? cost.toFixed(4) : cost.toFixed(2)}`;
}

/** At most `max` characters of `text` on one line, with `…` when cut. */
export function preview(text: string, max = 80): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
