import type { DroppedSteering, SystemKind } from './chunk.js';
import type { ContextTruncation } from './context-truncation.js';
import type { Redaction } from './redaction.js';

/**
 * The one chunk type a system message (the rows of role `system`, a system event outside a
 * turn) may hold: its chunks are notices for the user, never sent to the model, so text, tool
 * calls or errors there would be lost from the model's input without a trace.
 *
 * @example
 * ```ts
 * drafts.every((d) => d.role !== 'system' || d.type === SYSTEM_MESSAGE_TYPE);
 * ```
 */
export const SYSTEM_MESSAGE_TYPE = 'system';

/**
 * The index of the first element that a system message may not hold, or -1.
 *
 * @param types - the chunk (or row) type of each element, in order
 * @returns the index of the first type other than `system`, or -1
 */
export function firstNonSystem(types: readonly string[]): number {
  return types.findIndex((type) => type !== SYSTEM_MESSAGE_TYPE);
}

/** The fields of a system notice, as a system event, chunk, row or UI data part carries them. */
export interface NoticeFields {
  readonly kind: SystemKind;
  readonly text: string;
  readonly truncation?: ContextTruncation | undefined;
  readonly redaction?: Redaction | undefined;
  readonly dropped?: readonly DroppedSteering[] | undefined;
}

/**
 * The notice fields of `source` (a system event, chunk, row data or UI data part), without the
 * rest of it and without its absent optional fields: the one copy every layer makes of a notice.
 *
 * @param source - anything with a notice's fields
 * @returns `kind`, `text`, and `truncation` / `redaction` / `dropped` when they are set
 *
 * @example
 * ```ts
 * const chunk: SystemChunk = { type: 'system', step: 0, ...noticeFields(event) };
 * ```
 */
export function noticeFields(source: NoticeFields): NoticeFields {
  return {
    kind: source.kind,
    text: source.text,
    ...(source.truncation === undefined ? {} : { truncation: source.truncation }),
    ...(source.redaction === undefined ? {} : { redaction: source.redaction }),
    ...(source.dropped === undefined ? {} : { dropped: source.dropped }),
  };
}
