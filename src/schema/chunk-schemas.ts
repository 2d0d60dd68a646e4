// The zod schemas of chunks and of row data, built from one set of field shapes: a chunk's
// schema is its fields plus `type` and `step`; a row's `data` schema is exactly those fields
// (notes/0003), so that a chunk and its row cannot drift apart. Each export is typed against
// the TypeScript declaration it checks (chunk.ts, chunk-row.ts).
import { z } from 'zod';
import type {
  Chunk,
  CustomChunk,
  DataChunk,
  ErrorChunk,
  FileChunk,
  SourceChunk,
  SteeringChunk,
  SystemChunk,
  SystemKind,
  TextChunk,
  ThinkingChunk,
  ToolApproval,
  ToolBatchChunk,
  ToolCallEntry,
} from './chunk.js';
import type { ChunkRowDraft, ChunkRowType } from './chunk-row.js';
import { ContextTruncationSchema } from './context-truncation.js';
import { JsonValueSchema, ProviderMetadataSchema } from './json.js';
import { CitationSchema, SourceSchema } from './source.js';

const metadata = ProviderMetadataSchema.optional();
const step = z.number().int().nonnegative();
const systemKinds = [
  'notice',
  'model-changed',
  'config-reload',
  'cancelled',
  'interrupted',
  'context-truncated',
  'resumed',
] as const;

// Compile-time check: the list names every SystemKind.
const _allSystemKindsListed: [Exclude<SystemKind, (typeof systemKinds)[number]>] extends [never]
  ? true
  : never = true;
void _allSystemKindsListed;

/** Every {@link SystemKind}, in a fixed order. */
export const SYSTEM_KINDS: readonly SystemKind[] = systemKinds;

/** Zod schema of a {@link SystemKind}. */
export const SystemKindSchema: z.ZodType<SystemKind> = z.enum(systemKinds);

const toolApproval = z.object({
  id: z.string(),
  approved: z.boolean().optional(),
  reason: z.string().optional(),
  isAutomatic: z.boolean().optional(),
  signature: z.string().optional(),
});

/** Zod schema of a {@link ToolApproval}. */
export const ToolApprovalSchema: z.ZodType<ToolApproval> = toolApproval;

// A tool call: its first fields (id, tool, input), what happened to it, and the rest of it.
const callHead = {
  id: z.string(),
  name: z.string(),
  input: JsonValueSchema.optional(),
  inputText: z.string().optional(),
};
const outcome = {
  result: JsonValueSchema.optional(),
  isError: z.boolean().optional(),
  denied: z.boolean().optional(),
  progress: z.string().optional(),
  preliminary: JsonValueSchema.optional(),
  resultProviderMetadata: metadata,
  deferred: z.boolean().optional(),
};
const callTail = {
  providerExecuted: z.boolean().optional(),
  providerMetadata: metadata,
  dynamic: z.boolean().optional(),
  invalid: z.boolean().optional(),
  title: z.string().optional(),
  approval: toolApproval.optional(),
  orphan: z.boolean().optional(),
};
const toolCallEntry = z.object({ ...callHead, ...outcome, ...callTail });

/** Zod schema of a {@link ToolCallEntry}. */
export const ToolCallEntrySchema: z.ZodType<ToolCallEntry> = toolCallEntry;

// The fields of the chunk types that are one row each.
const text = {
  text: z.string(),
  id: z.string().optional(),
  providerMetadata: metadata,
  citations: z.array(CitationSchema).optional(),
};
const thinking = {
  text: z.string(),
  id: z.string().optional(),
  providerMetadata: metadata,
  modelId: z.string().optional(),
};
const error = { message: z.string(), statusCode: z.number().int().optional() };
const system = {
  kind: SystemKindSchema,
  text: z.string(),
  truncation: ContextTruncationSchema.optional(),
};
const steering = { id: z.string(), text: z.string() };
const source = { source: SourceSchema };
const file = {
  mediaType: z.string(),
  data: z.string().optional(),
  url: z.string().optional(),
  filename: z.string().optional(),
  providerMetadata: metadata,
  reasoning: z.boolean().optional(),
};
const custom = { kind: z.string(), providerMetadata: metadata };
const data = { name: z.string(), id: z.string().optional(), data: JsonValueSchema };

const oneSource = (f: { data?: string | undefined; url?: string | undefined }): boolean =>
  (f.data === undefined) !== (f.url === undefined);
const oneSourceMessage = (what: string) => ({
  message: `a file ${what} needs exactly one of \`data\` (base64) and \`url\``,
});

const textChunk = z.object({ type: z.literal('text'), step, ...text });
const thinkingChunk = z.object({ type: z.literal('thinking'), step, ...thinking });
const toolBatchChunk = z.object({
  type: z.literal('tool-batch'),
  step,
  calls: z.array(toolCallEntry),
});
const errorChunk = z.object({ type: z.literal('error'), step, ...error });
const systemChunk = z.object({ type: z.literal('system'), step, ...system });
const steeringChunk = z.object({ type: z.literal('steering'), step, ...steering });
const sourceChunk = z.object({ type: z.literal('source'), step, ...source });
const fileChunk = z
  .object({ type: z.literal('file'), step, ...file })
  .refine(oneSource, oneSourceMessage('chunk'));
const customChunk = z.object({ type: z.literal('custom'), step, ...custom });
const dataChunk = z.object({ type: z.literal('data'), step, ...data });

/** Zod schema of a {@link Chunk}: any of the variants, told apart by `type`. */
export const ChunkSchema: z.ZodType<Chunk> = z.discriminatedUnion('type', [
  textChunk,
  thinkingChunk,
  toolBatchChunk,
  errorChunk,
  systemChunk,
  steeringChunk,
  sourceChunk,
  fileChunk,
  customChunk,
  dataChunk,
]);

/** Zod schema of a {@link TextChunk}. */
export const TextChunkSchema: z.ZodType<TextChunk> = textChunk;
/** Zod schema of a {@link ThinkingChunk}. */
export const ThinkingChunkSchema: z.ZodType<ThinkingChunk> = thinkingChunk;
/** Zod schema of a {@link ToolBatchChunk}. */
export const ToolBatchChunkSchema: z.ZodType<ToolBatchChunk> = toolBatchChunk;
/** Zod schema of a {@link ErrorChunk}. */
export const ErrorChunkSchema: z.ZodType<ErrorChunk> = errorChunk;
/** Zod schema of a {@link SystemChunk}. */
export const SystemChunkSchema: z.ZodType<SystemChunk> = systemChunk;
/** Zod schema of a {@link SteeringChunk}. */
export const SteeringChunkSchema: z.ZodType<SteeringChunk> = steeringChunk;
/** Zod schema of a {@link SourceChunk}. */
export const SourceChunkSchema: z.ZodType<SourceChunk> = sourceChunk;
/** Zod schema of a {@link FileChunk}. */
export const FileChunkSchema: z.ZodType<FileChunk> = fileChunk;
/** Zod schema of a {@link CustomChunk}. */
export const CustomChunkSchema: z.ZodType<CustomChunk> = customChunk;
/** Zod schema of a {@link DataChunk}. */
export const DataChunkSchema: z.ZodType<DataChunk> = dataChunk;

/** Zod schemas of each row type's `data`: the fields of its chunk type. */
export const RowDataSchemas: {
  readonly [T in ChunkRowType]: z.ZodType<Extract<ChunkRowDraft, { type: T }>['data']>;
} = {
  text: z.object(text),
  thinking: z.object(thinking),
  tool_call: z.object({
    id: callHead.id,
    name: callHead.name,
    index: z.number().int().nonnegative(),
    input: callHead.input,
    inputText: callHead.inputText,
    ...callTail,
  }),
  tool_result: z.object({ callId: z.string(), name: callHead.name, ...outcome }),
  error: z.object(error),
  system: z.object(system),
  source: z.object(source),
  file: z.object(file).refine(oneSource, oneSourceMessage('row')),
  custom: z.object(custom),
  steering: z.object(steering),
  data: z.object(data),
};
