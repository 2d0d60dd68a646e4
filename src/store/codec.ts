import { ChunklogError } from '../errors/chunklog-error.js';
import {
  type ChunkRole,
  type ChunkRow,
  type ChunkRowType,
  RowDataSchemas,
} from '../schema/chunk-row.js';
import { previewValue } from '../schema/parse.js';
import { rowDataIsExact } from '../schema/row-data-check.js';
import type { CorruptRowPolicy } from './types.js';

/**
 * The version of the stored row format, kept in every row's `version` column; a reader treats
 * rows of another version as corrupt.
 *
 * @example
 * ```ts
 * ROW_FORMAT_VERSION; // 1
 * ```
 */
export const ROW_FORMAT_VERSION = 1;

const decoder = new TextDecoder();

/** A string column, whatever the driver gave (MySQL returns `VARBINARY` as bytes). */
export function asString(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value instanceof Uint8Array) return decoder.decode(value);
  return String(value);
}

/** A JSON column, whatever the driver gave (parsed already, or text). */
export function asJson(value: unknown): unknown {
  return typeof value === 'string' ? JSON.parse(value) : value;
}

/** A millisecond timestamp as ISO 8601. */
export function isoOf(millis: unknown): string {
  return new Date(Number(millis)).toISOString();
}

/**
 * A stored millisecond timestamp as ISO 8601, or undefined when it is not one (null, text that
 * is not a number, a number outside the range of a `Date`): such a row is corrupt.
 */
export function storedIso(millis: unknown): string | undefined {
  if (millis === null || millis === undefined || typeof millis === 'boolean') return undefined;
  const date = new Date(Number(millis));
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

/** The columns a row is read with. */
export const ROW_COLUMNS = [
  'seq',
  'turn_id',
  'step',
  'role',
  'type',
  'data',
  'created_at',
  'version',
] as const;

/**
 * A row selected with {@link ROW_COLUMNS}: an object, or an array in that column order (see
 * `ARRAY_ROWS_MARK`), which better-sqlite3 builds much faster.
 */
export type StoredRecord = SelectedRow | readonly unknown[];

/** A row as an object, whichever way the driver gave it. */
function recordOf(record: StoredRecord): SelectedRow {
  if (!Array.isArray(record)) return record as SelectedRow;
  return {
    seq: record[0],
    turn_id: record[1],
    step: record[2],
    role: record[3],
    type: record[4],
    data: record[5],
    created_at: record[6],
    version: record[7],
  };
}

/** A row as selected with {@link ROW_COLUMNS}. */
export interface SelectedRow {
  readonly seq: unknown;
  readonly turn_id: unknown;
  readonly step: unknown;
  readonly role: unknown;
  readonly type: unknown;
  readonly data: unknown;
  readonly created_at: unknown;
  readonly version: unknown;
}

const hasOwn = Object.prototype.hasOwnProperty;
const ROLES: ReadonlySet<string> = new Set<ChunkRole>(['user', 'assistant', 'tool', 'system']);

/** Why a row is corrupt, or undefined with the decoded row. */
interface Decoded {
  row?: ChunkRow;
  problem?: string;
  cause?: unknown;
}

function decodeRecord(threadId: string, seq: number, record: SelectedRow): Decoded {
  if (Number(record.version) !== ROW_FORMAT_VERSION) {
    return {
      problem: `it has format version ${String(record.version)}, this chunklog reads ${ROW_FORMAT_VERSION}`,
    };
  }
  const type = asString(record.type);
  if (!hasOwn.call(RowDataSchemas, type))
    return { problem: `unknown type ${JSON.stringify(type)}` };
  const role = asString(record.role);
  if (!ROLES.has(role)) return { problem: `unknown role ${JSON.stringify(role)}` };
  const step = Number(record.step);
  if (!Number.isInteger(step) || step < 0) {
    return { problem: `its step ${String(record.step)} is not a step` };
  }
  let raw: unknown;
  try {
    raw = asJson(record.data);
  } catch (error) {
    return { problem: 'its data is not JSON', cause: error };
  }
  // The common rows are checked by hand; zod decides the rest and words the problem.
  if (rowDataIsExact(type as ChunkRowType, raw)) {
    return {
      row: {
        threadId,
        seq,
        turnId: asString(record.turn_id),
        step,
        role,
        type,
        data: raw,
        createdAt: '',
      } as ChunkRow,
    };
  }
  const data = RowDataSchemas[type as ChunkRowType].safeParse(raw);
  if (!data.success) {
    const issue = data.error.issues[0];
    return {
      problem: `its ${type} data does not parse (${issue?.path.join('.') || '(root)'}: ${issue?.message ?? 'invalid'})`,
      cause: data.error,
    };
  }
  return {
    row: {
      threadId,
      seq,
      turnId: asString(record.turn_id),
      step,
      role,
      type,
      data: data.data,
      createdAt: '',
    } as ChunkRow,
  };
}

/**
 * Turns a selected row into a validated {@link ChunkRow} (its `createdAt` is filled in by
 * {@link decodeRows}).
 *
 * @returns the row, or undefined when it is corrupt and the policy is `skip`
 * @throws {ChunklogError} `corrupt-row` naming the thread and seq, when the policy is `throw`
 */
function decodeRow(
  threadId: string,
  record: SelectedRow,
  policy: CorruptRowPolicy,
): ChunkRow | undefined {
  const seq = Number(record.seq);
  const decoded = decodeRecord(threadId, seq, record);
  if (decoded.row !== undefined) return decoded.row;
  return corrupt(threadId, seq, decoded, policy);
}

/** A corrupt row: undefined under the `skip` policy, else the `corrupt-row` error. */
function corrupt(
  threadId: string,
  seq: number,
  decoded: Decoded,
  policy: CorruptRowPolicy,
): undefined {
  if (policy === 'skip') return undefined;
  throw new ChunklogError(
    'corrupt-row',
    `Row ${seq} of thread ${JSON.stringify(threadId)} is corrupt: ${decoded.problem}.`,
    { threadId, seq, cause: decoded.cause },
  );
}

/** Decodes rows in order, dropping the corrupt ones under the `skip` policy. */
export function decodeRows(
  threadId: string,
  records: readonly StoredRecord[],
  policy: CorruptRowPolicy,
): ChunkRow[] {
  const rows: ChunkRow[] = [];
  // The rows of a turn share their timestamp: format it once (toISOString is not cheap).
  let lastMillis: unknown;
  let lastIso = '';
  for (const stored of records) {
    const record = recordOf(stored);
    const row = decodeRow(threadId, record, policy);
    if (row === undefined) continue;
    if (record.created_at !== lastMillis) {
      const iso = storedIso(record.created_at);
      if (iso === undefined) {
        const problem = `its created_at ${previewValue(record.created_at)} is not a time`;
        corrupt(threadId, row.seq, { problem }, policy);
        continue;
      }
      lastMillis = record.created_at;
      lastIso = iso;
    }
    (row as { createdAt: string }).createdAt = lastIso;
    rows.push(row);
  }
  return rows;
}
