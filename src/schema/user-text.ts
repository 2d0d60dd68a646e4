import type { ChunkRow } from './chunk-row.js';

/**
 * The text a user sent, if the row is one (a `text` row of role `user`; steering is not).
 *
 * @param row - a stored row
 * @returns its text, or undefined for any other row
 */
export function userTextOf(row: ChunkRow): string | undefined {
  return row.role === 'user' && row.type === 'text' ? row.data.text : undefined;
}
