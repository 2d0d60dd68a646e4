import { useCallback, useEffect, useState } from 'react';
import { ChunkChat } from './ChunkChat.js';
import { ThreadSwitcher } from './ThreadSwitcher.js';
import { UseChatChat } from './UseChatChat.js';

export type View = 'chunks' | 'usechat';

const search = (view: View, threadId: string, limit: number) =>
  `?view=${view}&thread=${encodeURIComponent(threadId)}${limit === 60 ? '' : `&limit=${limit}`}`;

/** The header (view switch, thread switcher) and the view. The URL says which view and thread. */
export function App({ view, threadId, limit }: { view: View; threadId: string; limit: number }) {
  const [thread, setThread] = useState(threadId);
  const [turnsEnded, setTurnsEnded] = useState(0);
  const turnEnded = useCallback(() => setTurnsEnded((n) => n + 1), []);
  // Back and forward move between the threads visited.
  useEffect(() => {
    const onPop = () => setThread(new URLSearchParams(location.search).get('thread') ?? 'react');
    addEventListener('popstate', onPop);
    return () => removeEventListener('popstate', onPop);
  }, []);
  const switchTo = (next: string) => {
    if (next === thread) return;
    history.pushState(null, '', search(view, next, limit));
    setThread(next);
  };
  useEffect(() => {
    document.body.dataset.thread = thread;
  }, [thread]);

  return (
    <>
      <nav className="views" aria-label="View">
        <strong>chunklog</strong> React chat
        <a
          href={search('chunks', thread, limit)}
          aria-current={view === 'chunks' ? 'page' : undefined}
        >
          chunks · <code>chunklog/react</code>
        </a>
        <a
          href={search('usechat', thread, limit)}
          aria-current={view === 'usechat' ? 'page' : undefined}
        >
          useChat · <code>@ai-sdk/react</code>
        </a>
        <ThreadSwitcher threadId={thread} version={turnsEnded} onSwitch={switchTo} />
      </nav>
      {/* A new thread is a new view: its hooks start afresh. */}
      {view === 'chunks' ? (
        <ChunkChat key={thread} threadId={thread} limit={limit} onTurnEnd={turnEnded} />
      ) : (
        <UseChatChat key={thread} threadId={thread} onTurnEnd={turnEnded} />
      )}
    </>
  );
}
