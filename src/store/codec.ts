import { ChunklogError } from '../errors/chunklog-error.js';
import {
  type ChunkRole,
  type ChunkRow,
  type ChunkRowDraft,
  type ChunkRowType,
  RowDataSchemas,
} from '../schema/chunk-row.js';
import { previewValue } from '../schema/parse.js';
import { rowDataIsExact } from '../schema/row-data-check.js';
import { ENVELOPE_PREFIX } from './encryption/cipher.js';
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

/**
 * The key of a value stored as its JSON text: `{"chunklog:json": "<the value's JSON text>"}`.
 * A native JSON column refuses some strings (PostgreSQL's `jsonb` `\u0000` and lone surrogates,
 * MySQL's `JSON` lone surrogates); a value holding one is stored so, and read back exact.
 */
const AS_TEXT = 'chunklog:json';

/**
 * The JSON text a JSON column stores of a value: its own, or, where the column would refuse it
 * (or where the value itself is an object with the key {@link AS_TEXT}), the object holding it
 * as text. {@link asJson} reads either back.
 *
 * @param value - a JSON value (checked already)
 * @param refused - the escapes the column refuses (`StoreContext.jsonRefuses`), if any
 */
export function storedJson(value: unknown, refused: RegExp | undefined): string {
  const json = JSON.stringify(value);
  const holdsKey = typeof value === 'object' && value !== null && Object.hasOwn(value, AS_TEXT);
  if (!holdsKey && (refused === undefined || !json.includes('\\u') || !refused.test(json))) {
    return json;
  }
  return `{${JSON.stringify(AS_TEXT)}:${JSON.stringify(json)}}`;
}

/** A JSON column, whatever the driver gave (parsed already, or text), as {@link storedJson} wrote it. */
export function asJson(value: unknown): unknown {
  const parsed: unknown = typeof value === 'string' ? JSON.parse(value) : value;
  if (typeof parsed === 'object' && parsed !== null) {
    const text = (parsed as Record<string, unknown>)[AS_TEXT];
    if (typeof text === 'string') return JSON.parse(text);
  }
  return parsed;
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

/**
 * The columns a row is read with. `thread_id` is the thread the row is stored under (which an
 * encrypted row's data is bound to), not always the thread read.
 */
export const ROW_COLUMNS = [
  'thread_id',
  'seq',
  'turn_id',
  'step',
  'role',
  'type',
  'data',
  'created_at',
  'version',
] as const;

/** A row selected with {@link ROW_COLUMNS}, as the driver gave it. */
export type StoredRecord = SelectedRow;

/** A row as selected with {@link ROW_COLUMNS}. */
export interface SelectedRow {
  readonly thread_id: unknown;
  readonly seq: unknown;
  readonly turn_id: unknown;
  readonly step: unknown;
  readonly role: unknown;
  readonly type: unknown;
  readonly data: unknown;
  readonly created_at: unknown;
  readonly version: unknown;
}

/**
 * The row types and roles by name, to the one string the reader keeps of each: a row holds the
 * constant, not the copy the driver made (a read of a long thread would otherwise keep tens of
 * thousands of short strings alive until the rows are dropped).
 */
const TYPES: ReadonlyMap<string, ChunkRowType> = new Map(
  (Object.keys(RowDataSchemas) as ChunkRowType[]).map((type) => [type, type]),
);
const ROLES: ReadonlyMap<string, ChunkRole> = new Map(
  (['user', 'assistant', 'tool', 'system'] as const).map((role) => [role, role]),
);

/**
 * Stands in for the data of an encrypted row that could not be decrypted (its key is gone, or
 * its tag does not verify): the decoder makes it a `corrupt-row` naming the row.
 */
export class UnreadableData {
  /** @param problem - why, as the end of the corrupt-row message */
  constructor(readonly problem: string) {}
}

/**
 * The words of every error of an encrypted value read by a store without `encryption`: the
 * command line finds them to say which flag gives the key.
 */
export const OPENED_WITHOUT_ENCRYPTION = 'the store was opened without `encryption`';

/** The problem of an encrypted row read by a store without encryption. */
const ENCRYPTED = `its data is encrypted, and ${OPENED_WITHOUT_ENCRYPTION}`;

/** Why a row is corrupt (made only for corrupt rows: a valid row is decoded without one). */
class Problem {
  constructor(
    readonly problem: string,
    readonly cause?: unknown,
  ) {}
}

/** The decoded row, or why it is corrupt. */
function decodeRecord(
  threadId: string,
  seq: number,
  record: SelectedRow,
  turnId: string,
): ChunkRow | Problem {
  if (Number(record.version) !== ROW_FORMAT_VERSION) {
    return new Problem(
      `it has format version ${String(record.version)}, this chunklog reads ${ROW_FORMAT_VERSION}`,
    );
  }
  const type = TYPES.get(asString(record.type));
  if (type === undefined)
    return new Problem(`unknown type ${JSON.stringify(asString(record.type))}`);
  const role = ROLES.get(asString(record.role));
  if (role === undefined)
    return new Problem(`unknown role ${JSON.stringify(asString(record.role))}`);
  const step = Number(record.step);
  if (!Number.isInteger(step) || step < 0) {
    return new Problem(`its step ${String(record.step)} is not a step`);
  }
  if (record.data instanceof UnreadableData) return new Problem(record.data.problem);
  let raw: unknown;
  try {
    raw = asJson(record.data);
  } catch (error) {
    if (typeof record.data === 'string' && record.data.startsWith(ENVELOPE_PREFIX)) {
      return new Problem(ENCRYPTED);
    }
    return new Problem('its data is not JSON', error);
  }
  // The common rows are checked by hand; zod decides the rest and words the problem.
  let data: unknown = raw;
  if (!rowDataIsExact(type as ChunkRowType, raw)) {
    const parsed = RowDataSchemas[type as ChunkRowType].safeParse(raw);
    if (typeof raw === 'string' && raw.startsWith(ENVELOPE_PREFIX)) {
      return new Problem(ENCRYPTED);
    }
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return new Problem(
        `its ${type} data does not parse (${issue?.path.join('.') || '(root)'}: ${issue?.message ?? 'invalid'})`,
        parsed.error,
      );
    }
    data = parsed.data;
  }
  return {
    threadId,
    seq,
    turnId,
    step,
    role,
    type,
    data,
    createdAt: '',
  } as ChunkRow;
}

/** A corrupt row: undefined under the `skip` policy, else the `corrupt-row` error. */
function corrupt(
  threadId: string,
  seq: number,
  decoded: Problem,
  policy: CorruptRowPolicy,
): undefined {
  if (policy === 'skip') return undefined;
  throw new ChunklogError(
    'corrupt-row',
    `Row ${seq} of thread ${JSON.stringify(threadId)} is corrupt: ${decoded.problem}.`,
    { threadId, seq, cause: decoded.cause },
  );
}

/**
 * Decodes a thread's rows in order, page after page, dropping the corrupt ones under the `skip`
 * policy. What consecutive rows share is kept once: the rows of a turn hold one turn id string
 * and one formatted timestamp (`toISOString` is not cheap), so that a long read keeps no copy per
 * row alive.
 */
export class RowDecoder {
  readonly #threadId: string;
  readonly #policy: CorruptRowPolicy;
  #lastMillis: unknown;
  #lastIso = '';
  #lastTurnId = '';

  /**
   * @param threadId - the thread the rows are of
   * @param policy - what a corrupt row does: `throw` (`corrupt-row`) or `skip`
   */
  constructor(threadId: string, policy: CorruptRowPolicy) {
    this.#threadId = threadId;
    this.#policy = policy;
  }

  /**
   * Decodes `records` onto the end of `into`.
   *
   * @throws {ChunklogError} `corrupt-row` naming the thread and seq, when the policy is `throw`
   */
  decode(records: readonly StoredRecord[], into: ChunkRow[]): void {
    const threadId = this.#threadId;
    for (const record of records) {
      const seq = Number(record.seq);
      const turnId = asString(record.turn_id);
      if (turnId !== this.#lastTurnId) this.#lastTurnId = turnId;
      const row = decodeRecord(threadId, seq, record, this.#lastTurnId);
      if (row instanceof Problem) {
        corrupt(threadId, seq, row, this.#policy);
        continue;
      }
      const createdAt = record.created_at;
      if (createdAt !== this.#lastMillis) {
        const iso = storedIso(createdAt);
        if (iso === undefined) {
          const problem = `its created_at ${previewValue(createdAt)} is not a time`;
          corrupt(threadId, seq, new Problem(problem), this.#policy);
          continue;
        }
        this.#lastMillis = createdAt;
        this.#lastIso = iso;
      }
      (row as { createdAt: string }).createdAt = this.#lastIso;
      into.push(row);
    }
  }
}

/** Decodes rows in order, dropping the corrupt ones under the `skip` policy. */
export function decodeRows(
  threadId: string,
  records: readonly StoredRecord[],
  policy: CorruptRowPolicy,
): ChunkRow[] {
  const rows: ChunkRow[] = [];
  new RowDecoder(threadId, policy).decode(records, rows);
  return rows;
}

/**
 * The rows a write returns: its drafts at seqs from `first`, stored at `at` (ms), each with its
 * data parsed back from what was stored (`data`, the serialized data), so that what a write
 * returns is what a read returns, and shares no object with the caller's drafts.
 */
export function storedRows(
  threadId: string,
  turnId: string,
  first: number,
  drafts: readonly ChunkRowDraft[],
  data: readonly string[],
  at: number,
): ChunkRow[] {
  const createdAt = isoOf(at);
  return drafts.map(
    (d, i) =>
      ({
        threadId,
        seq: first + i,
        turnId,
        step: d.step,
        role: d.role,
        type: d.type,
        data: asJson(data[i]),
        createdAt,
      }) as ChunkRow,
  );
}
