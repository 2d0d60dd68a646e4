import { ChunkChat } from './ChunkChat.js';
import { UseChatChat } from './UseChatChat.js';

export type View = 'chunks' | 'usechat';

/** The header's view switch, and the view. */
export function App({ view, threadId, limit }: { view: View; threadId: string; limit: number }) {
  const link = (to: View) => `?view=${to}&thread=${encodeURIComponent(threadId)}`;
  return (
    <>
      <nav className="views" aria-label="View">
        <strong>chunklog</strong> React chat
        <a href={link('chunks')} aria-current={view === 'chunks' ? 'page' : undefined}>
          chunks · <code>chunklog/react</code>
        </a>
        <a href={link('usechat')} aria-current={view === 'usechat' ? 'page' : undefined}>
          useChat · <code>@ai-sdk/react</code>
        </a>
        <span className="thread">thread {threadId}</span>
      </nav>
      {view === 'chunks' ? (
        <ChunkChat threadId={threadId} limit={limit} />
      ) : (
        <UseChatChat threadId={threadId} />
      )}
    </>
  );
}
