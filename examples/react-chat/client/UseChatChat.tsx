// The view on `useChat` from `@ai-sdk/react`, for an app that already renders UIMessages:
// chunklog's handlers under `/ui` (`uiMessageStream: true`) answer the chat transport; the stored
// history comes from the chunks route as UIMessages (`toUIMessages`); after a reload `resume`
// picks up a running turn (`GET /ui/threads/:id/stream`). Steering and cancelling are chunklog's
// JSON routes.
import { useChat } from '@ai-sdk/react';
import { DefaultChatTransport, type UIMessage } from 'ai';
import {
  type ChunkPage,
  groupRowsToMessages,
  isChunklogErrorPart,
  isChunklogSystemPart,
  isChunklogToolProgressPart,
  toUIMessages,
} from 'chunklog';
import { createThreadClient } from 'chunklog/react';
import { indexTurnVersions, parseThreadAlternatives, type TurnVersions } from 'chunklog/window';
import {
  Fragment,
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { ErrorCard } from './Chunks.js';
import { Composer } from './Composer.js';
import { EmptyHint } from './EmptyHint.js';
import { Markdown } from './Markdown.js';
import { useTurnEnd } from './use-turn-end.js';
import { MessageTools, turnIdOf } from './Versions.js';

const api = (threadId: string) => `/api/threads/${encodeURIComponent(threadId)}`;
const ui = (threadId: string) => `/ui/threads/${encodeURIComponent(threadId)}`;

/** The stored thread as UIMessages (the newest 200 rows). */
async function storedMessages(threadId: string): Promise<UIMessage[]> {
  const response = await fetch(`${api(threadId)}/chunks?limit=200`);
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  const page = (await response.json()) as ChunkPage;
  return toUIMessages(groupRowsToMessages(page.chunks));
}

/**
 * The versions of the thread's turns (`GET /api/threads/:id/alternatives`, read again with
 * `refresh`), and `switchTo`, which makes a version's path active. An empty thread is not asked
 * (it may not exist yet).
 */
function useVersions(threadId: string, asked: boolean) {
  const client = useMemo(() => createThreadClient({ threadId, basePath: '/api' }), [threadId]);
  const [byTurn, setByTurn] = useState<ReadonlyMap<string, TurnVersions>>(new Map());
  const refresh = useCallback(async () => {
    setByTurn(indexTurnVersions(parseThreadAlternatives(await client.alternatives())));
  }, [client]);
  useEffect(() => {
    if (asked) refresh().catch(() => {}); // no versions shown: the chat itself still works
  }, [asked, refresh]);
  const switchTo = useCallback(
    async (to: string) => {
      setByTurn(indexTurnVersions(parseThreadAlternatives(await client.switchAlternative(to))));
    },
    [client],
  );
  return { byTurn, refresh, switchTo };
}

const post = (url: string, body: unknown) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

export function UseChatChat({
  threadId,
  onTurnEnd,
}: {
  threadId: string;
  /** Told when a turn ended (the header's thread list is read again). */
  onTurnEnd?: (() => void) | undefined;
}) {
  const [initial, setInitial] = useState<UIMessage[] | undefined>(undefined);
  useEffect(() => {
    storedMessages(threadId).then(setInitial, () => setInitial([]));
  }, [threadId]);
  if (initial === undefined) return <main className="log" id="log" />;
  return <Chat threadId={threadId} initial={initial} onTurnEnd={onTurnEnd} />;
}

type Part = UIMessage['parts'][number];

/** A part's key: its tool call id, or its type and place (parts only grow at the end). */
const partKey = (part: Part, index: number): string =>
  'toolCallId' in part ? `tool:${part.toolCallId}` : `${part.type}:${index}`;

/**
 * The progress text of each tool call of a message. chunklog sends it as a data part of its own
 * (`data-chunklog-tool-progress`, after the tool parts of its batch); the view shows it inside
 * the call's card, as the chunk view does.
 */
function progressByCall(message: UIMessage): ReadonlyMap<string, string> {
  const progress = new Map<string, string>();
  for (const part of message.parts) {
    if (isChunklogToolProgressPart(part)) {
      const { toolCallId, text } = part.data;
      progress.set(toolCallId, (progress.get(toolCallId) ?? '') + text);
    }
  }
  return progress;
}

function PartView({
  part,
  role,
  live,
  progress,
  hasCall,
  onRetry,
}: {
  part: Part;
  role: UIMessage['role'];
  live: boolean;
  /** The progress text of the message's tool calls. */
  progress: ReadonlyMap<string, string>;
  /** Whether the message has the tool part of a call. */
  hasCall: (toolCallId: string) => boolean;
  /** Offered on an error card: sends the user's last message again. */
  onRetry?: (() => void) | undefined;
}) {
  if (isChunklogSystemPart(part)) {
    return (
      <div className={`chunk system kind-${part.data.kind}`}>
        <span className="kind">{part.data.kind}</span>
        <span className="body">{part.data.text}</span>
      </div>
    );
  }
  if (isChunklogErrorPart(part)) {
    return <ErrorCard error={part.data} onRetry={onRetry} />;
  }
  if (isChunklogToolProgressPart(part)) {
    // Shown in its call's card; alone only when the message lacks the call (a partial page).
    return hasCall(part.data.toolCallId) ? null : <pre className="progress">{part.data.text}</pre>;
  }
  switch (part.type) {
    case 'text':
      return role === 'assistant' ? (
        <div className="chunk text">
          <Markdown text={part.text} />
        </div>
      ) : (
        <div className="chunk text plain">{part.text}</div>
      );
    case 'reasoning':
      return (
        <details className="chunk thinking">
          <summary>Thinking</summary>
          <div className="body">{part.text}</div>
        </details>
      );
    case 'steering-message':
      return (
        <div className="chunk steering">
          <span className="who">You, while it worked</span>
          <div className="body">
            {part.parts.map((p) => (p.type === 'text' ? p.text : '')).join('')}
          </div>
        </div>
      );
    case 'step-start':
      return null;
    default:
      if (part.type.startsWith('tool-') || part.type === 'dynamic-tool') {
        const tool = part as Extract<Part, { toolCallId: string }> & { state: string };
        const name =
          part.type === 'dynamic-tool'
            ? (part as { toolName: string }).toolName
            : part.type.slice(5);
        const state =
          tool.state === 'output-available'
            ? 'done'
            : tool.state === 'output-error'
              ? 'error'
              : live
                ? 'running'
                : 'unfinished'; // its turn ended without a result (it was stopped)
        return (
          <div className="chunk tool-batch">
            <div className={`call ${state}`}>
              <div className="call-head">
                <span className="tool-name">{name}</span>
                <span className="input">{JSON.stringify(tool.input ?? null)}</span>
                <span className={`badge ${state}`}>{state}</span>
              </div>
              {progress.get(tool.toolCallId) ? (
                <pre className="progress">{progress.get(tool.toolCallId)}</pre>
              ) : null}
              {'output' in tool && tool.output !== undefined ? (
                <pre className="result">{JSON.stringify(tool.output, null, 2)}</pre>
              ) : null}
              {'errorText' in tool && tool.errorText ? (
                <pre className="result">{String(tool.errorText)}</pre>
              ) : null}
            </div>
          </div>
        );
      }
      return null; // sources, files, custom parts: not shown in this small view
  }
}

function Chat({
  threadId,
  initial,
  onTurnEnd,
}: {
  threadId: string;
  initial: UIMessage[];
  onTurnEnd?: (() => void) | undefined;
}) {
  const transport = useMemo(
    () =>
      new DefaultChatTransport({
        api: `${ui(threadId)}/messages`,
        // chunklog holds the thread: send only the new message, and for a regenerate or an
        // edit (`sendMessage` with a `messageId`) which message it makes a new version of.
        prepareSendMessagesRequest: ({ messages, trigger, messageId }) => ({
          body: {
            message: messages.at(-1),
            trigger,
            ...(messageId !== undefined ? { messageId } : {}),
          },
        }),
        prepareReconnectToStreamRequest: () => ({ api: `${ui(threadId)}/stream` }),
      }),
    [threadId],
  );
  const versions = useVersions(threadId, initial.length > 0);
  const { messages, sendMessage, setMessages, status, stop, resumeStream, error, regenerate } =
    useChat({
      id: threadId,
      messages: initial,
      transport,
      resume: true, // after a reload, pick up the running turn (204 when none runs)
      // The store is the truth: once a turn has ended (its turn-end comes after its write), show
      // the stored thread. It differs from what streamed only after a reload mid-turn (the user's
      // message of that turn was not stored yet) or a stop.
      onFinish: ({ isAbort }) => {
        if (isAbort) return;
        void storedMessages(threadId).then(setMessages);
        versions.refresh().catch(() => {}); // a regenerate or an edit made a new version
      },
    });
  const [switching, setSwitching] = useState(false);
  // What failed outside useChat (a switch of version, a notice), shown under the messages.
  const [ownError, setOwnError] = useState<string | undefined>(undefined);
  const failed = (failure: unknown) =>
    setOwnError(failure instanceof Error ? failure.message : String(failure));
  const switchTo = async (to: string) => {
    setSwitching(true);
    try {
      await versions.switchTo(to);
      setMessages(await storedMessages(threadId)); // the new active path
      setOwnError(undefined);
    } catch (failure) {
      failed(failure);
    } finally {
      setSwitching(false);
    }
  };
  const running = status === 'submitted' || status === 'streaming';
  const runningNow = useRef(running);
  runningNow.current = running;
  // A notice (`/notice …`) is no useChat message: chunklog's notices route records it. Into the
  // running turn, whose stream useChat reads, so it shows as it streams; or, when no turn runs,
  // as a system turn of its own, stored by the time the route answers: the view reads the
  // stored thread back then, as the chunk view shows it from its live event. (A turn started
  // meanwhile reads the stored thread at its end, notice included.)
  const notice = async (text: string) => {
    try {
      const response = await post(`${api(threadId)}/notices`, { text });
      if (!response.ok) throw new Error(`The notice was not recorded (HTTP ${response.status}).`);
      const { routed } = (await response.json()) as { routed: 'turn' | 'system-turn' };
      setOwnError(undefined);
      if (routed !== 'system-turn') return;
      const stored = await storedMessages(threadId);
      if (!runningNow.current) setMessages(stored);
    } catch (failure) {
      failed(failure);
    }
  };
  const noticeText = (text: string) => text.slice(7).trim() || 'A notice.';
  useTurnEnd(running, onTurnEnd);
  // Retry, on the error cards of the newest message once the turn ended: the user's last text,
  // sent again (chunklog's log is append-only: a new turn, not a regenerated one).
  const lastUser = [...messages].reverse().find((message) => message.role === 'user');
  const lastUserText =
    lastUser?.parts.map((part) => (part.type === 'text' ? part.text : '')).join('') ?? '';
  const newest = messages.at(-1);
  const retryOn =
    !running && newest?.role === 'assistant' && lastUserText !== '' ? newest.id : undefined;
  const logRef = useRef<HTMLElement>(null);
  useLayoutEffect(() => {
    const log = logRef.current;
    if (log) log.scrollTop = log.scrollHeight;
  });
  useEffect(() => {
    const data = document.body.dataset;
    data.view = 'usechat';
    data.running = String(running);
    data.status = status;
    data.switching = String(switching);
  });

  return (
    <>
      <header className="status-bar">
        <span className={`status ${running ? 'running' : 'idle'}`} id="status">
          {running ? 'working…' : status}
        </span>
        <span className="stats">
          {messages.length} UI messages · <code>useChat</code> status {status}
        </span>
      </header>
      <main className="log" id="log" ref={logRef} aria-live="polite">
        {messages.length === 0 && <EmptyHint />}
        {messages.map((message, i) => {
          const progress = progressByCall(message);
          const calls = new Set(
            message.parts.flatMap((part) => ('toolCallId' in part ? [part.toolCallId] : [])),
          );
          const hasCall = (toolCallId: string) => calls.has(toolCallId);
          const onRetry =
            message.id === retryOn ? () => void sendMessage({ text: lastUserText }) : undefined;
          return (
            <Fragment key={message.id}>
              <article className={`message ${message.role}`} data-id={message.id}>
                {message.parts.map((part, index) => (
                  <PartView
                    key={partKey(part, index)}
                    part={part}
                    role={message.role}
                    live={running && i === messages.length - 1}
                    progress={progress}
                    hasCall={hasCall}
                    onRetry={onRetry}
                  />
                ))}
              </article>
              <MessageTools
                messageId={message.id}
                role={message.role}
                text={message.parts.map((p) => (p.type === 'text' ? p.text : '')).join('')}
                versions={versions.byTurn.get(turnIdOf(message.id))}
                disabled={running || switching}
                onSwitch={(to) => void switchTo(to)}
                onEdit={(text) => void sendMessage({ text, messageId: message.id })}
                // A system notice reads as an assistant message (`<turnId>:system`): no answer to regenerate.
                onRegenerate={
                  message.id.endsWith(':system')
                    ? undefined
                    : () => void regenerate({ messageId: message.id })
                }
              />
            </Fragment>
          );
        })}
        {(error ?? ownError) && (
          <div className="chunk error client-error" role="alert">
            {error?.message ?? ownError}
          </div>
        )}
      </main>
      <Composer
        running={running}
        onSend={(text) => {
          if (text.startsWith('/notice')) void notice(noticeText(text));
          else void sendMessage({ text });
        }}
        onSteer={(text) => {
          if (text.startsWith('/notice')) void notice(noticeText(text));
          else void post(`${api(threadId)}/messages`, { text, mode: 'steer' });
        }}
        onStop={async () => {
          // useChat's stop() only stops reading; the turn is cancelled on the server, and the
          // stored thread (with the cancel notice) is read back.
          await stop();
          await post(`${api(threadId)}/cancel`, { reason: 'Stopped by the user.' });
          await resumeStream(); // the rest of the turn, if it is still being stored
          setMessages(await storedMessages(threadId));
        }}
      />
    </>
  );
}
