import type { ZodType } from 'zod';
import * as z from 'zod/mini';
import type {
  CustomChunk,
  DataChunk,
  ErrorChunk,
  FileChunk,
  SourceChunk,
  SteeringChunk,
  SystemChunk,
  TextChunk,
  ThinkingChunk,
  ToolCallEntry,
} from './chunk.js';
import { rowDataMini } from './chunk-schemas.js';
import { classicView } from './classic-view.js';

export { RowDataSchemas } from './chunk-schemas.js';

/** Who a row speaks for. Tool results are `tool`; a steering message is `user`. */
export type ChunkRole = 'user' | 'assistant' | 'tool' | 'system';

/** The `zod/mini` schema of a {@link ChunkRole}. */
export const chunkRoleMini: z.ZodMiniType<ChunkRole> = z.enum([
  'user',
  'assistant',
  'tool',
  'system',
]);

/** Zod schema of a {@link ChunkRole}. */
export const ChunkRoleSchema: ZodType<ChunkRole> = /* @__PURE__ */ classicView(chunkRoleMini);

/** The `type` column of a row. A tool-batch chunk becomes `tool_call` and `tool_result` rows. */
export type ChunkRowType =
  | 'text'
  | 'thinking'
  | 'tool_call'
  | 'tool_result'
  | 'error'
  | 'system'
  | 'source'
  | 'file'
  | 'custom'
  | 'steering'
  | 'data';

const allChunkRowTypes = [
  'text',
  'thinking',
  'tool_call',
  'tool_result',
  'error',
  'system',
  'source',
  'file',
  'custom',
  'steering',
  'data',
] as const;

// Compile-time check: the list names every ChunkRowType.
const _allChunkRowTypesListed: [Exclude<ChunkRowType, (typeof allChunkRowTypes)[number]>] extends [
  never,
]
  ? true
  : never = true;
void _allChunkRowTypesListed;

/** Every {@link ChunkRowType}, in a fixed order. */
export const CHUNK_ROW_TYPES: readonly ChunkRowType[] = allChunkRowTypes;

// A row's data is its chunk's fields without `type` and `step`, which are columns of their own.

/** `data` of a `text` row. */
export type TextRowData = Omit<TextChunk, 'type' | 'step'>;
/** `data` of a `thinking` row. */
export type ThinkingRowData = Omit<ThinkingChunk, 'type' | 'step'>;
/** `data` of an `error` row. */
export type ErrorRowData = Omit<ErrorChunk, 'type' | 'step'>;
/** `data` of a `system` row. */
export type SystemRowData = Omit<SystemChunk, 'type' | 'step'>;
/** `data` of a `steering` row. */
export type SteeringRowData = Omit<SteeringChunk, 'type' | 'step'>;
/** `data` of a `source` row. */
export type SourceRowData = Omit<SourceChunk, 'type' | 'step'>;
/** `data` of a `file` row. */
export type FileRowData = Omit<FileChunk, 'type' | 'step'>;
/** `data` of a `custom` row. */
export type CustomRowData = Omit<CustomChunk, 'type' | 'step'>;
/** `data` of a `data` row (an app's UI data part). */
export type DataRowData = Omit<DataChunk, 'type' | 'step'>;

/** The fields of a {@link ToolCallEntry} that say what happened to the call. */
type ToolOutcomeField =
  | 'result'
  | 'isError'
  | 'denied'
  | 'progress'
  | 'preliminary'
  | 'resultProviderMetadata'
  | 'deferred';

/** `data` of a `tool_call` row: a call of a tool-batch, without what happened after it. */
export interface ToolCallRowData extends Omit<ToolCallEntry, ToolOutcomeField> {
  /** The position of this call in its tool-batch; 0 starts a new batch. */
  readonly index: number;
}

/** `data` of a `tool_result` row (role `tool`): the outcome of one call, and its progress. */
export interface ToolResultRowData extends Pick<ToolCallEntry, 'name' | ToolOutcomeField> {
  /** The id of the call this result belongs to. */
  readonly callId: string;
}

/**
 * What every row draft has, whatever its type: a row of type `T` whose data is `D`.
 * {@link ChunkRowDraft} is the union of these over every {@link ChunkRowType}.
 *
 * @example
 * ```ts
 * const draft: ChunkRowDraftBase<'text', TextRowData> = {
 *   turnId: 't1',
 *   step: 0,
 *   role: 'assistant',
 *   type: 'text',
 *   data: { text: 'Hi!' },
 * };
 * ```
 */
export interface ChunkRowDraftBase<T extends ChunkRowType, D> {
  /** The turn the row belongs to; a user message and the assistant's answer share it. */
  readonly turnId: string;
  /** The step of the turn, starting at 0. */
  readonly step: number;
  readonly role: ChunkRole;
  readonly type: T;
  readonly data: D;
}

/** A row before it is stored: no `seq` yet. One per chunk, but a tool-batch gives several. */
export type ChunkRowDraft =
  | ChunkRowDraftBase<'text', TextRowData>
  | ChunkRowDraftBase<'thinking', ThinkingRowData>
  | ChunkRowDraftBase<'tool_call', ToolCallRowData>
  | ChunkRowDraftBase<'tool_result', ToolResultRowData>
  | ChunkRowDraftBase<'error', ErrorRowData>
  | ChunkRowDraftBase<'system', SystemRowData>
  | ChunkRowDraftBase<'source', SourceRowData>
  | ChunkRowDraftBase<'file', FileRowData>
  | ChunkRowDraftBase<'custom', CustomRowData>
  | ChunkRowDraftBase<'steering', SteeringRowData>
  | ChunkRowDraftBase<'data', DataRowData>;

/** Where a stored row sits: its thread and its position in the thread's log. */
export interface StoredRowFields {
  readonly threadId: string;
  /**
   * The row's position in its thread's log: strictly increasing from 1, with no gap but the seqs
   * of rows that retention (`expire`) removed.
   */
  readonly seq: number;
  /** When the row was stored (ISO 8601), when the store records it. */
  readonly createdAt?: string | undefined;
}

/** A stored row: a {@link ChunkRowDraft} with its thread and `seq`. */
export type ChunkRow = ChunkRowDraft & StoredRowFields;

const draftBase = {
  turnId: z.string().check(z.minLength(1)),
  step: z.number().check(z.int(), z.nonnegative()),
  role: chunkRoleMini,
};

const draftOf = <T extends ChunkRowType>(type: T) =>
  z.object({ ...draftBase, type: z.literal(type), data: rowDataMini[type] });

const drafts = [
  draftOf('text'),
  draftOf('thinking'),
  draftOf('tool_call'),
  draftOf('tool_result'),
  draftOf('error'),
  draftOf('system'),
  draftOf('source'),
  draftOf('file'),
  draftOf('custom'),
  draftOf('steering'),
  draftOf('data'),
] as const;

/** The `zod/mini` schema of a {@link ChunkRowDraft}: `data` is checked against its `type`'s. */
export const chunkRowDraftMini: z.ZodMiniType<ChunkRowDraft> = z.discriminatedUnion('type', drafts);

const storedFields = {
  threadId: z.string().check(z.minLength(1)),
  seq: z.number().check(z.int(), z.positive()),
  createdAt: z.optional(z.string()),
};

/** The `zod/mini` schema of a stored {@link ChunkRow}. */
export const chunkRowMini: z.ZodMiniType<ChunkRow> = z.discriminatedUnion(
  'type',
  drafts.map((d) => z.extend(d, storedFields)) as unknown as typeof drafts,
) as unknown as z.ZodMiniType<ChunkRow>;

/** Zod schema of a {@link ChunkRowDraft}: `data` is checked against the schema of its `type`. */
export const ChunkRowDraftSchema: ZodType<ChunkRowDraft> =
  /* @__PURE__ */ classicView(chunkRowDraftMini);

/** Zod schema of a stored {@link ChunkRow}. */
export const ChunkRowSchema: ZodType<ChunkRow> = /* @__PURE__ */ classicView(chunkRowMini);
