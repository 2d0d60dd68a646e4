import * as z from 'zod/mini';
import { type ChunkRowDraft, chunkRowDraftMini } from '../schema/chunk-row.js';

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

/** The `zod/mini` schema of a {@link GroupableRow}: a valid draft, with an optional `seq` or null. */
export const groupableRowMini: z.ZodMiniType<GroupableRow> = /* @__PURE__ */ (() =>
  z.intersection(chunkRowDraftMini, z.object({ seq: z.optional(z.nullable(z.number())) })))();
