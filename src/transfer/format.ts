// The thread export format (`chunklog-thread`, version 1): JSON Lines, one object a line.
//
//   {"format":"chunklog-thread","version":1,"thread":{"id":"t1","createdAt":"…",…}}
//   {"kind":"turn","turnId":"turn-1","status":"completed","usage":[{"step":0,…}]}
//   {"kind":"row","seq":1,"turnId":"turn-1","step":0,"role":"user","type":"text","data":{…},"createdAt":"…"}
//   …
//   {"kind":"end","turns":2,"rows":13}
import type { ChunkRowDraft } from '../schema/chunk-row.js';
import type { JSONObject } from '../schema/json.js';
import type { TurnStatus } from '../schema/turn-status.js';
import type { StepUsage } from '../store/usage-types.js';

/**
 * The `format` of a thread export's header line.
 *
 * @example
 * ```ts
 * const isExport = JSON.parse(firstLine).format === THREAD_EXPORT_FORMAT;
 * ```
 */
export const THREAD_EXPORT_FORMAT = 'chunklog-thread' as const;

/**
 * The version of the thread export format that `exportThread` writes and `importThread` reads.
 * A file of another version is refused.
 *
 * @example
 * ```ts
 * const header = JSON.parse(firstLine);
 * if (header.version !== THREAD_EXPORT_VERSION) throw new Error('made by another chunklog');
 * ```
 */
export const THREAD_EXPORT_VERSION = 1 as const;

/**
 * The thread as its export describes it (what `getThread` returned when the export began).
 *
 * @example
 * ```ts
 * const thread: ExportedThread = { id: 'thread-1', createdAt: '2026-12-01T09:00:00.000Z', title: 'Trip' };
 * ```
 */
export interface ExportedThread {
  readonly id: string;
  /** When the thread was created (ISO 8601). An import cannot set it: the new thread's is now. */
  readonly createdAt: string;
  /** When the thread was last active (ISO 8601), for information. */
  readonly updatedAt?: string | undefined;
  /** How many rows the thread held when the export began, for information. */
  readonly total?: number | undefined;
  readonly title?: string | undefined;
  readonly ownerId?: string | undefined;
  readonly metadata?: JSONObject | undefined;
}

/**
 * The first line of a thread export.
 *
 * @example
 * ```ts
 * const header: ThreadExportHeader = {
 *   format: THREAD_EXPORT_FORMAT,
 *   version: THREAD_EXPORT_VERSION,
 *   thread: { id: 'thread-1', createdAt: '2026-12-01T09:00:00.000Z' },
 * };
 * ```
 */
export interface ThreadExportHeader {
  readonly format: typeof THREAD_EXPORT_FORMAT;
  readonly version: typeof THREAD_EXPORT_VERSION;
  readonly thread: ExportedThread;
}

/**
 * The line before a turn's rows: its id, status and recorded usage per step.
 *
 * @example
 * ```ts
 * const turn: ThreadExportTurn = { kind: 'turn', turnId: 'turn-1', status: 'completed' };
 * ```
 */
export interface ThreadExportTurn {
  readonly kind: 'turn';
  readonly turnId: string;
  /** The status the store held when the turn was exported. */
  readonly status: TurnStatus;
  /** The usage `recordUsage` stored for its steps, when any. */
  readonly usage?: readonly StepUsage[] | undefined;
}

/**
 * A stored row as a line: the row without its thread id (the header names the thread).
 *
 * @example
 * ```ts
 * const row: ThreadExportRow = {
 *   kind: 'row', seq: 1, turnId: 'turn-1', step: 0, role: 'user', type: 'text', data: { text: 'Hi' },
 * };
 * ```
 */
export type ThreadExportRow = ChunkRowDraft & {
  readonly kind: 'row';
  readonly seq: number;
  readonly createdAt?: string | undefined;
};

/**
 * The last line: how many turns and rows the export holds. An export without it was cut short.
 *
 * @example
 * ```ts
 * const end: ThreadExportEnd = { kind: 'end', turns: 2, rows: 13 };
 * ```
 */
export interface ThreadExportEnd {
  readonly kind: 'end';
  readonly turns: number;
  readonly rows: number;
}

/**
 * Any line of a thread export.
 *
 * @example
 * ```ts
 * const line = JSON.parse(text) as ThreadExportLine;
 * if ('kind' in line && line.kind === 'row') console.log(line.seq);
 * ```
 */
export type ThreadExportLine =
  | ThreadExportHeader
  | ThreadExportTurn
  | ThreadExportRow
  | ThreadExportEnd;
