import type { ChunkRowDraft } from '../schema/chunk-row.js';

/**
 * A row {@link groupRowsToMessages} accepts: a stored `ChunkRow`, a draft from
 * {@link explodeTurn}, or a live entry (a draft with `seq: null` and any extra fields).
 */
export type GroupableRow = ChunkRowDraft & { readonly seq?: number | null | undefined };
