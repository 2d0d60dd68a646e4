import { ChunklogError } from '../errors/chunklog-error.js';
import { invalidOption, readOptions } from '../errors/invalid-option.js';
import type { ChatMessage } from '../schema/chat-message.js';
import { checkList } from '../schema/check-list.js';
import type { Chunk } from '../schema/chunk.js';
import { type ChunkEvent, chunkEventMini } from '../schema/chunk-event.js';
import { chunkMini } from '../schema/chunk-schemas.js';
import { safeParseWith } from '../schema/parse.js';
import { applyEvent, type Continuation } from './apply-event.js';
import { evictToLimit } from './eviction.js';
import { fetchPage } from './fetch-page.js';
import { Listeners } from './listeners.js';
import type { LogEntry } from './log-entry.js';
import { LogView } from './log-view.js';
import { mergeFirstPage, mergeOlderPage, mergeTail } from './merge-pages.js';
import {
  type ChunkWindowOptions,
  type ResolvedWindowOptions,
  resolveWindowOptions,
} from './options.js';
import type { LoadPageRequest } from './page.js';
import { createPending, insertPending } from './pending-segment.js';
import { Reconciler } from './reconciler.js';
import { reloadState } from './reload-state.js';
import { type ChunkWindowSnapshot, type ReconcileStatus, windowSnapshot } from './snapshot.js';
import { EMPTY_WINDOW_STATE, type WindowState } from './window-state.js';

/**
 * Called after every change with the window's new snapshot.
 *
 * @example
 * ```ts
 * const listener: ChunkWindowListener = (snapshot) => render(snapshot.groups);
 * ```
 */
export type ChunkWindowListener = (snapshot: ChunkWindowSnapshot) => void;

/**
 * Options of {@link ChunkWindow.addPendingUserMessage}.
 *
 * @example
 * ```ts
 * const { turnId } = await (await fetch(url, { method: 'POST', body })).json();
 * window.addPendingUserMessage(text, { turnId } satisfies PendingUserMessageOptions);
 * ```
 */
export interface PendingUserMessageOptions {
  /**
   * The turn the message starts, when the app knows it: the message then keeps its id when the
   * turn is stored. Without it, the message joins the next `turn-start` of a model's turn (not
   * a system notice's).
   */
  readonly turnId?: string | undefined;
}

/**
 * Options of {@link ChunkWindow.apply}.
 *
 * @example
 * ```ts
 * source.onmessage = (message) =>
 *   window.apply(JSON.parse(message.data), { id: message.lastEventId } satisfies ApplyOptions);
 * ```
 */
export interface ApplyOptions {
  /**
   * The event's id on the wire (`<turnId>:<index>`, or `<turnId>:r<epoch>.<index>` for a turn
   * continued after a crash; the SSE `id:` field). With it, the window tells a turn another
   * process continues after a crash (its `turn-start` again, numbered after the events sent of
   * it, or with its continuation's epoch) from a replay from the start: it folds the continued
   * turn on into the turn it follows instead of folding it again from nothing, or shows it after
   * the stored steps of a turn its page said was running; with an epoch, what the new process
   * stored shows once, whether the page holding it comes before its events or after. An id of
   * another shape is ignored.
   */
  readonly id?: string | undefined;
  /**
   * Read from `id`, which carries it: accepted so that the metadata a session gives its listeners
   * (`session.subscribe((event, meta) => window.apply(event, meta))`) passes as it is.
   */
  readonly turnId?: string | undefined;
  /** Read from `id`, which carries it (see `turnId`). */
  readonly index?: number | undefined;
}

/**
 * What an event id (`<turnId>:<index>`, or `<turnId>:r<epoch>.<index>`) says of a turn continued
 * after a crash: undefined when it names no such event, else its continuation's epoch (undefined
 * for an id numbered on after 0).
 */
function continuationOf(id: string | undefined): Continuation | undefined {
  const parts = id === undefined ? null : /:(?:r(\d{1,15})\.)?(\d{1,15})$/.exec(id);
  if (parts === null || (parts[1] === undefined && Number(parts[2]) === 0)) return undefined;
  return { epoch: parts[1] === undefined ? undefined : Number(parts[1]) };
}

/**
 * Options of {@link ChunkWindow.evict}.
 *
 * @example
 * ```ts
 * window.evict({ force: true } satisfies EvictOptions); // trim now, even while scrolled up
 * ```
 */
export interface EvictOptions {
  /** Evict even while the user is scrolled up. */
  readonly force?: boolean | undefined;
}

/**
 * Options of {@link ChunkWindow.reload}.
 *
 * @example
 * ```ts
 * const { turnId } = await client.regenerate('turn-7');
 * await window.reload({ keepTurnId: turnId } satisfies ReloadOptions);
 * ```
 */
export interface ReloadOptions {
  /**
   * A turn of the new path to keep following live: the turn an edit or a regenerate started. Its
   * live rows and pending user message stay, and its stored rows are left out of the first page
   * while it runs, so that its events keep streaming. Everything else held is dropped.
   */
  readonly keepTurnId?: string | undefined;
}

/** What the listeners were last told about. */
interface Published {
  sealed: WindowState['sealed'];
  segments: WindowState['segments'];
  scrolledUp: boolean;
  loadingOlder: boolean;
  reconcileStatus: ReconcileStatus;
}

/**
 * The headless client window of one thread: what a chat UI holds in memory. It folds live events
 * into the current turn, keeps the log within `limit` entries by rolling per-chunk eviction,
 * pages older history in through `loadPage`, and replaces live rows by stored ones at
 * `reconcile()`. Framework-free: bind it with `subscribe` and `getSnapshot`.
 *
 * @example
 * ```ts
 * const window = new ChunkWindow({
 *   limit: 300,
 *   loadPage: ({ limit, before }) => store.getChunks(threadId, { limit, before }),
 * });
 * await window.loadOlder(); // the newest page
 * socket.onmessage = (m) => {
 *   const event = JSON.parse(m.data);
 *   window.apply(event);
 *   if (event.type === 'turn-end') void window.reconcile();
 * };
 * window.subscribe(({ groups }) => render(groups));
 * ```
 */
export class ChunkWindow {
  private readonly options: ResolvedWindowOptions;
  private state: WindowState = EMPTY_WINDOW_STATE;
  private scrolled = false;
  private loadingOlder = false;
  private keys = 0;
  private olderRun: Promise<void> | null = null;
  /** Bumped by `reload()`: answers requested for an older path are dropped when they land. */
  private path = 0;
  /** The path the reconciler's tail was requested for. */
  private tailPath = 0;
  /** Set by `reload()` until its first page is merged: the turn it keeps following. */
  private reloaded: { readonly keepTurnId: string | undefined } | null = null;
  private readonly reconciler: Reconciler = new Reconciler({
    fetchTail: () => {
      this.tailPath = this.path;
      return fetchPage(this.options.loadPage, { limit: this.options.limit }, () => this.threadId());
    },
    scrolledUp: () => this.scrolled,
    endedTurns: () => {
      const ended = new Set<number>();
      for (const segment of this.state.segments) {
        if (segment.kind === 'turn' && segment.closed) ended.add(segment.key);
      }
      return ended;
    },
    merge: (page, ended, giveUp) => {
      // A tail of the path before a reload: the reload's own page stands for it.
      if (this.tailPath !== this.path) return new Set();
      const merged = mergeTail(this.state, page, ended, giveUp);
      this.state = this.evictIfAllowed(merged.state);
      return merged.waiting;
    },
    commit: () => this.commit(),
  });
  private readonly listeners = new Listeners<ChunkWindowSnapshot>();
  private view: LogView = new LogView(EMPTY_WINDOW_STATE.sealed, EMPTY_WINDOW_STATE.segments);
  private snapshot: ChunkWindowSnapshot | undefined;
  private readonly published: Published = {
    sealed: EMPTY_WINDOW_STATE.sealed,
    segments: EMPTY_WINDOW_STATE.segments,
    scrolledUp: false,
    loadingOlder: false,
    reconcileStatus: 'idle',
  };

  /**
   * @param options - `limit`, `pageSize` (default 50) and `loadPage`
   * @throws {ChunklogError} `invalid-option`, naming the option
   */
  constructor(options: ChunkWindowOptions) {
    this.options = resolveWindowOptions(options);
  }

  /**
   * The flat log: stored rows (oldest first), then rows not stored yet.
   *
   * @example
   * ```ts
   * const unsent = window.log.filter((entry) => entry.live).length;
   * ```
   */
  get log(): readonly LogEntry[] {
    return this.getSnapshot().log;
  }

  /**
   * `groupRowsToMessages(log)`: messages keyed `${turnId}:${role}`, stable when a turn is stored.
   *
   * @example
   * ```ts
   * for (const message of window.groups) render(message.id, message.role, message.chunks);
   * ```
   */
  get groups(): readonly ChatMessage[] {
    return this.getSnapshot().groups;
  }

  /**
   * Whether `loadOlder()` may bring older rows (true until a page says otherwise).
   *
   * @example
   * ```ts
   * if (window.hasOlder) await window.loadOlder();
   * ```
   */
  get hasOlder(): boolean {
    return this.state.sealed.hasOlder;
  }

  /** The thread's row count, as the latest page said. */
  get total(): number {
    return this.state.sealed.total;
  }

  /** The smallest `seq` held, or null. */
  get oldestSeq(): number | null {
    return this.state.sealed.oldestSeq;
  }

  /** The id of the newest turn not stored yet, or null. */
  get liveTurnId(): string | null {
    return this.getSnapshot().liveTurnId;
  }

  /** Whether the user is scrolled up. */
  get scrolledUp(): boolean {
    return this.scrolled;
  }

  /**
   * The current snapshot; the same object until something changes (for `useSyncExternalStore`).
   * Bound: it can be passed around without its object.
   *
   * @returns the snapshot
   *
   * @example
   * ```ts
   * const snapshot = useSyncExternalStore(window.subscribe, window.getSnapshot);
   * ```
   */
  readonly getSnapshot: () => ChunkWindowSnapshot = () => {
    if (this.snapshot === undefined) {
      const { sealed, segments } = this.state;
      if (this.view.sealed !== sealed || this.view.segments !== segments) {
        this.view = new LogView(sealed, segments);
      }
      this.snapshot = windowSnapshot(this.state, this.view, {
        scrolledUp: this.scrolled,
        loadingOlder: this.loadingOlder,
        reconcileStatus: this.reconciler.status,
      });
    }
    return this.snapshot;
  };

  /**
   * Calls `listener` with the new snapshot after every change, and never for a call that changed
   * nothing. Bound: it can be passed around without its object.
   *
   * @param listener - the listener
   * @returns a function that unsubscribes it
   * @throws {ChunklogError} `invalid-option` when `listener` is not a function
   *
   * @example
   * ```ts
   * const unsubscribe = window.subscribe((snapshot) => render(snapshot.groups));
   * ```
   */
  readonly subscribe: (listener: ChunkWindowListener) => () => void = (listener) => {
    if (typeof listener !== 'function') {
      invalidOption('ChunkWindow.subscribe', 'listener', '`listener` must be a function', listener);
    }
    return this.listeners.add(listener);
  };

  /**
   * Folds one live event. `turn-start` begins a turn; other events go to the current turn. Then,
   * unless the user is scrolled up, rolling eviction keeps the log within `limit`.
   *
   * @param event - a wire event (validated: it may come straight from `JSON.parse`)
   * @param options - `id`: the event's id on the wire, to follow a continued turn (a session
   *   listener's `meta` will do)
   * @returns whether the event changed what the window holds: false for one it ignored (an event
   *   of a turn it holds as stored rows, as a replay of the latest turn is) or that changed
   *   nothing; true for the `turn-end` of a turn it followed live, also when `reconcile()` found
   *   the turn stored before that event came
   * @throws {ChunklogError} `invalid-event` when it is not a valid event, `invalid-option` for an
   *   unknown option or an `id` that is not a string; nothing changes then
   *
   * @example
   * ```ts
   * source.onmessage = (message) => {
   *   const event = JSON.parse(message.data);
   *   const applied = window.apply(event, { id: message.lastEventId });
   *   if (applied && event.type === 'turn-end') void window.reconcile();
   * };
   * ```
   */
  apply(event: ChunkEvent, options?: ApplyOptions): boolean {
    const parsed = safeParseWith(chunkEventMini, event, 'invalid-event', 'chunk event');
    if (!parsed.success) {
      const { message, path, value, cause } = parsed.error;
      throw new ChunklogError('invalid-event', `ChunkWindow.apply: ${message}`, {
        path,
        value,
        cause,
      });
    }
    let continuation: Continuation | undefined;
    if (options !== undefined) {
      const o = readOptions(options, 'ChunkWindow.apply', ['id', 'turnId', 'index']);
      const { id } = o;
      if (id !== undefined && typeof id !== 'string') {
        invalidOption('ChunkWindow.apply', 'id', '`id` must be a string', id);
      }
      if (o.turnId !== undefined && typeof o.turnId !== 'string') {
        invalidOption('ChunkWindow.apply', 'turnId', '`turnId` must be a string', o.turnId);
      }
      if (o.index !== undefined && !(Number.isInteger(o.index) && (o.index as number) >= 0)) {
        invalidOption('ChunkWindow.apply', 'index', '`index` must be an integer ≥ 0', o.index);
      }
      continuation = continuationOf(id);
    }
    // A turn continued after a crash starts again mid-turn (`t1:17`, not `t1:0`), or in a
    // numbering of its own (`t1:r12.0`).
    const before = this.state;
    const next = applyEvent(before, parsed.value, () => ++this.keys, continuation);
    if (next === before) return false;
    this.state = this.evictIfAllowed(next);
    this.commit();
    // The `turn-end` of a turn followed live that a reconcile found stored first counts too.
    const ended = before.target.kind === 'ignore' && next.target.kind === 'none';
    return next.segments !== before.segments || next.sealed !== before.sealed || ended;
  }

  /**
   * Shows a user message at once, before it is stored. It is replaced by the stored rows at
   * `reconcile()`.
   *
   * @param content - the text, or the message's chunks (text, files)
   * @param options - `turnId`: the turn it starts, when the app knows it
   * @returns the message's id, for {@link ChunkWindow.removePendingUserMessage}
   * @throws {ChunklogError} `invalid-chunk` for an invalid chunk (or content that is neither a
   *   string nor an array), `invalid-option` for an unknown option or an empty `turnId`; nothing
   *   changes then
   *
   * @example
   * ```ts
   * const pending = window.addPendingUserMessage('Summarize the diff', { turnId });
   * ```
   */
  addPendingUserMessage(
    content: string | readonly Chunk[],
    options: PendingUserMessageOptions = {},
  ): string {
    const chunks: Chunk[] =
      typeof content === 'string'
        ? [{ type: 'text', step: 0, text: content }]
        : [
            ...checkList<Chunk>(content, {
              schema: chunkMini,
              code: 'invalid-chunk',
              where: 'ChunkWindow.addPendingUserMessage',
              argument: 'content',
              what: 'chunk',
            }),
          ];
    const turnId =
      readOptions(options, 'ChunkWindow.addPendingUserMessage', ['turnId']).turnId ?? null;
    if (turnId !== null && (typeof turnId !== 'string' || turnId === '')) {
      invalidOption(
        'ChunkWindow.addPendingUserMessage',
        'turnId',
        '`turnId` must be a non-empty string',
        turnId,
      );
    }
    const pending = createPending(++this.keys, this.keys, chunks, turnId);
    // A message of a turn already stored is shown by its stored rows.
    if (turnId !== null && this.state.sealed.turnIds.has(turnId)) return pending.id;
    const segments = insertPending(this.state.segments, pending);
    this.state = this.evictIfAllowed({ ...this.state, segments });
    this.commit();
    return pending.id;
  }

  /**
   * Removes a pending user message (for example when sending it failed).
   *
   * @param id - the id {@link ChunkWindow.addPendingUserMessage} returned
   * @returns whether it was there
   *
   * @example
   * ```ts
   * const pending = window.addPendingUserMessage(text);
   * send(text).catch(() => window.removePendingUserMessage(pending));
   * ```
   */
  removePendingUserMessage(id: string): boolean {
    const segments = this.state.segments.filter((s) => s.kind !== 'pending' || s.id !== id);
    if (segments.length === this.state.segments.length) return false;
    this.state = { ...this.state, segments };
    this.commit();
    return true;
  }

  /**
   * Says whether the user is scrolled up. While they are, nothing is evicted and `reconcile()`
   * waits; coming back down evicts to `limit` and runs a waiting reconcile.
   *
   * @param scrolledUp - whether the user is away from the bottom
   * @throws {ChunklogError} `invalid-option` when `scrolledUp` is not a boolean
   *
   * @example
   * ```ts
   * list.onscroll = () =>
   *   window.setScrolledUp(list.scrollHeight - list.scrollTop - list.clientHeight > 40);
   * ```
   */
  setScrolledUp(scrolledUp: boolean): void {
    if (typeof scrolledUp !== 'boolean') {
      invalidOption(
        'ChunkWindow.setScrolledUp',
        'scrolledUp',
        '`scrolledUp` must be a boolean',
        scrolledUp,
      );
    }
    if (this.scrolled === scrolledUp) return;
    this.scrolled = scrolledUp;
    if (!scrolledUp) {
      this.state = this.evictIfAllowed(this.state);
      this.reconciler.pump();
    }
    this.commit();
  }

  /**
   * Runs rolling eviction now. It does nothing while the user is scrolled up, unless forced.
   *
   * @param options - `force`: evict even while scrolled up
   * @returns how many log entries were dropped
   * @throws {ChunklogError} `invalid-option` for an unknown option or a `force` that is not a boolean
   *
   * @example
   * ```ts
   * const dropped = window.evict(); // 0 while scrolled up
   * ```
   */
  evict(options: EvictOptions = {}): number {
    const { force } = readOptions(options, 'ChunkWindow.evict', ['force']);
    if (force !== undefined && typeof force !== 'boolean') {
      invalidOption('ChunkWindow.evict', 'force', '`force` must be a boolean', force);
    }
    if (this.scrolled && force !== true) return 0;
    const { state, dropped } = evictToLimit(this.state, this.options.limit);
    this.state = state;
    this.commit();
    return dropped;
  }

  /**
   * Loads the page before the oldest row held (the newest page when nothing is held) and merges
   * it, deduplicated by `seq`. Concurrent calls share one request. A page that no longer fits
   * (the window changed meanwhile) is dropped.
   *
   * @returns a promise that settles when the page is merged
   * @throws {ChunklogError} `load-failed` (rejection), with the cause; the state is unchanged and
   *   the call can be retried
   *
   * @example
   * ```ts
   * topSentinel.onvisible = () => window.hasOlder && void window.loadOlder();
   * ```
   */
  loadOlder(): Promise<void> {
    if (this.olderRun !== null) return this.olderRun;
    const { sealed } = this.state;
    if (!sealed.hasOlder) return Promise.resolve();
    const before = sealed.cursor;
    const request: LoadPageRequest =
      before === undefined
        ? { limit: this.options.pageSize }
        : { limit: this.options.pageSize, before };
    const path = this.path;
    const run = fetchPage(this.options.loadPage, request, () => this.threadId()).then(
      (page) => {
        if (this.path !== path) return; // a page of the path before a reload
        this.olderRun = null;
        this.loadingOlder = false;
        if (this.state.sealed.cursor === before) {
          const reloaded = before === undefined ? this.reloaded : null;
          this.reloaded = null;
          // The first page (the tail) leaves out the steps stored so far of a turn followed live.
          const merged =
            before === undefined
              ? mergeFirstPage(this.state, page, reloaded?.keepTurnId)
              : mergeOlderPage(this.state, page);
          this.state = this.evictIfAllowed(merged);
        }
        this.commit();
      },
      (error: unknown) => {
        if (this.path !== path) return;
        this.olderRun = null;
        this.loadingOlder = false;
        this.commit();
        throw error;
      },
    );
    this.olderRun = run;
    this.loadingOlder = true;
    this.commit();
    return run;
  }

  /**
   * Call when a turn ends: fetches the tail (`limit` rows) and replaces the live turns it holds,
   * and their pending user rows, by the stored rows, which also brings back live chunks evicted
   * mid-turn. An ended turn not in the tail yet (its write has not committed) is fetched for again
   * a few times over about 3 s. Turns that start meanwhile keep streaming. While the user is
   * scrolled up it waits until they are back at the bottom. Calls made during a fetch share one
   * follow-up fetch.
   *
   * @returns a promise that settles when the tail is merged
   * @throws {ChunklogError} `load-failed` (rejection), with the cause; the state is unchanged and
   *   the call can be retried
   *
   * @example
   * ```ts
   * window.apply(event);
   * if (event.type === 'turn-end') void window.reconcile();
   * ```
   */
  reconcile(): Promise<void> {
    const done = this.reconciler.request();
    this.commit();
    return done;
  }

  /**
   * Drops everything the window holds and loads the newest page again, as a fresh window would:
   * for when the server's thread now shows another path (an alternative was switched to, or an
   * edit or a regenerate started a new version). No row of the old path stays in memory; pages
   * and requests still in flight for it are dropped when they land; eviction and paging then work
   * by the seqs of the new path. `keepTurnId` keeps following the turn that started the new
   * version.
   *
   * @param options - `keepTurnId`: a live turn of the new path to keep
   * @returns a promise that settles when the newest page is merged
   * @throws {ChunklogError} `invalid-option` for an unknown option or an empty `keepTurnId`
   *   (thrown, nothing changes); `load-failed` (rejection) when the page could not be loaded: the
   *   window is then empty and `loadOlder()` retries
   *
   * @example
   * ```ts
   * await fetch(`/api/threads/${threadId}/alternatives`, { method: 'POST', body });
   * await window.reload();
   * ```
   */
  reload(options: ReloadOptions = {}): Promise<void> {
    const { keepTurnId } = readOptions(options, 'ChunkWindow.reload', ['keepTurnId']);
    if (keepTurnId !== undefined && (typeof keepTurnId !== 'string' || keepTurnId === '')) {
      invalidOption(
        'ChunkWindow.reload',
        'keepTurnId',
        '`keepTurnId` must be a non-empty string',
        keepTurnId,
      );
    }
    this.path++;
    this.olderRun = null;
    this.loadingOlder = false;
    this.reloaded = { keepTurnId: keepTurnId as string | undefined };
    this.state = reloadState(this.state, keepTurnId as string | undefined);
    return this.loadOlder();
  }

  private threadId(): string | undefined {
    return this.state.sealed.threadId;
  }

  private evictIfAllowed(state: WindowState): WindowState {
    return this.scrolled ? state : evictToLimit(state, this.options.limit).state;
  }

  /**
   * Publishes a change, if there was a visible one, to the listeners. Only what a snapshot shows
   * counts: where the next event goes, for instance, is not a change.
   */
  private commit(): void {
    const p = this.published;
    const { sealed, segments } = this.state;
    const status = this.reconciler.status;
    if (
      p.sealed === sealed &&
      p.segments === segments &&
      p.scrolledUp === this.scrolled &&
      p.loadingOlder === this.loadingOlder &&
      p.reconcileStatus === status
    ) {
      return;
    }
    p.sealed = sealed;
    p.segments = segments;
    p.scrolledUp = this.scrolled;
    p.loadingOlder = this.loadingOlder;
    p.reconcileStatus = status;
    this.snapshot = undefined;
    this.listeners.notify(this.getSnapshot);
  }
}
