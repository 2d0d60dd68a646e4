import { ChunklogError } from '../errors/chunklog-error.js';
import { invalidOption, readOptions } from '../errors/invalid-option.js';
import type { ChunkRow } from '../schema/chunk-row.js';
import type { TurnStatus } from '../schema/turn-status.js';
import type { ChunkStore, CorruptRowPolicy, Thread } from '../store/types.js';
import type { StepUsage } from '../store/usage-types.js';
import {
  type ExportedThread,
  THREAD_EXPORT_FORMAT,
  THREAD_EXPORT_VERSION,
  type ThreadExportEnd,
  type ThreadExportHeader,
  type ThreadExportRow,
  type ThreadExportTurn,
} from './format.js';

/**
 * The store methods {@link exportThread} reads with (a read-only store will do).
 *
 * @example
 * ```ts
 * const source: ExportThreadStore = store;
 * ```
 */
export type ExportThreadStore = Pick<ChunkStore, 'getThread' | 'getChunksAfter' | 'getTurnUsage'>;

/**
 * Options of {@link exportThread}.
 *
 * @example
 * ```ts
 * const options: ExportThreadOptions = { pageSize: 1000 };
 * ```
 */
export interface ExportThreadOptions {
  /** Rows read per page (`getChunksAfter`'s `limit`), 1 to 1,000. Default 500. */
  readonly pageSize?: number | undefined;
  /** What to do with a stored row that no longer parses. Default: the store's policy. */
  readonly onCorruptRow?: CorruptRowPolicy | undefined;
}

const json = (value: unknown): string => `${JSON.stringify(value)}\n`;

function exportedThread(thread: Thread): ExportedThread {
  return {
    id: thread.id,
    createdAt: thread.createdAt,
    updatedAt: thread.updatedAt,
    total: thread.total,
    ...(thread.title !== undefined ? { title: thread.title } : {}),
    ...(thread.ownerId !== undefined ? { ownerId: thread.ownerId } : {}),
    ...(thread.metadata !== undefined ? { metadata: thread.metadata } : {}),
  };
}

function rowLine(row: ChunkRow): ThreadExportRow {
  const { threadId: _threadId, seq, createdAt, turnId, step, role, type, data } = row;
  return {
    kind: 'row',
    seq,
    turnId,
    step,
    role,
    type,
    data,
    ...(createdAt !== undefined ? { createdAt } : {}),
  } as ThreadExportRow;
}

function stepLine(step: StepUsage): StepUsage {
  return {
    step: step.step,
    ...(step.modelId !== undefined ? { modelId: step.modelId } : {}),
    ...(step.finishReason !== undefined ? { finishReason: step.finishReason } : {}),
    usage: step.usage,
    ...(step.durationMs !== undefined ? { durationMs: step.durationMs } : {}),
  };
}

/** The turn's recorded usage; none on a store without the usage table (before migration 0003). */
async function turnUsage(
  store: ExportThreadStore,
  threadId: string,
  turnId: string,
): Promise<readonly StepUsage[] | undefined> {
  try {
    const usage = await store.getTurnUsage(threadId, turnId);
    return usage === null || usage.steps.length === 0 ? undefined : usage.steps.map(stepLine);
  } catch (error) {
    if (ChunklogError.hasCode(error, 'not-migrated')) return undefined;
    throw error;
  }
}

async function* lines(
  store: ExportThreadStore,
  threadId: string,
  pageSize: number,
  onCorruptRow: CorruptRowPolicy | undefined,
): AsyncGenerator<string, void, undefined> {
  const header: ThreadExportHeader = {
    format: THREAD_EXPORT_FORMAT,
    version: THREAD_EXPORT_VERSION,
    thread: exportedThread(await store.getThread(threadId)),
  };
  yield json(header);
  let afterSeq = 0;
  let turns = 0;
  let rows = 0;
  let current: string | undefined;
  for (;;) {
    // Forwards by keyset: the cost of a page is the same at the end of a long thread as at its
    // start, and no more than one page is held at a time.
    const page = await store.getChunksAfter(threadId, {
      limit: pageSize,
      afterSeq,
      ...(onCorruptRow !== undefined ? { onCorruptRow } : {}),
    });
    for (const row of page.chunks) {
      if (row.turnId !== current) {
        current = row.turnId;
        turns++;
        const status: TurnStatus = page.turnStatus?.[row.turnId] ?? 'completed';
        const usage = await turnUsage(store, threadId, row.turnId);
        const turn: ThreadExportTurn = {
          kind: 'turn',
          turnId: row.turnId,
          status,
          ...(usage !== undefined ? { usage } : {}),
        };
        yield json(turn);
      }
      rows++;
      yield json(rowLine(row));
    }
    if (!page.hasMore || page.newestSeq === null) break;
    afterSeq = page.newestSeq;
  }
  const end: ThreadExportEnd = { kind: 'end', turns, rows };
  yield json(end);
}

/**
 * Exports a thread as JSON Lines (format `chunklog-thread`, version 1): a header with the thread
 * (id, title, owner id, metadata, times), then each turn — a line with its id, status and the
 * usage recorded for its steps, followed by its rows in seq order — and an end line counting
 * them. The thread is read forwards a page at a time (`getChunksAfter`), so a long thread is
 * never held in memory whole; the usage is read once per turn (`getTurnUsage`).
 *
 * Arguments are checked at once; the store is read as the lines are consumed, so a missing
 * thread rejects the first read of the iterator with `thread-not-found`. Rows appended while the
 * export runs are included up to the last page read. The same thread gives the same bytes.
 *
 * @param store - the store to read (read-only is enough)
 * @param threadId - the thread
 * @param options - the page size, the corrupt-row policy
 * @returns the lines, each ending with `\n`
 * @throws {ChunklogError} `invalid-option` for a bad argument; while iterating, the store's
 *   errors (`thread-not-found`, `corrupt-row`, `store-failed`)
 *
 * @example
 * ```ts
 * import { createWriteStream } from 'node:fs';
 * import { Readable } from 'node:stream';
 * import { pipeline } from 'node:stream/promises';
 * import { exportThread } from 'chunklog/transfer';
 *
 * await pipeline(Readable.from(exportThread(store, 'thread-1')), createWriteStream('thread-1.jsonl'));
 * ```
 */
export function exportThread(
  store: ExportThreadStore,
  threadId: string,
  options?: ExportThreadOptions,
): AsyncIterable<string> {
  const where = 'exportThread';
  for (const method of ['getThread', 'getChunksAfter', 'getTurnUsage'] as const) {
    if (typeof (store as Partial<ExportThreadStore> | null)?.[method] !== 'function') {
      invalidOption(where, 'store', `\`store\` must be a chunk store (no ${method})`, store);
    }
  }
  if (typeof threadId !== 'string' || threadId === '') {
    invalidOption(where, 'threadId', '`threadId` must be a non-empty string', threadId);
  }
  const known = readOptions(options, where, ['pageSize', 'onCorruptRow']);
  const pageSize = known.pageSize ?? 500;
  if (!Number.isInteger(pageSize) || (pageSize as number) < 1 || (pageSize as number) > 1000) {
    invalidOption(where, 'pageSize', '`pageSize` must be an integer from 1 to 1,000', pageSize);
  }
  const onCorruptRow = known.onCorruptRow;
  if (onCorruptRow !== undefined && onCorruptRow !== 'throw' && onCorruptRow !== 'skip') {
    invalidOption(where, 'onCorruptRow', "`onCorruptRow` must be 'throw' or 'skip'", onCorruptRow);
  }
  return lines(store, threadId, pageSize as number, onCorruptRow);
}
