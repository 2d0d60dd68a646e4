// The filters of the rows and search pages: role, row type, errors only, turn status. Read from
// the query string and checked: an unknown value is a 400 naming it, not an empty page.
import { ChunklogError } from '../errors/chunklog-error.js';
import {
  CHUNK_ROW_TYPES,
  type ChunkRole,
  type ChunkRow,
  type ChunkRowType,
} from '../schema/chunk-row.js';
import { TURN_STATUSES, type TurnStatus } from '../schema/turn-status.js';

/** Which rows a page shows. An empty filter shows every row. */
export interface RowFilter {
  readonly role?: ChunkRole | undefined;
  readonly type?: ChunkRowType | undefined;
  /** Only `error` rows and tool results that are errors. */
  readonly errors?: boolean | undefined;
  /** Only rows of turns with this status. */
  readonly status?: TurnStatus | undefined;
}

export const ROLES: readonly ChunkRole[] = ['user', 'assistant', 'tool', 'system'];

function pick<T extends string>(
  params: URLSearchParams,
  name: string,
  allowed: readonly T[],
): T | undefined {
  const value = params.get(name);
  if (value === null || value === '') return undefined;
  if (!(allowed as readonly string[]).includes(value)) {
    throw new ChunklogError(
      'invalid-option',
      `${name} must be one of ${allowed.join(', ')} (got ${JSON.stringify(value.slice(0, 40))})`,
      { option: name, value },
    );
  }
  return value as T;
}

/**
 * The filter a query string asks for (`role`, `type`, `errors=1`, `status`).
 *
 * @throws {ChunklogError} `invalid-option` naming a value that is not allowed
 */
export function readFilter(params: URLSearchParams): RowFilter {
  const errors = pick(params, 'errors', ['1', '0']);
  return {
    role: pick(params, 'role', ROLES),
    type: pick(params, 'type', CHUNK_ROW_TYPES),
    errors: errors === '1' ? true : undefined,
    status: pick(params, 'status', TURN_STATUSES),
  };
}

/** Whether the filter lets every row through. */
export function isEmptyFilter(filter: RowFilter): boolean {
  return !filter.role && !filter.type && !filter.errors && !filter.status;
}

/** Whether a row is an error: an `error` row, or a tool result marked as one. */
export function isErrorRow(row: ChunkRow): boolean {
  return row.type === 'error' || (row.type === 'tool_result' && row.data.isError === true);
}

/**
 * Whether `row` passes `filter`; `statusOf` gives its turn's status (from a page's
 * `turnStatus`: a turn not in it is `completed`).
 */
export function matchesFilter(
  row: ChunkRow,
  filter: RowFilter,
  statusOf: (turnId: string) => TurnStatus,
): boolean {
  if (filter.role !== undefined && row.role !== filter.role) return false;
  if (filter.type !== undefined && row.type !== filter.type) return false;
  if (filter.errors && !isErrorRow(row)) return false;
  if (filter.status !== undefined && statusOf(row.turnId) !== filter.status) return false;
  return true;
}

/** The filter as query values, for links that keep it. */
export function filterQuery(filter: RowFilter): Record<string, string | undefined> {
  return {
    role: filter.role,
    type: filter.type,
    errors: filter.errors ? '1' : undefined,
    status: filter.status,
  };
}

/** The filter in words: `role assistant · type text · errors`. */
export function describeFilter(filter: RowFilter): string {
  const parts: string[] = [];
  if (filter.role) parts.push(`role ${filter.role}`);
  if (filter.type) parts.push(`type ${filter.type}`);
  if (filter.errors) parts.push('errors only');
  if (filter.status) parts.push(`turn ${filter.status}`);
  return parts.join(' · ');
}
