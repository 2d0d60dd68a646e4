// Every chunk kind, as the chunk-native front end plan draws them: thinking in place and
// collapsible, tool cards with their live progress, error cards, notices (and any other system
// chunk, such as a truncation sentinel) as separators between what happened before and after.
// Model output is text, or Markdown through react-markdown: never HTML.
import {
  type ChatMessage,
  type Chunk,
  type ErrorInfo,
  errorNextStep,
  errorTitle,
  type JSONValue,
  type ToolCallEntry,
} from 'chunklog';
import type { TurnVersions } from 'chunklog/window';
import { memo } from 'react';
import { Markdown } from './Markdown.js';
import { MessageTools } from './Versions.js';

const json = (value: JSONValue | undefined): string =>
  value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value, null, 2);

function Thinking({ chunk, live }: { chunk: Extract<Chunk, { type: 'thinking' }>; live: boolean }) {
  const words = chunk.text.trim().split(/\s+/).filter(Boolean).length;
  const label = chunk.text === '' ? 'Thinking (redacted)' : `Thinking · ${words} words`;
  return (
    <details className="chunk thinking">
      <summary>
        {label}
        {live && <span className="dots"> …</span>}
      </summary>
      <div className="body">{chunk.text}</div>
    </details>
  );
}

/** A call without a result runs while its turn is live; in a finished turn it was cut short. */
function callState(call: ToolCallEntry, live: boolean): string {
  if (call.isError) return 'error';
  if (call.result !== undefined) return 'done';
  if (call.denied) return 'denied';
  return live ? 'running' : 'unfinished';
}

export function ToolCard({ call, live }: { call: ToolCallEntry; live: boolean }) {
  const state = callState(call, live);
  const input = call.input !== undefined ? JSON.stringify(call.input) : (call.inputText ?? '');
  return (
    <div className={`call ${state}`} data-call={call.id}>
      <div className="call-head">
        <span className="tool-name">{call.name || '(tool)'}</span>
        <span className="input">{input}</span>
        <span className={`badge ${state}`}>{state}</span>
      </div>
      {call.progress ? <pre className="progress">{call.progress}</pre> : null}
      {call.preliminary !== undefined && call.result === undefined ? (
        <pre className="progress">⇢ {json(call.preliminary)}</pre>
      ) : null}
      {call.result !== undefined ? <pre className="result">{json(call.result)}</pre> : null}
    </div>
  );
}

/** A link only for http(s) URLs; anything else is text. */
function SafeLink({ url, label }: { url: string; label: string }) {
  let href: string | undefined;
  try {
    const parsed = new URL(url);
    if (parsed.protocol === 'http:' || parsed.protocol === 'https:') href = parsed.href;
  } catch {
    // not a URL
  }
  if (href === undefined) return <span>{label || url}</span>;
  return (
    <a href={href} target="_blank" rel="noopener noreferrer nofollow">
      {label || url}
    </a>
  );
}

/**
 * An error card: which model failed and how (`errorTitle`), the message, and what to do next
 * (`errorNextStep`); with `onRetry`, a button that sends the user's last message again.
 */
export function ErrorCard({
  error,
  onRetry,
}: {
  error: ErrorInfo;
  onRetry?: (() => void) | undefined;
}) {
  const next = errorNextStep(error);
  return (
    <div className="chunk error" role="alert">
      <div className="error-title">{errorTitle(error)}</div>
      <div className="body">{error.message}</div>
      {next && <div className="next-step">{next}</div>}
      {onRetry && (
        <button type="button" className="retry" onClick={onRetry}>
          Retry
        </button>
      )}
    </div>
  );
}

/** One chunk. `markdown`: render text as Markdown (the assistant's), else as plain text. */
export function ChunkView({
  chunk,
  markdown,
  live,
  turnLive,
  onRetry,
}: {
  chunk: Chunk;
  markdown: boolean;
  /** The chunk is the last of a live turn (it may still grow). */
  live: boolean;
  /** Its turn is live. */
  turnLive: boolean;
  /** Offered on an error card: sends the user's last message again. */
  onRetry?: (() => void) | undefined;
}) {
  switch (chunk.type) {
    case 'text':
      return markdown ? (
        <div className="chunk text">
          <Markdown text={chunk.text} />
        </div>
      ) : (
        <div className="chunk text plain">{chunk.text}</div>
      );
    case 'thinking':
      return <Thinking chunk={chunk} live={live} />;
    case 'tool-batch':
      return (
        <div className="chunk tool-batch">
          {chunk.calls.map((call) => (
            <ToolCard key={call.id} call={call} live={turnLive} />
          ))}
        </div>
      );
    case 'error':
      return <ErrorCard error={chunk} onRetry={onRetry} />;
    case 'system':
      // A separator: what comes after it happened after the notice (a model switch, a cancel,
      // a deploy, a context cut).
      return (
        <div className={`chunk system kind-${chunk.kind}`}>
          <span className="kind">{chunk.kind}</span>
          <span className="body">{chunk.text}</span>
          {chunk.dropped?.map((d) => (
            <div key={d.id} className="dropped">
              Not sent: {d.text}
            </div>
          ))}
        </div>
      );
    case 'steering':
      return (
        <div className="chunk steering">
          <span className="who">You, while it worked</span>
          <div className="body">{chunk.text}</div>
        </div>
      );
    case 'source': {
      const s = chunk.source;
      return (
        <div className="chunk source">
          {s.sourceType === 'url' ? <SafeLink url={s.url} label={s.title ?? ''} /> : s.title}
        </div>
      );
    }
    case 'file':
      return (
        <div className="chunk file">
          📎 {chunk.filename ?? 'file'} ({chunk.mediaType})
        </div>
      );
    case 'custom':
      return null; // provider bookkeeping (a fallback marker): kept in the log, not shown
    default: {
      // Kinds this page does not know (an app's data chunks): their JSON, as text.
      const other = chunk as { type: string; data?: JSONValue };
      return <pre className="chunk other">{`${other.type}: ${json(other.data)}`}</pre>;
    }
  }
}

/** A key for a chunk that stays put as chunks are added around it. */
function chunkKey(chunk: Chunk, index: number): string {
  if ('id' in chunk && typeof chunk.id === 'string') return `${chunk.type}:${chunk.id}`;
  if (chunk.type === 'tool-batch' && chunk.calls[0]) return `tools:${chunk.calls[0].id}`;
  return `${chunk.type}:${chunk.step}:${index}`;
}

/**
 * Where a user's message not stored yet is: `sending` until the server accepted it, `queued`
 * while it waits behind the running turn. Once its turn runs it reads as sent (no label).
 */
export type UserMessageStatus = 'sending' | 'queued';

const STATUS_TEXT: Record<UserMessageStatus, string> = {
  sending: 'sending…',
  queued: 'queued: it runs after the current turn',
};

/** What a stored message offers: its turn's versions, Edit (user) and Regenerate (answer). */
export interface MessageEditing {
  readonly versions: TurnVersions | undefined;
  /** A turn runs or a switch reloads the thread: the buttons wait. */
  readonly disabled: boolean;
  readonly onSwitch: (threadId: string) => void;
  readonly onEdit: (turnId: string, text: string) => void;
  readonly onRegenerate: (turnId: string) => void;
}

/** The text of a message's text chunks. */
const plainText = (message: ChatMessage): string =>
  message.chunks.map((chunk) => (chunk.type === 'text' ? chunk.text : '')).join('');

/** A message: the user's, the assistant's (every chunk in order), or a system message. */
export const MessageView = memo(function MessageView({
  message,
  status,
  live,
  onRetry,
  editing,
}: {
  message: ChatMessage;
  status?: UserMessageStatus | undefined;
  live: boolean;
  /** Given to the newest turn's error cards when no turn runs. */
  onRetry?: (() => void) | undefined;
  /** Given to stored messages: versions, edit, regenerate. */
  editing?: MessageEditing | undefined;
}) {
  const last = message.chunks.length - 1;
  const article = (
    <article className={`message ${message.role} ${status ?? ''}`} data-id={message.id}>
      {message.chunks.map((chunk, index) => {
        const key = chunkKey(chunk, index);
        return (
          // The slot's key names the chunk for as long as it is on the page: the view keeps
          // the chunk the user reads in place while older pages load (see ChunkChat).
          <div className="slot" key={key} data-anchor={`${message.id}|${key}`}>
            <ChunkView
              chunk={chunk}
              markdown={message.role === 'assistant'}
              live={live && index === last}
              turnLive={live}
              onRetry={onRetry}
            />
          </div>
        );
      })}
      {status && <div className="message-status">{STATUS_TEXT[status]}</div>}
    </article>
  );
  if (!editing) return article;
  return (
    <>
      {article}
      <MessageTools
        messageId={message.id}
        role={message.role}
        text={plainText(message)}
        versions={editing.versions}
        disabled={editing.disabled}
        onSwitch={editing.onSwitch}
        onEdit={(text) => editing.onEdit(message.turnId, text)}
        onRegenerate={() => editing.onRegenerate(message.turnId)}
      />
    </>
  );
});
