// Editable history (issue 32): the "‹ n / m ›" switch of a turn with versions, an edit box on
// user messages, and a regenerate button on answers. Both views use them; nothing is deleted:
// an edit or a regenerate makes a new version of the turn, and ‹ › switch the active path.
import type { TurnVersions } from 'chunklog/window';
import { type FormEvent, useState } from 'react';

/** The turn id of a message id `${turnId}:${role}` (the id of a stored message in both views). */
export const turnIdOf = (messageId: string): string =>
  messageId.slice(0, Math.max(0, messageId.lastIndexOf(':')));

/** "‹ n / m ›": the buttons switch to the previous or next version of the turn. */
export function VersionSwitch({
  versions,
  disabled,
  onSwitch,
}: {
  versions: TurnVersions;
  disabled: boolean;
  onSwitch: (threadId: string) => void;
}) {
  const { index, count } = versions;
  const go = (to: number) => {
    const target = versions.versions[to];
    if (target) onSwitch(target.threadId);
  };
  return (
    <span className="versions">
      <button
        type="button"
        className="prev"
        aria-label="Previous version"
        disabled={disabled || index === 0}
        onClick={() => go(index - 1)}
      >
        ‹
      </button>{' '}
      <span className="count">
        {index + 1} / {count}
      </span>{' '}
      <button
        type="button"
        className="next"
        aria-label="Next version"
        disabled={disabled || index === count - 1}
        onClick={() => go(index + 1)}
      >
        ›
      </button>
    </span>
  );
}

/**
 * The tools under a message (beside it, not in it: the message's text stays its own): its
 * version switch, and Edit (user) or Regenerate (answer).
 */
export function MessageTools({
  messageId,
  role,
  text,
  versions,
  disabled,
  onSwitch,
  onEdit,
  onRegenerate,
}: {
  /** The message it belongs to (`data-for`). */
  messageId: string;
  role: string;
  /** The user message's text, to start the edit box from. */
  text: string;
  versions: TurnVersions | undefined;
  disabled: boolean;
  onSwitch: (threadId: string) => void;
  onEdit?: ((text: string) => void) | undefined;
  onRegenerate?: (() => void) | undefined;
}) {
  const [editing, setEditing] = useState<string | null>(null);
  if (role !== 'user' && role !== 'assistant') return null;
  const save = (event: FormEvent) => {
    event.preventDefault();
    const value = editing?.trim() ?? '';
    if (value === '' || !onEdit) return;
    setEditing(null);
    onEdit(value);
  };
  return (
    <div className={`message-tools ${role}`} data-for={messageId}>
      {versions && <VersionSwitch versions={versions} disabled={disabled} onSwitch={onSwitch} />}
      {role === 'user' && onEdit && editing === null && (
        <button type="button" className="edit" disabled={disabled} onClick={() => setEditing(text)}>
          Edit
        </button>
      )}
      {role === 'assistant' && onRegenerate && (
        <button type="button" className="regenerate" disabled={disabled} onClick={onRegenerate}>
          Regenerate
        </button>
      )}
      {editing !== null && (
        <form className="edit-box" onSubmit={save}>
          <textarea
            aria-label="Edit the message"
            value={editing}
            onChange={(event) => setEditing(event.target.value)}
          />
          <button type="submit" className="save" disabled={disabled}>
            Save
          </button>
          <button type="button" className="cancel" onClick={() => setEditing(null)}>
            Cancel
          </button>
        </form>
      )}
    </div>
  );
}
