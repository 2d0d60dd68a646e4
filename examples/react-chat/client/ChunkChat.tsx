// The chunk-native view on `chunklog/react`: `useChunkThread` keeps a ChunkWindow over the
// thread's pages, fed by its live events. The window bounds what the page holds: at the bottom it
// evicts the oldest chunks past `limit`; scrolled up, it keeps them and loads older pages.
import type { ChatMessage } from 'chunklog';
import { useChunkThread } from 'chunklog/react';
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { describeWindow, WINDOW_STATS_LEGEND } from '../../shared/window-stats.js';
import { type MessageEditing, MessageView, type UserMessageStatus } from './Chunks.js';
import { Composer } from './Composer.js';
import { EmptyHint } from './EmptyHint.js';
import { formatUsage } from './usage.js';
import { useTurnEnd } from './use-turn-end.js';

const offsetIn = (log: HTMLElement, node: HTMLElement) =>
  node.getBoundingClientRect().top - log.getBoundingClientRect().top;

/** The first chunk visible at the top of the log, and how far from the top it is. */
function firstVisible(log: HTMLElement): { key: string; offset: number } | null {
  for (const node of log.querySelectorAll<HTMLElement>('[data-anchor]')) {
    const offset = offsetIn(log, node);
    if (offset + node.offsetHeight > 0) return { key: node.dataset.anchor as string, offset };
  }
  return null;
}

/** The text of a user message. */
const textOf = (message: ChatMessage): string =>
  message.chunks.map((chunk) => (chunk.type === 'text' ? chunk.text : '')).join('');

export function ChunkChat({
  threadId,
  limit,
  onTurnEnd,
}: {
  threadId: string;
  limit: number;
  /** Told when a turn ended (the header's thread list is read again). */
  onTurnEnd?: (() => void) | undefined;
}) {
  const thread = useChunkThread({
    threadId,
    basePath: '/api',
    limit,
    pageSize: Math.max(10, Math.floor(limit / 2)),
  });
  const { snapshot, turn, lastTurn } = thread;
  const logRef = useRef<HTMLElement>(null);
  const running = turn.status === 'running';
  useTurnEnd(running, onTurnEnd);

  // A user message is shown at once, before the server has it. It says "sending…" until the
  // server accepted it (the POST's 202) or its turn started, "queued" while the server holds it
  // behind the running turn, and then reads as sent: the answer streams under it.
  const [accepted, setAccepted] = useState<ReadonlyMap<string, { queued: boolean }>>(new Map());
  const statusOf = useMemo(() => {
    const pending = new Set<string>();
    const started = new Set<string>();
    for (const entry of snapshot.log) {
      if (entry.pending) pending.add(entry.turnId);
      else if (entry.live) started.add(entry.turnId);
    }
    if (snapshot.liveTurnId !== null) started.add(snapshot.liveTurnId);
    return (message: ChatMessage): UserMessageStatus | undefined => {
      const { turnId } = message;
      if (message.role !== 'user' || !pending.has(turnId) || started.has(turnId)) return undefined;
      const answer = accepted.get(turnId);
      if (answer === undefined) return 'sending';
      return answer.queued ? 'queued' : undefined;
    };
  }, [snapshot.log, snapshot.liveTurnId, accepted]);

  // At the bottom, follow what streams in. Scrolled up, keep the chunk the user reads where it
  // was while older pages are added above it.
  const followed = useRef(Number.NaN); // where the page last scrolled the log itself
  const anchor = useRef<{ key: string; offset: number } | null>(null);
  useLayoutEffect(() => {
    const log = logRef.current;
    if (!log) return;
    if (!snapshot.scrolledUp) {
      log.scrollTop = log.scrollHeight;
      followed.current = log.scrollTop;
      anchor.current = null;
      return;
    }
    const kept = anchor.current;
    const node = kept && log.querySelector<HTMLElement>(`[data-anchor="${CSS.escape(kept.key)}"]`);
    if (kept && node) log.scrollTop += offsetIn(log, node) - kept.offset;
    anchor.current = firstVisible(log);
  });

  // What the end-to-end test reads.
  useEffect(() => {
    const data = document.body.dataset;
    data.view = 'chunks';
    data.running = String(running);
    data.total = String(snapshot.total);
    data.reconcile = snapshot.reconcileStatus;
    data.rows = String(snapshot.log.length);
    data.loadingOlder = String(snapshot.loadingOlder);
    data.connection = thread.connection;
    data.switching = String(thread.switching);
  });

  const onScroll = () => {
    const log = logRef.current;
    if (!log) return;
    // The scroll the page made itself to follow the stream is not the user scrolling up, even
    // when more content arrived before its event.
    if (Math.abs(log.scrollTop - followed.current) < 2) return;
    followed.current = Number.NaN;
    anchor.current = firstVisible(log);
    thread.setScrolledUp(log.scrollHeight - log.scrollTop - log.clientHeight > 60);
    if (log.scrollTop < 150 && snapshot.hasOlder && !snapshot.loadingOlder) {
      void thread.loadOlder();
    }
  };
  const send = (text: string) => {
    thread.setScrolledUp(false); // back to the bottom, where the answer appears
    if (text.startsWith('/notice')) {
      void thread.notify(text.slice(7).trim() || 'A notice.');
      return;
    }
    // While a turn runs, the server queues it behind that turn.
    void thread.send(text).then((sent) => {
      if (sent === undefined) return; // not sent: the message is gone, the error shows
      setAccepted((before) => {
        const still = snapshotRef.current.log; // forget the turns stored since
        const pending = new Set(still.filter((e) => e.pending).map((e) => e.turnId));
        const next = new Map([...before].filter(([turnId]) => pending.has(turnId)));
        return next.set(sent.turnId, { queued: sent.queued });
      });
    });
  };
  const snapshotRef = useRef(snapshot);
  snapshotRef.current = snapshot;

  // Retry, on the error cards of the newest turn once it ended: the user's last message, sent
  // again as a new turn. One callback for every render, so that the messages stay memoized.
  const lastUser = [...snapshot.groups].reverse().find((message) => message.role === 'user');
  const latest = useRef({ send, text: '' });
  latest.current = { send, text: lastUser ? textOf(lastUser) : '' };
  const retry = useCallback(() => {
    const { send, text } = latest.current;
    if (text !== '') send(text);
  }, []);
  const newest = snapshot.groups.at(-1);
  const retryOn =
    !running && newest?.role === 'assistant' && latest.current.text !== '' ? newest.id : undefined;
  // Editable history: stored messages get their turn's versions, Edit and Regenerate. An edit or
  // a regenerate makes a new version of the turn; ‹ › switch the active path (the window
  // reloads on it). One object per turn and state, so that the messages stay memoized.
  const actions = useRef(thread);
  actions.current = thread;
  const onSwitch = useCallback((to: string) => {
    actions.current.setScrolledUp(false);
    void actions.current.switchAlternative(to);
  }, []);
  const onEdit = useCallback((turnId: string, text: string) => {
    actions.current.setScrolledUp(false);
    void actions.current.edit(turnId, text);
  }, []);
  const onRegenerate = useCallback((turnId: string) => {
    actions.current.setScrolledUp(false);
    void actions.current.regenerate(turnId);
  }, []);
  const busy = running || thread.switching;
  const { versionsOf } = thread;
  const editingOf = useMemo(() => {
    const made = new Map<string, MessageEditing>();
    return (message: ChatMessage): MessageEditing | undefined => {
      if (message.role !== 'user' && message.role !== 'assistant') return undefined;
      if (message.turnId.startsWith('~')) return undefined;
      let editing = made.get(message.turnId);
      if (editing === undefined) {
        editing = {
          versions: versionsOf(message.turnId),
          disabled: busy,
          onSwitch,
          onEdit,
          onRegenerate,
        };
        made.set(message.turnId, editing);
      }
      return editing;
    };
  }, [versionsOf, busy, onSwitch, onEdit, onRegenerate]);
  const stats = describeWindow(snapshot, limit);
  const usage = lastTurn?.usage ?? turn.usage;
  const empty = snapshot.groups.length === 0 && snapshot.total === 0 && !snapshot.loadingOlder;

  return (
    <>
      <header className="status-bar">
        <span className={`status ${turn.status}`} id="status">
          {running ? 'working…' : 'idle'}
        </span>
        {usage && (
          <span className="usage" id="usage" title="What the last turn's turn-end event reported">
            last turn: {formatUsage(usage)}
          </span>
        )}
        <span className="stats" id="stats" title={WINDOW_STATS_LEGEND}>
          {stats}
        </span>
      </header>
      <main className="log" id="log" ref={logRef} onScroll={onScroll} aria-live="polite">
        {snapshot.hasOlder && (
          <button
            type="button"
            className="older"
            disabled={snapshot.loadingOlder}
            onClick={() => {
              thread.setScrolledUp(true); // reading history: keep what is loaded
              void thread.loadOlder();
            }}
          >
            {snapshot.loadingOlder ? 'Loading…' : 'Show older messages'}
          </button>
        )}
        {empty && <EmptyHint />}
        {snapshot.groups.map((message) => (
          <MessageView
            key={message.id}
            message={message}
            status={statusOf(message)}
            live={running && message.turnId === turn.turnId}
            onRetry={message.id === retryOn ? retry : undefined}
            editing={statusOf(message) === undefined ? editingOf(message) : undefined}
          />
        ))}
        {thread.error ? (
          <div className="chunk error client-error" role="alert">
            {String((thread.error as Error).message ?? thread.error)}
          </div>
        ) : null}
      </main>
      <Composer
        running={running}
        onSend={send}
        onQueue={send}
        onSteer={(text) => void thread.steer(text)}
        onStop={() => void thread.cancel('Stopped by the user.')}
      />
    </>
  );
}
