import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { invalidOption } from '../errors/invalid-option.js';
import type { Chunk } from '../schema/chunk.js';
import type { FinishReason, TokenUsage } from '../schema/usage.js';
import { type AlternativesSnapshot, ChunkAlternatives } from '../window/chunk-alternatives.js';
import { ChunkWindow } from '../window/chunk-window.js';
import type { ChunkWindowSnapshot } from '../window/snapshot.js';
import {
  type ConnectionStatus,
  connectThreadEvents,
  type EventSourceLike,
} from './connect-events.js';
import { type LiveTurn, liveTurnOf } from './live-turn.js';
import {
  type ClientNoticeKind,
  createThreadClient,
  type SentMessage,
  type ThreadClient,
  type ThreadClientOptions,
} from './thread-client.js';
import { useChunkWindow } from './use-chunk-window.js';

/**
 * Options of {@link useChunkThread}: the thread's routes (see {@link ThreadClientOptions}) and
 * the window's size.
 *
 * @example
 * ```ts
 * const options: UseChunkThreadOptions = { threadId: 't1', basePath: '/api', limit: 300 };
 * ```
 */
export interface UseChunkThreadOptions extends ThreadClientOptions {
  /** The window's `limit`: log entries held while the user is at the bottom. Default 300. */
  readonly limit?: number | undefined;
  /** Rows per older page. Default 50. */
  readonly pageSize?: number | undefined;
  /** Follow the live events (`GET …/events`). Default true. */
  readonly live?: boolean | undefined;
  /** Opens the event stream. Default: the browser's `EventSource`. */
  readonly createEventSource?: ((url: string) => EventSourceLike) | undefined;
  /** Send cookies with the default `EventSource` to another origin. */
  readonly withCredentials?: boolean | undefined;
  /** Makes the turn id of a sent message. Default: `crypto.randomUUID()`. */
  readonly newTurnId?: (() => string) | undefined;
  /**
   * Read the conversation's alternatives (`GET …/alternatives`) once a page shows rows and after
   * every turn. Default true; false for handlers without the route.
   */
  readonly alternatives?: boolean | undefined;
}

/** The last turn that ended while the page was open: what its `turn-end` reported. */
export interface EndedTurn {
  readonly turnId: string | null;
  readonly usage: TokenUsage | undefined;
  readonly finishReason: FinishReason | undefined;
}

/**
 * A thread as a React component uses it (see {@link useChunkThread}).
 *
 * @example
 * ```tsx
 * const { snapshot, turn, send, cancel } = useChunkThread({ threadId: 't1', basePath: '/api' });
 * ```
 */
export interface ChunkThread {
  /** The window (for `setScrolledUp`, `evict`, …). */
  readonly window: ChunkWindow;
  /** The thread's HTTP client. */
  readonly client: ThreadClient;
  /** The window's snapshot: `groups` to render, `log`, `hasOlder`, … */
  readonly snapshot: ChunkWindowSnapshot;
  /** The live turn: `idle`, `running` or `ended`. */
  readonly turn: LiveTurn;
  /** What the last `turn-end` of a turn followed live reported (its usage), or undefined. */
  readonly lastTurn: EndedTurn | undefined;
  /** The event stream's connection. */
  readonly connection: ConnectionStatus;
  /**
   * The last failure (a `request-failed`, `load-failed` or `invalid-event` ChunklogError), or
   * undefined. Cleared when the first page loads, when a `send`, `steer`, `edit`, `regenerate`
   * or `switchAlternative` succeeds, and when the event stream opens: `connection` turns `'open'`
   * (at the start, and again after a drop) and `error` is undefined in the same render. A first
   * page that had failed is loaded again at that open instead, and its answer sets or clears
   * `error`. A failure after the open (the reconnected stream's `gap` failing to reconcile) sets
   * it again.
   */
  readonly error: unknown;
  /** The versions of the conversation's turns, beside the window (`refresh`, `getSnapshot`, …). */
  readonly alternatives: ChunkAlternatives;
  /**
   * A turn's versions: its index, their count and the versions (each with the `threadId` to
   * switch to), or undefined for a turn with one version. Re-rendered when they change.
   */
  readonly versionsOf: AlternativesSnapshot['versionsOf'];
  /** Whether a switch, an edit or a regenerate is reloading the window. */
  readonly switching: boolean;
  /** Sends a message (queued behind a running turn), shown at once as a pending message. Resolves to undefined on failure (see `error`). */
  send(text: string): Promise<SentMessage | undefined>;
  /**
   * Adds a message to the running turn. Resolves to its `steeringId`, or to undefined on failure
   * (see `error`). Should a cancel end the turn before the model reads it, the turn's `cancelled`
   * system chunk lists it in `dropped` under that id, so the UI can give the text back.
   */
  steer(text: string): Promise<{ readonly steeringId: string } | undefined>;
  /**
   * Cancels the live turn (only that one). Resolves to whether a turn was cancelled. When the
   * server runs no such turn (it ended meanwhile, or it died with a server that restarted
   * mid-turn, so that its end never comes), the window reloads from the store: the turn shows as
   * stored, or not at all, and `turn.status` is no longer `running`.
   */
  cancel(reason?: string): Promise<boolean>;
  /** Records a system notice in the thread. Resolves to false on failure. */
  notify(text: string, kind?: ClientNoticeKind): Promise<boolean>;
  /** Loads the page before the oldest row held (see `snapshot.hasOlder`). Never rejects. */
  loadOlder(): Promise<void>;
  /** Tells the window whether the user is scrolled up (no eviction, reconcile deferred). */
  setScrolledUp(scrolledUp: boolean): void;
  /**
   * Makes a version's path active (a `threadId` from `versionsOf(turnId).versions`)
   * and reloads the window on it. Resolves to false on failure (see `error`).
   *
   * @throws {ChunklogError} `invalid-option` (thrown) for an empty id or one no branch lists
   */
  switchAlternative(threadId: string): Promise<boolean>;
  /**
   * A new version of turn `turnId` with its user message edited to `text`: it becomes the active
   * path, the window reloads on it and the new turn streams. Resolves to undefined on failure.
   *
   * @throws {ChunklogError} `invalid-option` (thrown) for an empty `turnId` or `text`
   */
  edit(turnId: string, text: string): Promise<SentMessage | undefined>;
  /**
   * A new answer to turn `turnId`, on a new active path: the window reloads on it and the new
   * answer streams. Resolves to undefined on failure.
   *
   * @throws {ChunklogError} `invalid-option` (thrown) for an empty `turnId`
   */
  regenerate(turnId: string): Promise<SentMessage | undefined>;
}

interface Held {
  readonly key: string;
  readonly window: ChunkWindow;
  readonly client: ThreadClient;
  readonly alternatives: ChunkAlternatives;
  /**
   * The window's first page: not asked for yet, on its way, loaded, or failed (then asked for
   * again when the event stream opens).
   */
  page: 'none' | 'loading' | 'loaded' | 'failed';
}

function nonEmpty(where: string, name: string, value: unknown): void {
  if (typeof value !== 'string' || value.trim() === '') {
    invalidOption(where, name, `\`${name}\` must be a non-empty string`, value);
  }
}

function randomTurnId(): string {
  return `turn-${globalThis.crypto.randomUUID()}`;
}

/**
 * One thread of chunklog's handlers in a component: a {@link ChunkWindow} over its pages, fed by
 * its live events, with `send`, `steer`, `cancel` and `notify`. On mount it opens the event
 * stream, then loads the newest page (so that no turn falls in between); a `turn-end` or a gap
 * reconciles the window with the store. A new `threadId`, `basePath`, `limit` or `pageSize`
 * starts a new window. Server rendering returns the empty snapshot and touches no browser global
 * (the stream opens in an effect).
 *
 * @param options - the thread, the handlers' base path, the window's size
 * @returns the snapshot, the live turn, and the actions
 *
 * @example
 * ```tsx
 * function Chat({ threadId }: { threadId: string }) {
 *   const thread = useChunkThread({ threadId, basePath: '/api' });
 *   return (
 *     <>
 *       {thread.snapshot.groups.map((message) => <Message key={message.id} message={message} />)}
 *       <button onClick={() => thread.send('Hello')}>Send</button>
 *       {thread.turn.status === 'running' && <button onClick={() => thread.cancel()}>Stop</button>}
 *     </>
 *   );
 * }
 * ```
 */
export function useChunkThread(options: UseChunkThreadOptions): ChunkThread {
  const latest = useRef(options);
  latest.current = options;
  const { threadId, basePath, limit = 300, pageSize, live = true } = options;
  const key = JSON.stringify([threadId, basePath ?? '', limit, pageSize ?? null]);
  const held = useRef<Held | null>(null);
  if (held.current === null || held.current.key !== key) {
    const client = createThreadClient({
      threadId,
      basePath,
      // Read at call time, so that new headers or a new fetch need no new window.
      fetch: (input, init) => {
        const { fetch = globalThis.fetch, headers = {} } = latest.current;
        return fetch(input, {
          ...init,
          headers: { ...headers, ...(init?.headers as Record<string, string> | undefined) },
        });
      },
    });
    const window = new ChunkWindow({
      limit,
      ...(pageSize !== undefined ? { pageSize } : {}),
      loadPage: client.loadPage,
    });
    const alternatives = new ChunkAlternatives({
      window,
      loadAlternatives: client.alternatives,
      switchAlternative: client.switchAlternative,
    });
    held.current = { key, window, client, alternatives, page: 'none' };
  }
  const { window, client, alternatives } = held.current;
  const snapshot = useChunkWindow(window);
  const versions = useSyncExternalStore(
    alternatives.subscribe,
    alternatives.getSnapshot,
    alternatives.getSnapshot,
  );
  const [connection, setConnection] = useState<ConnectionStatus>('connecting');
  // Kept with the window they are about: after a switch of thread, the old thread's error and
  // last turn are not shown, and a late answer about it is dropped.
  const [errorOf, setErrorOf] = useState<{ window: ChunkWindow; error: unknown }>();
  const [lastTurnOf, setLastTurnOf] = useState<{ window: ChunkWindow; turn: EndedTurn }>();
  const error = errorOf?.window === window ? errorOf.error : undefined;
  const lastTurn = lastTurnOf?.window === window ? lastTurnOf.turn : undefined;
  const setError = useCallback(
    (value: unknown) => {
      // A late answer about a thread no longer shown changes nothing.
      setErrorOf((now) => (held.current?.window === window ? { window, error: value } : now));
    },
    [window],
  );

  useEffect(() => {
    const current = held.current as Held;
    const refresh = () => {
      if (latest.current.alternatives !== false) alternatives.refresh().catch(setError);
    };
    const loadFirstPage = () => {
      current.page = 'loading';
      window.loadOlder().then(
        () => {
          current.page = 'loaded';
          setError(undefined);
          // An empty thread may not exist yet: it has no alternatives to ask for.
          if (window.getSnapshot().total > 0) refresh();
        },
        (failure: unknown) => {
          current.page = 'failed';
          setError(failure);
        },
      );
    };
    // The stream is open (again, after a drop): what failed before is stale. The window catches
    // up by itself (the server replays what it missed, or sends a gap and it reconciles); a first
    // page that failed to load is asked for again, and its answer decides the error.
    const opened = () => {
      if (current.page === 'failed') loadFirstPage();
      else setError(undefined);
    };
    // The turn whose `turn-start` this connection applied last: its `turn-end` ends it, also when
    // a reconcile found it stored first (the window then follows no live turn).
    let followed: string | null = null;
    const disconnect = live
      ? connectThreadEvents(window, client.eventsUrl, {
          createEventSource: latest.current.createEventSource,
          withCredentials: latest.current.withCredentials,
          onStatus: (status) => {
            setConnection(status);
            if (status === 'open') opened();
          },
          onError: setError,
          // Events the window applied: a replay of a stored turn ends no turn followed here.
          onEvent: (event) => {
            if (event.type === 'turn-start') followed = event.turnId;
            if (event.type !== 'turn-end') return;
            refresh(); // the turn is stored: a new version now names its turn
            const turnId = window.getSnapshot().liveTurnId ?? followed;
            followed = null;
            setLastTurnOf((now) =>
              held.current?.window !== window
                ? now
                : {
                    window,
                    turn: { turnId, usage: event.usage, finishReason: event.finishReason },
                  },
            );
          },
        })
      : undefined;
    // Once per window (a strict-mode remount must not load a second, older page).
    if (current.page === 'none') loadFirstPage();
    return disconnect;
  }, [window, client, alternatives, live, setError]);

  const failed = useCallback(
    (failure: unknown) => {
      setError(failure);
      return undefined;
    },
    [setError],
  );

  /** Starts a new version (edit, regenerate) and follows it; a failure lands in `error`. */
  const startVersion = useCallback(
    async (
      start: () => Promise<SentMessage>,
      content: string | readonly Chunk[] | undefined,
    ): Promise<SentMessage | undefined> => {
      let sent: SentMessage | undefined;
      try {
        await alternatives.startVersion(
          async () => {
            sent = await start();
            return sent;
          },
          { content },
        );
        setError(undefined);
        return sent;
      } catch (failure) {
        return failed(failure);
      }
    },
    [alternatives, failed, setError],
  );

  const actions = useMemo(
    () => ({
      async send(text: string): Promise<SentMessage | undefined> {
        const turnId = (latest.current.newTurnId ?? randomTurnId)();
        const pending = window.addPendingUserMessage(text, { turnId });
        try {
          const sent = await client.send(text, { turnId });
          setError(undefined);
          return sent;
        } catch (failure) {
          window.removePendingUserMessage(pending);
          return failed(failure);
        }
      },
      async steer(text: string): Promise<{ readonly steeringId: string } | undefined> {
        try {
          const steered = await client.steer(text);
          setError(undefined);
          return steered;
        } catch (failure) {
          return failed(failure);
        }
      },
      async cancel(reason?: string): Promise<boolean> {
        const turnId = window.getSnapshot().liveTurnId;
        try {
          const cancelled = await client.cancel({
            ...(reason !== undefined ? { reason } : {}),
            ...(turnId !== null && !turnId.startsWith('~') ? { turnId } : {}),
          });
          if (!cancelled && turnId !== null && window.getSnapshot().liveTurnId === turnId) {
            // No server runs the turn shown as running: it was stored meanwhile, or it died
            // with a server that restarted mid-turn (its end never came). Show the store's.
            await window.reload();
          }
          return cancelled;
        } catch (failure) {
          failed(failure);
          return false;
        }
      },
      async notify(text: string, kind?: ClientNoticeKind): Promise<boolean> {
        try {
          await client.notify(text, kind);
          return true;
        } catch (failure) {
          failed(failure);
          return false;
        }
      },
      async loadOlder(): Promise<void> {
        if (!window.getSnapshot().hasOlder) return;
        try {
          await window.loadOlder();
          // A first page whose own load had failed is in now: the stream's next open need not
          // ask for it again.
          if (held.current?.window === window) held.current.page = 'loaded';
        } catch (failure) {
          failed(failure);
        }
      },
      setScrolledUp(scrolledUp: boolean): void {
        window.setScrolledUp(scrolledUp);
      },
      switchAlternative(threadId: string): Promise<boolean> {
        // Bad arguments throw here; a failed request lands in `error`.
        return alternatives.switchAlternative(threadId).then(
          () => {
            setError(undefined);
            return true;
          },
          (failure: unknown) => {
            failed(failure);
            return false;
          },
        );
      },
      edit(turnId: string, text: string): Promise<SentMessage | undefined> {
        nonEmpty('useChunkThread.edit', 'turnId', turnId);
        nonEmpty('useChunkThread.edit', 'text', text);
        return startVersion(() => client.edit(turnId, text), text);
      },
      regenerate(turnId: string): Promise<SentMessage | undefined> {
        nonEmpty('useChunkThread.regenerate', 'turnId', turnId);
        // The new answer's user message is the same: show it at once, as a sent one is.
        const asked = window.getSnapshot().groups.find((m) => m.id === `${turnId}:user`);
        return startVersion(() => client.regenerate(turnId), asked?.chunks);
      },
    }),
    [window, client, alternatives, failed, startVersion, setError],
  );

  const { liveTurnId, liveTurn } = snapshot;
  // biome-ignore lint/correctness/useExhaustiveDependencies: the turn changes only with these two
  const turn = useMemo(() => liveTurnOf(snapshot), [liveTurnId, liveTurn]);
  return {
    window,
    client,
    snapshot,
    turn,
    lastTurn,
    connection,
    error,
    alternatives,
    versionsOf: versions.versionsOf,
    switching: versions.switching,
    ...actions,
  };
}
