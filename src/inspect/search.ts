// Text search across threads: a bounded scan through the store's public reads, with no index.
// Threads are read most recently active first (`listThreads`, 50 a page), each thread's rows
// newest first (`getChunks`, up to 500 a page), then the own rows of each of its alternatives
// (`searchedPaths`); a search stops after `rowBudget` rows or `maxHits` hits and returns where it
// stopped and which bound stopped it, for a "continue" link and a footer that says why.
import type { ChunkRow } from '../schema/chunk-row.js';
import type { TurnStatus } from '../schema/turn-status.js';
import type { Thread } from '../store/types.js';
import { matchesFilter, type RowFilter } from './filters.js';
import type { InspectedStore } from './reads.js';
import { type SearchedPath, searchedPaths } from './searched-paths.js';

/** Where a search goes on: the threads page, the thread's place in it, and the seq to read below. */
export interface SearchCursor {
  /** The `before` of the threads page (undefined: the first page). */
  readonly threadsBefore?: string | undefined;
  /** The thread's index in that page. */
  readonly index: number;
  /** The alternative of the thread being read (undefined: the thread's own path). */
  readonly version?: string | undefined;
  /** Read the thread's rows below this seq (undefined: from its newest row). */
  readonly before?: number | undefined;
}

/** One row that matched. */
export interface SearchHit {
  /** The thread the search reached: a conversation, for a row of one of its alternatives. */
  readonly thread: Thread;
  /** The alternative of `thread` whose own rows hold the row; undefined for `thread`'s path. */
  readonly version: string | undefined;
  readonly row: ChunkRow;
  readonly text: string;
  /** Where the match starts in `text`. */
  readonly at: number;
}

/** What a search found. */
export interface SearchResult {
  readonly hits: readonly SearchHit[];
  readonly scannedRows: number;
  readonly scannedThreads: number;
  /** How many alternatives of those threads were read. */
  readonly scannedVersions: number;
  /** Where to go on, when the search stopped before the end. */
  readonly next: SearchCursor | undefined;
  /**
   * What stopped it: `hits` (it found `maxHits`), `rows` (it read `rowBudget` rows), or `end`
   * (nothing is left to read; `next` is then undefined).
   */
  readonly stoppedBy: 'hits' | 'rows' | 'end';
}

/** Options of {@link searchRows}. */
export interface SearchOptions {
  readonly query: string;
  /** Only this thread. */
  readonly thread?: Thread | undefined;
  readonly filter: RowFilter;
  readonly rowBudget: number;
  readonly maxHits: number;
  readonly cursor?: SearchCursor | undefined;
}

const THREAD_PAGE = 50;
const ROW_PAGE = 500;

function json(value: unknown): string {
  return value === undefined ? '' : (JSON.stringify(value) ?? '');
}

/** The text of a row that a search looks in. */
export function searchableText(row: ChunkRow): string {
  switch (row.type) {
    case 'text':
    case 'thinking':
    case 'steering':
      return row.data.text;
    case 'tool_call':
      return `${row.data.name} ${row.data.input !== undefined ? json(row.data.input) : (row.data.inputText ?? '')}`;
    case 'tool_result':
      return `${row.data.name} ${json(row.data.result)} ${row.data.progress ?? ''}`;
    case 'error':
      return row.data.message;
    case 'system':
      return [row.data.kind, row.data.text, ...(row.data.dropped ?? []).map((d) => d.text)].join(
        ' ',
      );
    case 'source': {
      const source = row.data.source;
      return `${source.title ?? ''} ${source.sourceType === 'url' ? source.url : ''}`;
    }
    case 'file':
      return `${row.data.filename ?? ''} ${row.data.mediaType}`;
    case 'custom':
      return row.data.kind;
    case 'data':
      return `${row.data.name} ${json(row.data.data)}`;
    default:
      return json((row as { data: unknown }).data);
  }
}

/**
 * Scans rows for `query` (case-insensitive), most recently active threads first, newest rows
 * first, reading at most `rowBudget` rows.
 *
 * @param store - the store
 * @param options - the query, the thread, the filter, the bounds, where to go on
 * @returns the hits, what was read, and where to go on
 */
export async function searchRows(
  store: InspectedStore,
  options: SearchOptions,
): Promise<SearchResult> {
  const needle = options.query.toLowerCase();
  const hits: SearchHit[] = [];
  let scannedRows = 0;
  let scannedThreads = 0;
  let scannedVersions = 0;
  let threadsBefore = options.cursor?.threadsBefore;
  let index = options.cursor?.index ?? 0;
  let version = options.cursor?.version;
  let rowsBefore = options.cursor?.before;
  const result = (
    next: SearchCursor | undefined,
    stoppedBy: SearchResult['stoppedBy'],
  ): SearchResult => ({
    hits,
    scannedRows,
    scannedThreads,
    scannedVersions,
    next,
    // The last hit on the last row to read leaves nothing to go on with: that is the end.
    stoppedBy: next === undefined ? 'end' : stoppedBy,
  });
  for (;;) {
    const page = options.thread
      ? { threads: [options.thread], nextBefore: null }
      : await store.listThreads({
          limit: THREAD_PAGE,
          // A thread whose row does not read is not searched; the others are.
          onCorruptRow: 'skip',
          ...(threadsBefore !== undefined ? { before: threadsBefore } : {}),
        });
    for (; index < page.threads.length; index++) {
      const thread = page.threads[index] as Thread;
      scannedThreads++;
      const paths = await searchedPaths(store, thread);
      // A version the cursor names that is gone since: the thread is done.
      let p = version === undefined ? 0 : paths.findIndex((path) => path.threadId === version);
      if (p === -1) p = paths.length;
      for (; p < paths.length; p++) {
        const path = paths[p] as SearchedPath;
        version = path.alternative ? path.threadId : undefined;
        if (path.alternative) scannedVersions++;
        for (;;) {
          const budget = options.rowBudget - scannedRows;
          if (budget <= 0) return result(here(rowsBefore), 'rows');
          // An alternative's own rows lie above its fork seq: read no further down.
          const span =
            (rowsBefore ?? (path.total ?? Number.POSITIVE_INFINITY) + 1) - path.above - 1;
          if (span <= 0) break;
          const rows = await store.getChunks(path.threadId, {
            limit: Math.min(ROW_PAGE, budget, span),
            onCorruptRow: 'skip',
            ...(rowsBefore !== undefined ? { before: rowsBefore } : {}),
          });
          scannedRows += rows.chunks.length;
          const statusOf = (turnId: string): TurnStatus => rows.turnStatus?.[turnId] ?? 'completed';
          let below = false;
          for (let i = rows.chunks.length - 1; i >= 0; i--) {
            const row = rows.chunks[i] as ChunkRow;
            if (row.seq <= path.above) {
              below = true;
              break;
            }
            if (!matchesFilter(row, options.filter, statusOf)) continue;
            const text = searchableText(row);
            const at = needle === '' ? 0 : text.toLowerCase().indexOf(needle);
            if (at === -1) continue;
            hits.push({ thread, version, row, text, at });
            if (hits.length >= options.maxHits) {
              const more = i > 0 || rows.hasMore;
              return result(more ? here(row.seq) : after(paths, p), 'hits');
            }
          }
          if (below || !rows.hasMore || rows.oldestSeq === null) break;
          rowsBefore = rows.oldestSeq;
        }
        rowsBefore = undefined;
      }
      version = undefined;
    }
    if (page.nextBefore === null) return result(undefined, 'end');
    threadsBefore = page.nextBefore;
    index = 0;
  }

  function here(before: number | undefined): SearchCursor {
    return { threadsBefore, index, version, before };
  }
  /** Where to go on after path `p` of the thread: its next path, else the next thread. */
  function after(paths: readonly SearchedPath[], p: number): SearchCursor | undefined {
    const next = paths[p + 1];
    if (next !== undefined) return { threadsBefore, index, version: next.threadId };
    return options.thread ? undefined : { threadsBefore, index: index + 1 };
  }
}
