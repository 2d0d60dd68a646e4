// The import's state, line by line: the header, then turns and their rows, then the end. A turn
// is written (one `appendTurn` transaction, then its usage) only once it is known whole: when
// the next turn line or the end line has been read and checked. A bad line therefore stops the
// import with every earlier turn stored and nothing of the turn it belongs to.
import { ChunklogError, type ChunklogErrorCode } from '../errors/chunklog-error.js';
import type { ChunkRowDraft } from '../schema/chunk-row.js';
import { listingEvery } from '../schema/listing-every.js';
import type { EndedTurnStatus } from '../store/turn-types.js';
import type { ChunkStore } from '../store/types.js';
import type { ThreadExportHeader, ThreadExportRow, ThreadExportTurn } from './format.js';
import { type BodyLine, LineProblem, parseBodyLine, parseHeader } from './parse-line.js';

/**
 * The store methods `importThread` writes with.
 *
 * @example
 * ```ts
 * const target: ImportThreadStore = store;
 * ```
 */
export type ImportThreadStore = Pick<
  ChunkStore,
  'getThread' | 'createThread' | 'hasTurn' | 'appendTurn' | 'recordUsage'
>;

/** Every method of {@link ImportThreadStore}: what `importThread` checks its store for. */
export const IMPORT_STORE_METHODS: readonly (keyof ImportThreadStore)[] = listingEvery<
  keyof ImportThreadStore
>()(['getThread', 'createThread', 'hasTurn', 'appendTurn', 'recordUsage']);

/** How the messages name the options: `importThread`'s, or the command line's flags. */
export interface OptionNames {
  readonly threadId: string;
  readonly append: string;
  readonly maxLineLength: string;
}

/** `importThread`'s option names. */
export const OPTION_NAMES: OptionNames = {
  threadId: 'threadId',
  append: "onExistingThread: 'append'",
  maxLineLength: 'maxLineLength',
};

interface PendingTurn {
  readonly line: number;
  readonly turn: ThreadExportTurn;
  readonly rows: ThreadExportRow[];
}

/** What an import did (see `ImportThreadResult`). */
export interface ImportTally {
  threadId: string;
  turns: number;
  rows: number;
  skippedTurns: number;
  sameSeqs: boolean;
}

export class Importer {
  private header: ThreadExportHeader | undefined;
  private target: string | undefined;
  /** Whether the target thread existed before the import (then only `append` goes on). */
  private existed = false;
  private created = false;
  private pending: PendingTurn | undefined;
  private readonly seen = new Set<string>();
  private lastSeq = 0;
  /** The target thread's next seq, as this import knows it. */
  private nextSeq = 1;
  private fileTurns = 0;
  private fileRows = 0;
  private ended = false;
  private lastImported: string | undefined;
  readonly tally: ImportTally = {
    threadId: '',
    turns: 0,
    rows: 0,
    skippedTurns: 0,
    sameSeqs: true,
  };

  constructor(
    private readonly store: ImportThreadStore,
    private readonly options: {
      readonly threadId: string | undefined;
      readonly onExistingThread: 'error' | 'append';
    },
    private readonly names: OptionNames,
  ) {}

  /** Reads one non-blank line. */
  async line(number: number, text: string): Promise<void> {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      const what =
        this.header === undefined
          ? 'not a chunklog thread export: the first line is not JSON'
          : 'not JSON';
      throw this.problem(number, new LineProblem(what, [], error));
    }
    if (this.header === undefined) return this.start(number, value);
    if (this.ended) throw this.problem(number, new LineProblem('a line after the end line'));
    let line: BodyLine;
    try {
      line = parseBodyLine(value);
    } catch (error) {
      if (error instanceof LineProblem) throw this.problem(number, error);
      throw error;
    }
    switch (line.kind) {
      case 'turn':
        return this.turn(number, line);
      case 'row':
        return this.row(number, line);
      case 'end':
        return this.end(number, line.turns, line.rows);
    }
  }

  /** The input is over: an export without its end line was cut short. */
  finish(lastLine: number): ImportTally {
    if (this.header === undefined) {
      throw this.problem(1, new LineProblem('the input is empty: no header line'));
    }
    if (!this.ended) {
      const cut =
        this.pending === undefined
          ? ''
          : ` (turn ${JSON.stringify(this.pending.turn.turnId)} was not written: it may be incomplete)`;
      throw this.problem(
        lastLine + 1,
        new LineProblem(`the export ends without its end line: it was cut short${cut}`),
      );
    }
    return this.tally;
  }

  private async start(number: number, value: unknown): Promise<void> {
    try {
      this.header = parseHeader(value);
    } catch (error) {
      if (error instanceof LineProblem) throw this.problem(number, error);
      throw error;
    }
    const target = this.options.threadId ?? this.header.thread.id;
    this.target = target;
    this.tally.threadId = target;
    const existing = await this.store.getThread(target).then(
      (thread) => thread,
      (error: unknown) => {
        if (ChunklogError.hasCode(error, 'thread-not-found')) return undefined;
        throw error;
      },
    );
    this.existed = existing !== undefined;
    if (existing !== undefined) this.nextSeq = existing.total + 1;
    if (this.existed && this.options.onExistingThread === 'error') {
      throw new ChunklogError(
        'thread-exists',
        `importThread: thread ${JSON.stringify(target)} exists already; nothing was imported. Import under another id (${this.names.threadId}), or pass ${this.names.append} to add the turns it does not hold`,
        { threadId: target, option: 'threadId', value: target },
      );
    }
  }

  private async turn(number: number, turn: ThreadExportTurn): Promise<void> {
    if (this.seen.has(turn.turnId)) {
      throw this.problem(
        number,
        new LineProblem(
          `turn ${JSON.stringify(turn.turnId)} appears twice: a turn's rows are contiguous`,
          ['turnId'],
        ),
      );
    }
    const steps = new Set<number>();
    for (const [i, step] of (turn.usage ?? []).entries()) {
      if (steps.has(step.step)) {
        throw this.problem(
          number,
          new LineProblem(`the usage of step ${step.step} appears twice`, ['usage', i, 'step']),
        );
      }
      steps.add(step.step);
    }
    await this.flush(number);
    this.seen.add(turn.turnId);
    this.fileTurns++;
    this.pending = { line: number, turn, rows: [] };
  }

  private row(number: number, row: ThreadExportRow): void {
    const pending = this.pending;
    if (pending === undefined) {
      throw this.problem(number, new LineProblem('a row before any turn line', ['kind']));
    }
    if (row.turnId !== pending.turn.turnId) {
      throw this.problem(
        number,
        new LineProblem(
          `the row's turnId ${JSON.stringify(row.turnId)} is not the turn's (${JSON.stringify(pending.turn.turnId)})`,
          ['turnId'],
        ),
      );
    }
    if (row.seq <= this.lastSeq) {
      throw this.problem(
        number,
        new LineProblem(`seq ${row.seq} is not above the previous row's (${this.lastSeq})`, [
          'seq',
        ]),
      );
    }
    this.lastSeq = row.seq;
    this.fileRows++;
    pending.rows.push(row);
  }

  private async end(number: number, turns: number, rows: number): Promise<void> {
    if (turns !== this.fileTurns || rows !== this.fileRows) {
      throw this.problem(
        number,
        new LineProblem(
          `the end line counts ${turns} turns and ${rows} rows, the export holds ${this.fileTurns} and ${this.fileRows}`,
        ),
      );
    }
    await this.flush(number);
    await this.ensureThread();
    this.ended = true;
  }

  /** Writes the turn read so far, now known whole. */
  private async flush(number: number): Promise<void> {
    const pending = this.pending;
    if (pending === undefined) return;
    if (pending.rows.length === 0) {
      throw this.problem(
        number,
        new LineProblem(`turn ${JSON.stringify(pending.turn.turnId)} has no rows`),
      );
    }
    this.pending = undefined;
    const { turn, rows } = pending;
    const target = this.target as string;
    try {
      await this.ensureThread(rows[0]?.seq);
      if (this.existed && (await this.store.hasTurn(target, turn.turnId))) {
        this.tally.skippedTurns++;
      } else {
        const drafts = rows.map(
          ({ kind: _k, seq: _s, createdAt: _c, ...draft }) => draft as ChunkRowDraft,
        );
        // A turn still running when it was exported has no writer here: it is stored as
        // interrupted, as a session's recovery would close it.
        const status: EndedTurnStatus = turn.status === 'running' ? 'interrupted' : turn.status;
        const createdAt = rows[0]?.createdAt;
        const firstSeq = this.gapBefore(rows);
        const stored = await this.store.appendTurn(target, drafts, {
          status,
          ...(createdAt !== undefined ? { createdAt } : {}),
          ...(firstSeq !== undefined ? { firstSeq } : {}),
        });
        const last = stored[stored.length - 1];
        if (last !== undefined) this.nextSeq = last.seq + 1;
        this.tally.sameSeqs &&= stored.every((row, i) => row.seq === rows[i]?.seq);
        this.tally.turns++;
        this.tally.rows += stored.length;
      }
      // Usage already recorded for a step is kept: safe for a turn skipped above too.
      if (turn.usage !== undefined) await this.store.recordUsage(target, turn.turnId, turn.usage);
    } catch (error) {
      const code: ChunklogErrorCode = ChunklogError.isInstance(error) ? error.code : 'store-failed';
      const message = error instanceof Error ? error.message : String(error);
      throw new ChunklogError(
        code,
        `importThread: storing turn ${JSON.stringify(turn.turnId)} (line ${pending.line}) failed: ${message.replace(/\.$/, '')}. ${this.progress()}`,
        { cause: error, threadId: target, value: this.progressValue(pending.line) },
      );
    }
    this.lastImported = turn.turnId;
  }

  /**
   * Where a turn whose rows the export numbers after a gap (the seqs of rows an expiry removed
   * between two retention sentinels: notes/0121) is placed to keep them: its first seq, when the
   * target has no row there yet and the turn's rows are consecutive; else undefined (the next
   * seq, as for any turn without a gap).
   */
  private gapBefore(rows: readonly ThreadExportRow[]): number | undefined {
    const first = rows[0]?.seq;
    if (first === undefined || first <= this.nextSeq) return undefined;
    return rows.every((row, i) => row.seq === first + i) ? first : undefined;
  }

  /**
   * Creates the thread the import writes to, unless it existed: starting at the seq of the
   * export's first row (`firstSeq`), so its rows keep their seqs — an expired thread's start at
   * its retention sentinel, whose turn id and `firstKeptSeq` name its seqs.
   */
  private async ensureThread(firstSeq?: number): Promise<void> {
    if (this.existed || this.created) return;
    const { title, ownerId, metadata } = (this.header as ThreadExportHeader).thread;
    await this.store.createThread(this.target, {
      ...(title !== undefined ? { title } : {}),
      ...(ownerId !== undefined ? { ownerId } : {}),
      ...(metadata !== undefined ? { metadata } : {}),
      ...(firstSeq !== undefined && firstSeq > 1 ? { firstSeq } : {}),
    });
    this.nextSeq = firstSeq ?? 1;
    this.created = true;
  }

  /**
   * What was stored, and how to go on: fix the file, or raise the limit a line is over; then
   * import again, appending.
   */
  private progress(limit?: 'maxLineLength'): string {
    const done = this.tally.turns + this.tally.skippedTurns;
    const again =
      limit === undefined
        ? 'fix the file and import it again with'
        : `import it again with a larger ${this.names[limit]} and`;
    if (done === 0) {
      if (this.created) {
        return `Thread ${JSON.stringify(this.target)} was created and holds no turn of the export.`;
      }
      return limit === undefined
        ? 'Nothing was imported.'
        : `Nothing was imported: import it again with a larger ${this.names[limit]}.`;
    }
    return `The ${done} turn(s) before it are in thread ${JSON.stringify(this.target)} (the last: ${JSON.stringify(this.lastImported)}); ${again} ${this.names.append} to add the rest (turns already there are skipped).`;
  }

  private progressValue(line: number) {
    return {
      line,
      importedTurns: this.tally.turns + this.tally.skippedTurns,
      lastImportedTurnId: this.lastImported ?? null,
    };
  }

  private problem(number: number, problem: LineProblem): ChunklogError {
    return new ChunklogError(
      'invalid-export',
      `importThread: line ${number}: ${problem.text}${problem.limit === undefined ? '' : ` (${this.names[problem.limit]})`}. ${this.progress(problem.limit)}`,
      {
        path: [
          'line',
          number,
          ...problem.path.map((key) => (typeof key === 'number' ? key : String(key))),
        ],
        value: this.progressValue(number),
        ...(this.target !== undefined ? { threadId: this.target } : {}),
        ...(problem.cause !== undefined ? { cause: problem.cause } : {}),
      },
    );
  }

  /** The error of an input problem found while reading (a line too long, bytes not UTF-8). */
  inputProblem(number: number, problem: LineProblem): ChunklogError {
    return this.problem(number, problem);
  }
}
