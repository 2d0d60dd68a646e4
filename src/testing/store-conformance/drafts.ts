// The conformance kit: row drafts to append.
import { invalidOption } from '../../errors/invalid-option.js';
import type { ChunkRow, ChunkRowDraft } from '../../schema/chunk-row.js';

/**
 * A draft of each row type, with awkward but valid content (unicode, nested JSON, metadata).
 *
 * @param turnId - the turn every draft carries
 * @param extra - text added to the first draft (to tell turns apart)
 * @returns the drafts of one turn
 *
 * @example
 * ```ts
 * await store.appendTurn('t', sampleDrafts('turn-1'));
 * ```
 */
export function sampleDrafts(turnId: string, extra = ''): ChunkRowDraft[] {
  return [
    { turnId, step: 0, role: 'user', type: 'text', data: { text: `Hello ${extra} — ünïcödé 🎉` } },
    {
      turnId,
      step: 0,
      role: 'assistant',
      type: 'thinking',
      data: {
        text: 'thinking…',
        providerMetadata: { anthropic: { signature: 'sig==', nested: { a: [1, 2.5, null] } } },
        modelId: 'model-1',
      },
    },
    {
      turnId,
      step: 0,
      role: 'assistant',
      type: 'tool_call',
      data: { id: 'call-1', name: 'search', index: 0, input: { q: 'x', n: 3, deep: { t: true } } },
    },
    {
      turnId,
      step: 0,
      role: 'tool',
      type: 'tool_result',
      data: { callId: 'call-1', name: 'search', result: ['a', { b: -1e-7 }], progress: 'line\n' },
    },
    { turnId, step: 1, role: 'assistant', type: 'text', data: { text: 'Done.', id: 'b1' } },
    {
      turnId,
      step: 1,
      role: 'assistant',
      type: 'error',
      data: { message: 'overloaded', statusCode: 529 },
    },
    { turnId, step: 1, role: 'assistant', type: 'system', data: { kind: 'notice', text: 'note' } },
    {
      turnId,
      step: 1,
      role: 'assistant',
      type: 'source',
      data: { source: { sourceType: 'url', id: 's1', url: 'https://example.com/' } },
    },
    {
      turnId,
      step: 1,
      role: 'assistant',
      type: 'file',
      data: { mediaType: 'image/png', data: 'AA==' },
    },
    { turnId, step: 1, role: 'assistant', type: 'custom', data: { kind: 'anthropic.fallback' } },
    { turnId, step: 1, role: 'user', type: 'steering', data: { id: 'st1', text: 'also this' } },
  ];
}

/**
 * `n` text drafts of one turn (texts `${turnId}#${i}`). The drafts are not checked here:
 * `appendTurn` checks them.
 *
 * @param turnId - the turn every draft carries
 * @param n - how many drafts
 * @param role - their role (default `assistant`)
 * @returns the drafts of one turn
 * @throws {ChunklogError} `invalid-option` when `n` is not an integer ≥ 0
 *
 * @example
 * ```ts
 * await store.appendTurn('t', textDrafts('turn-2', 50));
 * ```
 */
export function textDrafts(
  turnId: string,
  n: number,
  role: 'user' | 'assistant' = 'assistant',
): ChunkRowDraft[] {
  if (!Number.isSafeInteger(n) || n < 0) {
    invalidOption('textDrafts', 'n', '`n` must be an integer of at least 0', n);
  }
  return Array.from({ length: n }, (_, i) => ({
    turnId,
    step: 0,
    role,
    type: 'text' as const,
    data: { text: `${turnId}#${i}` },
  }));
}

/** A turn of `n` text rows: the user's message, then the assistant's. */
export function turnDrafts(turnId: string, n: number): ChunkRowDraft[] {
  return textDrafts(turnId, n).map((d, i) => (i === 0 ? { ...d, role: 'user' } : d));
}

/** The drafts of stored rows (what was appended). */
export function draftsOf(rows: readonly ChunkRow[]): ChunkRowDraft[] {
  return rows.map(
    (r) =>
      ({
        turnId: r.turnId,
        step: r.step,
        role: r.role,
        type: r.type,
        data: r.data,
      }) as ChunkRowDraft,
  );
}

/** The rows as a thread other than their own reads them. */
export function as(rows: readonly ChunkRow[], threadId: string): ChunkRow[] {
  return rows.map((r) => ({ ...r, threadId }));
}
