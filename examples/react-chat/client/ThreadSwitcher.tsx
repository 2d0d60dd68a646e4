// The header's thread switcher: the store's newest threads (the example server's
// `GET /api/threads`, over `store.listThreads`), and a button that makes a new one
// (`POST /api/threads`, over `store.createThread`).
import { useCallback, useEffect, useState } from 'react';

interface ThreadItem {
  readonly id: string;
  readonly title?: string | undefined;
  readonly total: number;
}

async function listThreads(): Promise<ThreadItem[]> {
  const response = await fetch('/api/threads');
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  return ((await response.json()) as { threads: ThreadItem[] }).threads;
}

export function ThreadSwitcher({
  threadId,
  version,
  onSwitch,
}: {
  threadId: string;
  /** Changes when a turn ended: the list is read again (a thread was made or moved up). */
  version: number;
  onSwitch: (threadId: string) => void;
}) {
  const [threads, setThreads] = useState<readonly ThreadItem[]>([]);
  const refresh = useCallback(() => {
    listThreads().then(setThreads, () => {}); // the list is a convenience: keep the old one
  }, []);
  // Read again when the thread changes, after each turn, and when the user opens the list.
  useEffect(() => {
    if (threadId !== '' && version >= 0) refresh();
  }, [threadId, version, refresh]);

  // A thread is created by its first turn: the current one may not be in the store yet.
  const items = threads.some((t) => t.id === threadId)
    ? threads
    : [{ id: threadId, total: 0 }, ...threads];
  const label = (t: ThreadItem) =>
    `${t.title ?? t.id} · ${t.total === 0 ? 'empty' : `${t.total} rows`}`;

  return (
    <span className="threads">
      <label>
        thread{' '}
        <select
          id="thread-select"
          value={threadId}
          onFocus={refresh}
          onChange={(event) => onSwitch(event.target.value)}
        >
          {items.map((t) => (
            <option key={t.id} value={t.id}>
              {label(t)}
            </option>
          ))}
        </select>
      </label>
      <button
        type="button"
        id="new-thread"
        onClick={async () => {
          const response = await fetch('/api/threads', { method: 'POST' });
          if (response.ok) onSwitch(((await response.json()) as { id: string }).id);
        }}
      >
        New thread
      </button>
    </span>
  );
}
