// Small pieces several pages share: status badges, usage and duration cells, the filter form.
import { CHUNK_ROW_TYPES } from '../../schema/chunk-row.js';
import { TURN_STATUSES } from '../../schema/turn-status.js';
import type { TurnInfo } from '../../store/turn-types.js';
import type { TurnUsage } from '../../store/usage-types.js';
import { ROLES, type RowFilter } from '../filters.js';
import { formatCount, formatDuration } from '../format.js';
import { html, type SafeHtml } from '../html.js';

/** A turn status as a coloured badge; "—" when unknown. */
export function statusBadge(status: string | undefined): SafeHtml {
  if (status === undefined) return html`—`;
  return html`<span class="status status-${status}">${status}</span>`;
}

/** `1,200 in · 40 out`, from a usage's total; undefined without usage. */
export function tokensText(usage: TurnUsage | undefined): string | undefined {
  const total = usage?.total;
  if (total === undefined) return undefined;
  const parts: string[] = [];
  if (total.inputTokens !== undefined) parts.push(`${formatCount(total.inputTokens)} in`);
  if (total.outputTokens !== undefined) parts.push(`${formatCount(total.outputTokens)} out`);
  return parts.length > 0 ? parts.join(' · ') : undefined;
}

/** The models that answered a turn's steps, as recorded. */
export function modelsText(usage: TurnUsage | undefined): string | undefined {
  const models = [...new Set(usage?.steps.map((s) => s.modelId).filter((m) => m !== undefined))];
  return models.length > 0 ? models.join(', ') : undefined;
}

/**
 * How long a turn took: the steps' recorded durations summed; else from its status row (begun
 * to last written, or until now while it runs).
 */
export function turnDuration(
  usage: TurnUsage | undefined,
  info: TurnInfo | undefined,
  now: Date,
): string | undefined {
  const recorded = usage?.steps.filter((s) => s.durationMs !== undefined) ?? [];
  if (recorded.length > 0 && info?.status !== 'running') {
    return formatDuration(recorded.reduce((sum, s) => sum + (s.durationMs ?? 0), 0));
  }
  if (info === undefined) return undefined;
  const start = Date.parse(info.startedAt);
  const end = info.status === 'running' ? now.getTime() : Date.parse(info.updatedAt);
  if (!(end > start)) return undefined;
  return `${formatDuration(end - start)}${info.status === 'running' ? ' so far' : ''}`;
}

function select(name: string, values: readonly string[], current: string | undefined): SafeHtml {
  const options = values.map(
    (value) =>
      html`<option value="${value}"${value === current ? html` selected` : ''}>${value}</option>`,
  );
  return html`<label>${name} <select name="${name}"><option value="">any</option>${options}</select></label>`;
}

/** The form of a row filter (role, type, errors, turn status), kept hidden fields included. */
export function filterForm(
  action: string,
  filter: RowFilter,
  hidden: Readonly<Record<string, string | undefined>> = {},
): SafeHtml {
  const fields = Object.entries(hidden)
    .filter((entry): entry is [string, string] => entry[1] !== undefined && entry[1] !== '')
    .map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`);
  return html`<form class="filters" action="${action}" method="get">${fields}
${select('role', ROLES, filter.role)} ${select('type', CHUNK_ROW_TYPES, filter.type)}
${select('status', TURN_STATUSES, filter.status)}
<label><input type="checkbox" name="errors" value="1"${filter.errors ? html` checked` : ''}> errors only</label>
<button type="submit">Filter</button></form>`;
}
