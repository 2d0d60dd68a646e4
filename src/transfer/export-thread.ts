import { ChunklogError } from '../errors/chunklog-error.js';
import { invalidOption, readOptions, requireMethods } from '../errors/invalid-option.js';
import type { ChunkRow } from '../schema/chunk-row.js';
import { listingEvery } from '../schema/listing-every.js';
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
export type ExportThreadStore = Pick<
  ChunkStore,
  'getThread' | 'getChunksAfter' | 'getTurnUsage' | 'getAlternatives'
>;

/** Every method of {@link ExportThreadStore}: what `exportThread` checks its store for. */
const STORE_METHODS = listingEvery<keyof ExportThreadStore>()([
  'getThread',
  'getChunksAfter',
  'getTurnUsage',
  'getAlternatives',
]);

/**
 * Options of {@link exportThread}.
 *
 * @example
 * ```ts
 * const options: ExportThreadOptions = { pageSize: 1000, path: 'active' };
 * ```
 */
export interface ExportThreadOptions {
  /** Rows read per page (`getChunksAfter`'s `limit`), 1 to 1,000. Default 500. */
  readonly pageSize?: number | undefined;
  /** What to do with a stored row that no longer parses. Default: the store's policy. */
  readonly onCorruptRow?: CorruptRowPolicy | undefined;
  /**
   * Which path of a conversation that has versions (alternatives made by editing or
   * regenerating a turn, see `ChunkStore.addAlternative`) to export: `'active'`, the one the
   * reader sees (the active alternative's rows, as `getRows(await store.activePath(id))` reads
   * them), or `'thread'`, the conversation's own rows. An export holds one path: other versions
   * are not in it (export each by its own thread id). Without it, a conversation that has
   * versions is refused with `invalid-option` (`path`); one without versions, or a version
   * given by its own id, exports its path whatever the value.
   */
  readonly path?: ExportPath | undefined;
}

/**
 * The path {@link exportThread} exports of a conversation that has versions: the active one, or
 * the conversation's own.
 *
 * @example
 * ```ts
 * const path: ExportPath = 'active';
 * ```
 */
export type ExportPath = 'active' | 'thread';

/** How a refusal names the `path` values: the options' names, or the command line's flags. */
export interface PathNames {
  readonly active: string;
  readonly thread: string;
}

/** The names of the `path` values in {@link exportThread}'s own refusal. */
const OPTION_NAMES: PathNames = { active: "path: 'active'", thread: "path: 'thread'" };

/**
 * The key of an internal option of {@link exportThread}: how its refusal of a conversation with
 * versions names the `path` values (`chunklog export` names its `--path` flags). A symbol, so it
 * is not one of {@link ExportThreadOptions} and the options check does not see it.
 */
export const PATH_NAMES: unique symbol = Symbol('chunklog.exportThread.pathNames');

/** {@link ExportThreadOptions} with the internal option naming the `path` values. */
export interface NamingExportThreadOptions extends ExportThreadOptions {
  readonly [PATH_NAMES]?: PathNames | undefined;
}

const WHERE = 'exportThread';

const json = (value: unknown): string => `${JSON.stringify(value)}\n`;

function exportedThread(thread: Thread, total: number): ExportedThread {
  return {
    id: thread.id,
    createdAt: thread.createdAt,
    updatedAt: thread.updatedAt,
    total,
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

/**
 * The thread whose rows to export: the conversation's own, or its active path's; refuses a
 * conversation that has versions when `path` does not say which.
 */
async function pathToExport(
  store: ExportThreadStore,
  thread: Thread,
  path: ExportPath | undefined,
  names: PathNames,
): Promise<string> {
  // A version given by its own id is one path already.
  if (path === 'thread' || thread.alternativeOf !== undefined) return thread.id;
  const { activePath, versions: all } = await store.getAlternatives(thread.id);
  if (path === 'active') return activePath;
  // Every version, the ones the active path does not reach too (`branches` lists only its own).
  const versions = all.map((v) => v.threadId).filter((id) => id !== thread.id);
  if (versions.length === 0) return thread.id;
  const listed = versions.map((id) => JSON.stringify(id)).join(', ');
  const active = activePath === thread.id ? 'its own' : JSON.stringify(activePath);
  throw new ChunklogError(
    'invalid-option',
    `exportThread: conversation ${JSON.stringify(thread.id)} has versions made by editing or regenerating a turn (${listed}; the active path is ${active}), and an export holds one path: pass ${names.active} for the path the reader sees, or ${names.thread} for the conversation's own rows; export a version by its id for its path.`,
    { option: 'path', threadId: thread.id, value: versions },
  );
}

/** What the lines of an export are read with: the checked options. */
interface LineOptions {
  readonly pageSize: number;
  readonly onCorruptRow: CorruptRowPolicy | undefined;
  readonly path: ExportPath | undefined;
  readonly names: PathNames;
}

async function* lines(
  store: ExportThreadStore,
  threadId: string,
  options: LineOptions,
): AsyncGenerator<string, void, undefined> {
  const { pageSize, onCorruptRow } = options;
  const thread = await store.getThread(threadId);
  const source = await pathToExport(store, thread, options.path, options.names);
  // The header names the conversation; its total is the exported path's.
  const total = source === threadId ? thread.total : (await store.getThread(source)).total;
  const header: ThreadExportHeader = {
    format: THREAD_EXPORT_FORMAT,
    version: THREAD_EXPORT_VERSION,
    thread: exportedThread(thread, total),
  };
  yield json(header);
  let afterSeq = 0;
  let turns = 0;
  let rows = 0;
  let current: string | undefined;
  for (;;) {
    // Forwards by keyset: the cost of a page is the same at the end of a long thread as at its
    // start, and no more than one page is held at a time.
    const page = await store.getChunksAfter(source, {
      limit: pageSize,
      afterSeq,
      ...(onCorruptRow !== undefined ? { onCorruptRow } : {}),
    });
    for (const row of page.chunks) {
      if (row.turnId !== current) {
        current = row.turnId;
        turns++;
        const status: TurnStatus = page.turnStatus?.[row.turnId] ?? 'completed';
        const usage = await turnUsage(store, source, row.turnId);
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
 * An export holds one path. A conversation that has versions (alternatives, on the active path
 * or not: `getAlternatives` lists them in `versions`) is refused unless `path` says which:
 * `'active'` exports what the reader sees (the header still names the conversation), `'thread'`
 * the conversation's own rows. The refusal, `invalid-option` with `option: 'path'`, names the
 * versions (`value`: their thread ids, oldest first) and the active path.
 *
 * Arguments are checked at once; the store is read as the lines are consumed, so a missing
 * thread, or a conversation with versions and no `path`, rejects the first read of the iterator
 * before any line. Rows appended while the export runs are included up to the last page read.
 * The same thread gives the same bytes.
 *
 * @param store - the store to read (read-only is enough)
 * @param threadId - the thread
 * @param options - the page size, the corrupt-row policy, the path of a conversation with versions
 * @returns the lines, each ending with `\n`
 * @throws {ChunklogError} `invalid-option` for a bad argument; while iterating, `invalid-option`
 *   (`path`) for a conversation with versions and no `path`, and the store's errors
 *   (`thread-not-found`, `corrupt-row`, `store-failed`)
 *
 * @example
 * ```ts
 * import { createWriteStream } from 'node:fs';
 * import { Readable } from 'node:stream';
 * import { pipeline } from 'node:stream/promises';
 * import { exportThread } from 'chunklog/transfer';
 *
 * const lines = exportThread(store, 'thread-1', { path: 'active' });
 * await pipeline(Readable.from(lines), createWriteStream('thread-1.jsonl'));
 * ```
 */
export function exportThread(
  store: ExportThreadStore,
  threadId: string,
  options?: ExportThreadOptions,
): AsyncIterable<string> {
  requireMethods(WHERE, 'store', store, STORE_METHODS, 'a chunk store');
  if (typeof threadId !== 'string' || threadId === '') {
    invalidOption(WHERE, 'threadId', '`threadId` must be a non-empty string', threadId);
  }
  return lines(store, threadId, checkedOptions(options));
}

/** {@link exportThread}'s options, checked, with their defaults. */
function checkedOptions(options: ExportThreadOptions | undefined): LineOptions {
  const known = readOptions(options, WHERE, ['pageSize', 'onCorruptRow', 'path']);
  const pageSize = known.pageSize ?? 500;
  if (!Number.isInteger(pageSize) || (pageSize as number) < 1 || (pageSize as number) > 1000) {
    invalidOption(WHERE, 'pageSize', '`pageSize` must be an integer from 1 to 1,000', pageSize);
  }
  const onCorruptRow = known.onCorruptRow;
  if (onCorruptRow !== undefined && onCorruptRow !== 'throw' && onCorruptRow !== 'skip') {
    invalidOption(WHERE, 'onCorruptRow', "`onCorruptRow` must be 'throw' or 'skip'", onCorruptRow);
  }
  const path = known.path;
  if (path !== undefined && path !== 'active' && path !== 'thread') {
    invalidOption(WHERE, 'path', "`path` must be 'active' or 'thread'", path);
  }
  return {
    pageSize: pageSize as number,
    onCorruptRow,
    path,
    // Not among the options `readOptions` checks: a symbol key (the command line's flags).
    names: (options as NamingExportThreadOptions | undefined)?.[PATH_NAMES] ?? OPTION_NAMES,
  };
}
