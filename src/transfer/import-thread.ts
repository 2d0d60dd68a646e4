import { invalidOption, readOptions, requireMethods } from '../errors/invalid-option.js';
import {
  IMPORT_STORE_METHODS,
  Importer,
  type ImportThreadStore,
  OPTION_NAMES,
  type OptionNames,
} from './importer.js';
import { InputProblem, isExportInput, readLines, type ThreadExportInput } from './read-lines.js';

/**
 * Options of {@link importThread}.
 *
 * @example
 * ```ts
 * const options: ImportThreadOptions = { threadId: 'thread-1-copy' };
 * ```
 */
export interface ImportThreadOptions {
  /** The id of the thread to create. Default: the exported thread's id. */
  readonly threadId?: string | undefined;
  /**
   * When the thread exists already: `'error'` (default) refuses with `thread-exists` before
   * writing anything; `'append'` adds the turns of the export it does not hold (by turn id), so
   * an import stopped by a bad line or a failure can be run again once fixed.
   */
  readonly onExistingThread?: 'error' | 'append' | undefined;
  /** The most characters a line may hold (a row carrying a large file is one line). Default 64 Mi. */
  readonly maxLineLength?: number | undefined;
}

/**
 * What {@link importThread} did.
 *
 * @example
 * ```ts
 * const { threadId, turns, rows }: ImportThreadResult = await importThread(store, input);
 * ```
 */
export interface ImportThreadResult {
  /** The thread the export was imported into. */
  readonly threadId: string;
  /** Turns written. */
  readonly turns: number;
  /** Rows written. */
  readonly rows: number;
  /** Turns of the export the thread held already (`onExistingThread: 'append'`), not written again. */
  readonly skippedTurns: number;
  /**
   * Whether every row written got the seq it had in the export (true into a new thread; into an
   * existing one, true while the export's seqs lie beyond the thread's rows).
   */
  readonly sameSeqs: boolean;
}

/**
 * The key of an internal option of {@link importThread}: how its messages name the options
 * (`chunklog import` names its `--thread-id`, `--append` and `--max-line-length` flags). A
 * symbol, so it is not one of {@link ImportThreadOptions} and the options check does not see it.
 */
export const OPTION_NAMING: unique symbol = Symbol('chunklog.importThread.optionNames');

/** {@link ImportThreadOptions} with the internal option naming the options in the messages. */
export interface NamingImportThreadOptions extends ImportThreadOptions {
  readonly [OPTION_NAMING]?: OptionNames | undefined;
}

const WHERE = 'importThread';

/** `importThread`'s default `maxLineLength`: 64 Mi characters. */
export const DEFAULT_MAX_LINE_LENGTH: number = 64 * 1024 * 1024;

/**
 * Imports a thread export (`exportThread`'s format, `chunklog-thread` version 1) into a store:
 * creates the thread (with the export's title, owner id and metadata, under `threadId` when
 * given), then stores each turn with its rows, its status and its first row's `createdAt` (one
 * `appendTurn` transaction per turn), and the usage recorded for its steps.
 *
 * Every line is checked (JSON, then the line's schema; ids by the rule the store keys them by;
 * rows against `ChunkRowDraftSchema`; seqs ascending; each row in its turn; the end line's
 * counts) and a turn is written only once it is known whole, so the import is atomic per turn:
 * a bad line stops it with an `invalid-export` error naming the line (`path: ['line', n, …]`)
 * and saying which turns were stored before it (`value: { line, importedTurns,
 * lastImportedTurnId }`); nothing of the turn the bad line is in is written. A file of another version is refused on its first line. A turn that was running
 * when exported is stored as `interrupted`. The thread's own `createdAt` cannot be set: it is the
 * time of the import (its rows keep theirs). A new thread starts at the seq of the export's first
 * row (`createThread`'s `firstSeq`), and a turn the export numbers after a gap is placed at its
 * seq (`appendTurn`'s `firstSeq`), so its rows keep their seqs: an expired thread's copy starts
 * at its retention sentinel and keeps the sentinels at its fork points, as the original does, and
 * retention goes on with it.
 *
 * @param store - the store to write to (migrated)
 * @param input - the export: a string, or chunks of text or UTF-8 bytes (a Node stream, a web
 *   `ReadableStream`, the lines `exportThread` yields)
 * @param options - the thread id, what to do when it exists, the longest line
 * @returns the thread and what was written
 * @throws {ChunklogError} `invalid-option` for a bad argument; `invalid-export` for a bad line;
 *   `thread-exists`; the store's errors, their message saying which turns were stored
 *
 * @example
 * ```ts
 * import { createReadStream } from 'node:fs';
 * import { importThread } from 'chunklog/transfer';
 *
 * const result = await importThread(store, createReadStream('thread-1.jsonl'), {
 *   threadId: 'thread-1-copy',
 * });
 * console.log(`${result.turns} turns, ${result.rows} rows into ${result.threadId}`);
 * ```
 */
export async function importThread(
  store: ImportThreadStore,
  input: ThreadExportInput,
  options?: ImportThreadOptions,
): Promise<ImportThreadResult> {
  requireMethods(WHERE, 'store', store, IMPORT_STORE_METHODS, 'a chunk store');
  if (!isExportInput(input)) {
    invalidOption(
      WHERE,
      'input',
      '`input` must be a string, an iterable or async iterable of text chunks, or a ReadableStream',
      input,
    );
  }
  const { threadId, onExistingThread, maxLineLength, names } = checkedOptions(options);
  const importer = new Importer(store, { threadId, onExistingThread }, names);
  let last = 0;
  try {
    for await (const { number, text } of readLines(input, maxLineLength)) {
      last = number;
      if (text.trim() !== '') await importer.line(number, text);
    }
  } catch (error) {
    if (error instanceof InputProblem) throw importer.inputProblem(error.line, error.problem);
    throw error;
  }
  return { ...importer.finish(last) };
}

/** What an import runs with: the checked options. */
interface CheckedOptions {
  readonly threadId: string | undefined;
  readonly onExistingThread: 'error' | 'append';
  readonly maxLineLength: number;
  readonly names: OptionNames;
}

/** {@link importThread}'s options, checked, with their defaults. */
function checkedOptions(options: ImportThreadOptions | undefined): CheckedOptions {
  const known = readOptions(options, WHERE, ['threadId', 'onExistingThread', 'maxLineLength']);
  const threadId = known.threadId;
  if (threadId !== undefined && (typeof threadId !== 'string' || threadId === '')) {
    invalidOption(WHERE, 'threadId', '`threadId` must be a non-empty string', threadId);
  }
  const onExisting = known.onExistingThread ?? 'error';
  if (onExisting !== 'error' && onExisting !== 'append') {
    invalidOption(
      WHERE,
      'onExistingThread',
      "`onExistingThread` must be 'error' or 'append'",
      onExisting,
    );
  }
  const maxLineLength = known.maxLineLength ?? DEFAULT_MAX_LINE_LENGTH;
  if (!Number.isSafeInteger(maxLineLength) || (maxLineLength as number) < 1) {
    invalidOption(
      WHERE,
      'maxLineLength',
      '`maxLineLength` must be a positive integer',
      maxLineLength,
    );
  }
  return {
    threadId: threadId as string | undefined,
    onExistingThread: onExisting,
    maxLineLength: maxLineLength as number,
    // Not among the options `readOptions` checks: a symbol key (the command line's flags).
    names: (options as NamingImportThreadOptions | undefined)?.[OPTION_NAMING] ?? OPTION_NAMES,
  };
}
