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
