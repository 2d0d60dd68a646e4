import { ChunklogError } from '../errors/chunklog-error.js';
import { invalidOption, readOptions } from '../errors/invalid-option.js';
import { checkList } from '../schema/check-list.js';
import type { Chunk } from '../schema/chunk.js';
import { chunkMini } from '../schema/chunk-schemas.js';
import {
  indexTurnVersions,
  safeParseThreadAlternatives,
  type ThreadAlternatives,
  type TurnVersions,
} from './alternatives.js';
import type { ChunkWindow } from './chunk-window.js';
import { Listeners } from './listeners.js';

/**
 * Options of a {@link ChunkAlternatives}: the window whose path it switches, and where the
 * conversation's alternatives come from.
 *
 * @example
 * ```ts
 * const options: ChunkAlternativesOptions = {
 *   window,
 *   loadAlternatives: () => client.alternatives(),
 *   switchAlternative: (threadId) => client.switchAlternative(threadId),
 * };
 * ```
 */
export interface ChunkAlternativesOptions {
  /** The window over the conversation's active path. */
  readonly window: ChunkWindow;
  /** Reads the conversation's alternatives (`GET …/alternatives`); the answer is validated. */
  readonly loadAlternatives: () => unknown;
  /** Makes a version's path active (`POST …/alternatives`); answers the new alternatives. */
  readonly switchAlternative: (threadId: string) => unknown;
}

/**
 * Options of {@link ChunkAlternatives.startVersion}.
 *
 * @example
 * ```ts
 * const options: StartVersionOptions = { content: 'What about Lisbon?' };
 * ```
 */
export interface StartVersionOptions {
  /** The new version's user message, shown at once (the edited text, or the regenerated turn's). */
  readonly content?: string | readonly Chunk[] | undefined;
}

/**
 * What a {@link ChunkAlternatives} shows, frozen at one moment; the same object until something
 * changes.
 *
 * @example
 * ```ts
 * const { versionsOf, switching } = alternatives.getSnapshot();
 * ```
 */
export interface AlternativesSnapshot {
  /**
   * What the server last answered, or null before the first answer: its `versions` lists every
   * version of the conversation (for a picker of all of them).
   */
  readonly alternatives: ThreadAlternatives | null;
  /** Whether a switch, or the start of a new version, is under way. */
  readonly switching: boolean;
  /**
   * The versions of a turn (index, count, the versions), or undefined for a turn with one
   * version. Bound.
   */
  readonly versionsOf: (turnId: string) => TurnVersions | undefined;
}

function snapshotOf(alternatives: ThreadAlternatives | null, switching: boolean) {
  const byTurn = alternatives === null ? new Map() : indexTurnVersions(alternatives);
  return Object.freeze<AlternativesSnapshot>({
    alternatives,
    switching,
    versionsOf: (turnId) => byTurn.get(turnId),
  });
}

function failed(what: string, cause: unknown): ChunklogError {
  const reason = cause instanceof Error ? `: ${cause.message}` : '';
  return new ChunklogError('load-failed', `ChunkAlternatives: ${what} failed${reason}`, { cause });
}

async function fetchAlternatives(what: string, load: () => unknown): Promise<ThreadAlternatives> {
  let raw: unknown;
  try {
    raw = await load();
  } catch (cause) {
    throw failed(what, cause);
  }
  const parsed = safeParseThreadAlternatives(raw);
  if (!parsed.success) throw failed(what, parsed.error);
  return parsed.value;
}

function nonEmpty(where: string, name: string, value: unknown): string {
  if (typeof value !== 'string' || value === '') {
    invalidOption(where, name, `\`${name}\` must be a non-empty string`, value);
  }
  return value;
}

/**
 * The versions of a conversation's turns, next to its {@link ChunkWindow}: which turns have
 * alternatives (an edited message, a regenerated answer), and switching between them. A switch,
 * or the start of a new version, reloads the window: it then holds only the new active path,
 * with the same eviction and paging as a fresh window. Framework-free: bind it with `subscribe`
 * and `getSnapshot`.
 *
 * @example
 * ```ts
 * const alternatives = new ChunkAlternatives({
 *   window,
 *   loadAlternatives: () => client.alternatives(),
 *   switchAlternative: (threadId) => client.switchAlternative(threadId),
 * });
 * await alternatives.refresh();
 * const v = alternatives.versionsOf('turn-7'); // { index: 1, count: 2, versions }
 * if (v) await alternatives.switchAlternative(v.versions[0].threadId);
 * ```
 */
export class ChunkAlternatives {
  private readonly window: ChunkWindow;
  private readonly load: () => unknown;
  private readonly switchTo: (threadId: string) => unknown;
  private readonly listeners = new Listeners<AlternativesSnapshot>();
  private snapshot: AlternativesSnapshot = snapshotOf(null, false);
  /** Bumped by every request: an answer older than the latest one is dropped. */
  private requests = 0;
  private busy = 0;
  /** Bumped by every switch and new version: a wait for an older one's turn is dropped. */
  private paths = 0;
  /** Unsubscribes the wait for a new version's turn to start, if one runs. */
  private waiting: (() => void) | undefined;

  /**
   * @param options - the window, `loadAlternatives` and `switchAlternative`
   * @throws {ChunklogError} `invalid-option`, naming the option
   */
  constructor(options: ChunkAlternativesOptions) {
    const o = readOptions(options, 'ChunkAlternatives', [
      'window',
      'loadAlternatives',
      'switchAlternative',
    ]);
    const window = o.window as ChunkWindow | undefined;
    if (typeof window?.reload !== 'function') {
      invalidOption('ChunkAlternatives', 'window', '`window` must be a ChunkWindow', window);
    }
    for (const name of ['loadAlternatives', 'switchAlternative'] as const) {
      if (typeof o[name] !== 'function') {
        invalidOption('ChunkAlternatives', name, `\`${name}\` must be a function`, o[name]);
      }
    }
    this.window = window;
    this.load = o.loadAlternatives as () => unknown;
    this.switchTo = o.switchAlternative as (threadId: string) => unknown;
  }

  /**
   * The current snapshot; the same object until something changes. Bound.
   *
   * @returns the snapshot
   *
   * @example
   * ```ts
   * const snapshot = useSyncExternalStore(alternatives.subscribe, alternatives.getSnapshot);
   * ```
   */
  readonly getSnapshot: () => AlternativesSnapshot = () => this.snapshot;

  /**
   * Calls `listener` with the new snapshot after every change. Bound.
   *
   * @param listener - the listener
   * @returns a function that unsubscribes it
   * @throws {ChunklogError} `invalid-option` when `listener` is not a function
   *
   * @example
   * ```ts
   * const stop = alternatives.subscribe(({ versionsOf }) => render(versionsOf));
   * ```
   */
  readonly subscribe: (listener: (snapshot: AlternativesSnapshot) => void) => () => void = (
    listener,
  ) => {
    if (typeof listener !== 'function') {
      invalidOption(
        'ChunkAlternatives.subscribe',
        'listener',
        '`listener` must be a function',
        listener,
      );
    }
    return this.listeners.add(listener);
  };

  /**
   * The versions of a turn, or undefined when it has one version (or nothing was loaded yet).
   *
   * @param turnId - a turn id (a message's `turnId`)
   * @returns its index, the count and the versions
   * @throws {ChunklogError} `invalid-option` for an empty or non-string turn id
   *
   * @example
   * ```ts
   * const v = alternatives.versionsOf(message.turnId);
   * const label = v && `‹ ${v.index + 1} / ${v.count} ›`;
   * ```
   */
  versionsOf(turnId: string): TurnVersions | undefined {
    nonEmpty('ChunkAlternatives.versionsOf', 'turnId', turnId);
    return this.snapshot.versionsOf(turnId);
  }

  /**
   * Reads the conversation's alternatives again (after a turn ended, say). An answer that lands
   * after a later request's is dropped.
   *
   * @returns a promise that settles when the answer is in
   * @throws {ChunklogError} `load-failed` (rejection), with the source's error or an
   *   `invalid-page` error as `cause`; the snapshot is unchanged
   *
   * @example
   * ```ts
   * if (event.type === 'turn-end') void alternatives.refresh();
   * ```
   */
  async refresh(): Promise<void> {
    const request = ++this.requests;
    const answer = await fetchAlternatives('loading the alternatives', this.load);
    if (request === this.requests) this.publish(answer);
  }

  /**
   * Makes a version's path the conversation's active path and reloads the window on it.
   *
   * @param threadId - the version's `threadId` (from {@link TurnVersions.versions}, or from
   *   {@link ThreadAlternatives.versions} for a version the active path does not reach)
   * @returns a promise that settles when the window holds the new path's newest page
   * @throws {ChunklogError} `invalid-option` (thrown) for an empty id, or one that the loaded
   *   alternatives list nowhere (neither a branch nor `versions`); `load-failed` (rejection) when
   *   the switch or the page failed
   *
   * @example
   * ```ts
   * const v = alternatives.versionsOf(turnId);
   * if (v && v.index > 0) await alternatives.switchAlternative(v.versions[v.index - 1].threadId);
   * ```
   */
  switchAlternative(threadId: string): Promise<void> {
    nonEmpty('ChunkAlternatives.switchAlternative', 'threadId', threadId);
    const known = this.snapshot.alternatives;
    if (
      known !== null &&
      threadId !== known.conversationId &&
      !known.versions.some((v) => v.threadId === threadId) &&
      !known.branches.some((b) => b.alternatives.some((v) => v.threadId === threadId))
    ) {
      invalidOption(
        'ChunkAlternatives.switchAlternative',
        'threadId',
        `no version of this conversation is held by thread ${JSON.stringify(threadId)}`,
        threadId,
      );
    }
    this.paths++;
    return this.during(async () => {
      const request = ++this.requests;
      const answer = await fetchAlternatives('switching the alternative', () =>
        this.switchTo(threadId),
      );
      if (request === this.requests) this.publish(answer);
      await this.window.reload();
    });
  }

  /**
   * Starts a new version of a turn (an edit or a regenerate) and follows it: `start` makes the
   * request and answers the new turn's id; the window then reloads the new path, keeping that
   * turn live and showing `content` as its user message at once, and the alternatives are read
   * again.
   *
   * @param start - sends the request (`POST …/messages` `{ text, edit }` or `{ regenerate }`)
   * @param options - `content`: the new version's user message
   * @returns the new turn's id
   * @throws {ChunklogError} `invalid-option` (thrown) for a `start` that is not a function or a
   *   `content` that is neither a string nor an array, `invalid-chunk` (thrown) for an invalid
   *   chunk of `content`, before `start` is called; rejects with `start`'s own error, or
   *   `load-failed` when the reload failed
   *
   * @example
   * ```ts
   * await alternatives.startVersion(() => client.edit('turn-3', 'Lisbon instead'), {
   *   content: 'Lisbon instead',
   * });
   * ```
   */
  startVersion(
    start: () => PromiseLike<{ readonly turnId: string }>,
    options: StartVersionOptions = {},
  ): Promise<string> {
    if (typeof start !== 'function') {
      invalidOption('ChunkAlternatives.startVersion', 'start', '`start` must be a function', start);
    }
    const { content } = readOptions(options, 'ChunkAlternatives.startVersion', ['content']);
    if (Array.isArray(content)) {
      // Checked before the request, not by the window after it.
      checkList(content, {
        schema: chunkMini,
        code: 'invalid-chunk',
        where: 'ChunkAlternatives.startVersion',
        argument: 'content',
        what: 'chunk',
      });
    } else if (content !== undefined && typeof content !== 'string') {
      invalidOption(
        'ChunkAlternatives.startVersion',
        'content',
        '`content` must be a string or chunks',
        content,
      );
    }
    const path = ++this.paths;
    return this.during(async () => {
      const { turnId } = await start();
      if (this.paths !== path) return turnId; // another switch or version came meanwhile
      nonEmpty('ChunkAlternatives.startVersion', 'turnId', turnId);
      const started = this.follows(turnId);
      const reloaded = this.window.reload({ keepTurnId: turnId });
      if (content !== undefined) {
        this.window.addPendingUserMessage(content as string | readonly Chunk[], { turnId });
      }
      await Promise.all([reloaded, this.refresh()]);
      // The server makes the new version when the turn is admitted, which may be after it
      // answered (the turn was queued, or admission was still writing): until the turn's
      // `turn-start` came, the page may be of the old path. Reload again when it comes.
      if (!started && this.paths === path) this.reloadWhenLive(turnId);
      return turnId;
    });
  }

  /** Whether the window follows `turnId` live (its `turn-start` has come). */
  private follows(turnId: string): boolean {
    const { log, liveTurnId } = this.window.getSnapshot();
    return liveTurnId === turnId || log.some((e) => e.live && !e.pending && e.turnId === turnId);
  }

  /** Reloads the window once more when `turnId` starts streaming, unless another path came first. */
  private reloadWhenLive(turnId: string): void {
    this.stopWaiting();
    const path = this.paths;
    const stop = this.window.subscribe(() => {
      if (this.paths !== path) {
        this.stopWaiting();
        return;
      }
      if (!this.follows(turnId)) return;
      this.stopWaiting();
      queueMicrotask(() => {
        if (this.paths !== path) return;
        this.window.reload({ keepTurnId: turnId }).catch(() => {
          // The window is left empty and says so (hasOlder); its next loadOlder() retries.
        });
        this.refresh().catch(() => {});
      });
    });
    this.waiting = stop;
  }

  private stopWaiting(): void {
    this.waiting?.();
    this.waiting = undefined;
  }

  private async during<T>(run: () => Promise<T>): Promise<T> {
    this.busy++;
    this.publish(this.snapshot.alternatives);
    try {
      return await run();
    } finally {
      this.busy--;
      this.publish(this.snapshot.alternatives);
    }
  }

  private publish(alternatives: ThreadAlternatives | null): void {
    const switching = this.busy > 0;
    const current = this.snapshot;
    if (current.alternatives === alternatives && current.switching === switching) return;
    this.snapshot = snapshotOf(alternatives, switching);
    this.listeners.notify(this.getSnapshot);
  }
}
