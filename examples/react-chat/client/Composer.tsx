import { type FormEvent, type KeyboardEvent, useState } from 'react';

export interface ComposerProps {
  readonly running: boolean;
  /** Sends a message (queued behind a running turn where the view supports it). */
  readonly onSend: (text: string) => void;
  /** Adds the message to the running turn. */
  readonly onSteer: (text: string) => void;
  /** Queues the message as the next turn (only where the view supports a queue). */
  readonly onQueue?: ((text: string) => void) | undefined;
  readonly onStop: () => void;
}

/** The message box: Enter sends (or queues, while a turn runs), with Steer, Queue and Stop. */
export function Composer({ running, onSend, onSteer, onQueue, onStop }: ComposerProps) {
  const [text, setText] = useState('');
  const take = (): string | undefined => {
    const value = text.trim();
    if (value === '') return undefined;
    setText('');
    return value;
  };
  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    const value = take();
    if (value === undefined) return;
    if (running && onQueue) onQueue(value);
    else if (running) onSteer(value);
    else onSend(value);
  };
  const keyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey) submit(event);
  };
  return (
    <form className="composer" onSubmit={submit}>
      <textarea
        id="input"
        rows={2}
        value={text}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={keyDown}
        placeholder="Message (type help). Enter sends, Shift+Enter for a new line."
        aria-label="Message"
        // biome-ignore lint/a11y/noAutofocus: a chat box is where the user types
        autoFocus
      />
      <div className="buttons">
        {!running && (
          <button type="submit" id="send">
            Send
          </button>
        )}
        {running && (
          <button
            type="button"
            id="steer"
            title="Add it to the running turn, at its next step"
            onClick={() => {
              const value = take();
              if (value !== undefined) onSteer(value);
            }}
          >
            Steer
          </button>
        )}
        {running && onQueue && (
          <button
            type="button"
            id="queue"
            title="Send it as the next turn"
            onClick={() => {
              const value = take();
              if (value !== undefined) onQueue(value);
            }}
          >
            Queue
          </button>
        )}
        {running && (
          <button type="button" id="stop" onClick={onStop}>
            Stop
          </button>
        )}
      </div>
    </form>
  );
}
