import { z } from 'zod';
import { type ChunkRowDraft, ChunkRowDraftSchema } from '../schema/chunk-row.js';

/**
 * A row {@link groupRowsToMessages} accepts: a stored `ChunkRow`, a draft from
 * {@link explodeTurn}, or a live entry (a draft with `seq: null` and any extra fields).
 *
 * @example
 * ```ts
 * const live: GroupableRow[] = explodeTurn(turnId, state.chunks, { role: 'assistant' })
 *   .map((draft, i) => ({ ...draft, id: `${turnId}:${i}`, seq: null }));
 * const messages = groupRowsToMessages([...storedRows, ...live]);
 * ```
 */
export type GroupableRow = ChunkRowDraft & { readonly seq?: number | null | undefined };

/** Zod schema of a {@link GroupableRow}: a valid draft, with an optional numeric `seq` or null. */
export const GroupableRowSchema: z.ZodType<GroupableRow> = z.intersection(
  ChunkRowDraftSchema,
  z.object({ seq: z.number().nullable().optional() }),
);
