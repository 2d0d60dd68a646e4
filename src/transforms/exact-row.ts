import type { ChunkRowDraft, ChunkRowType } from '../schema/chunk-row.js';
import { rowDataIsExact } from '../schema/row-data-check.js';
import type { GroupableRow } from './row-input.js';

const ROLES: ReadonlySet<unknown> = /* @__PURE__ */ new Set([
  'user',
  'assistant',
  'tool',
  'system',
]);

/**
 * Whether a row is valid as `groupableRowMini` defines it, checked by hand (its data by
 * `rowDataIsExact`): `false` is no verdict, the schema decides then. Extra fields (a live
 * entry's `id`) are ignored, as grouping ignores them.
 */
export function isExactRow(row: unknown): row is GroupableRow {
  if (typeof row !== 'object' || row === null) return false;
  const r = row as Record<string, unknown>;
  const seq = r.seq;
  return (
    typeof r.turnId === 'string' &&
    r.turnId !== '' &&
    typeof r.step === 'number' &&
    Number.isSafeInteger(r.step) &&
    r.step >= 0 &&
    ROLES.has(r.role) &&
    (seq === undefined || seq === null || (typeof seq === 'number' && Number.isFinite(seq))) &&
    typeof r.type === 'string' &&
    rowDataIsExact(r.type as ChunkRowType, r.data)
  );
}

/**
 * A draft zod would accept unchanged, checked by hand, as a new object of a draft's fields (the
 * data is the caller's: the store serializes it before anything awaits); undefined when zod must
 * decide (`parseChunkRowDraft`), which strips unknown fields as this copy does.
 */
export function exactDraft(value: unknown): ChunkRowDraft | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  // Each field read once, and the copy checked: what is checked is what is written.
  const { turnId, step, role, type, data } = value as Record<string, unknown>;
  const draft = { turnId, step, role, type, data };
  return isExactRow(draft) ? (draft as ChunkRowDraft) : undefined;
}
