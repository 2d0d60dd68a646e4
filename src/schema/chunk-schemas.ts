// The zod schemas of chunks and of row data, built from one set of field shapes: a chunk's
// schema is its fields plus `type` and `step`; a row's `data` schema is exactly those fields
// (notes/0003), so that a chunk and its row cannot drift apart. They are defined with `zod/mini`
// (`…Mini`, what chunklog validates with); the public `…Schema` exports are classic zod views of
// them (classic-view.ts). Each is typed against the TypeScript declaration it checks (chunk.ts,
// chunk-row.ts).
import type { ZodType } from 'zod';
import * as z from 'zod/mini';
import type {
  Chunk,
  CustomChunk,
  DataChunk,
  DroppedSteering,
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
import { classicView, classicViews } from './classic-view.js';
import { type ContextTruncation, contextTruncationMini } from './context-truncation.js';
import { ERROR_KINDS, type ErrorKind } from './error-info.js';
import { jsonValueMini, type ProviderMetadata, providerMetadataMini } from './json.js';
import { listingEvery } from './listing-every.js';
import { type Redaction, redactionMini } from './redaction.js';
import { citationMini, sourceMini } from './source.js';

type OptionalOf<T extends z.ZodMiniType> = z.ZodMiniOptional<T>;

const metadata = z.optional(providerMetadataMini);
const step = z.number().check(z.int(), z.nonnegative());
const optionalString = z.optional(z.string());
const optionalBoolean = z.optional(z.boolean());
const systemKinds = listingEvery<SystemKind>()([
  'notice',
  'model-changed',
  'config-reload',
  'cancelled',
  'interrupted',
  'context-truncated',
  'resumed',
  'redacted',
]);

/** Every {@link SystemKind}, in a fixed order. */
export const SYSTEM_KINDS: readonly SystemKind[] = systemKinds;

/** The `zod/mini` schema of a {@link SystemKind}. */
export const systemKindMini: z.ZodMiniType<SystemKind> = z.enum(systemKinds);

const toolApproval = z.object({
  id: z.string(),
  approved: optionalBoolean,
  reason: optionalString,
  isAutomatic: optionalBoolean,
  signature: optionalString,
});

// A tool call: its first fields (id, tool, input), what happened to it, and the rest of it.
const callHead = {
  id: z.string(),
  name: z.string(),
  input: z.optional(jsonValueMini),
  inputText: optionalString,
};
const outcome = {
  result: z.optional(jsonValueMini),
  isError: optionalBoolean,
  denied: optionalBoolean,
  progress: optionalString,
  preliminary: z.optional(jsonValueMini),
  resultProviderMetadata: metadata,
  deferred: optionalBoolean,
};
const callTail = {
  providerExecuted: optionalBoolean,
  providerMetadata: metadata,
  dynamic: optionalBoolean,
  invalid: optionalBoolean,
  title: optionalString,
  approval: z.optional(toolApproval),
  orphan: optionalBoolean,
};
const toolCallEntry = z.object({ ...callHead, ...outcome, ...callTail });

// The fields of the chunk types that are one row each.
const text = {
  text: z.string(),
  id: optionalString,
  providerMetadata: metadata,
  citations: z.optional(z.array(citationMini)),
};
const thinking = {
  text: z.string(),
  id: optionalString,
  providerMetadata: metadata,
  modelId: optionalString,
};
const errorKindMini: z.ZodMiniType<ErrorKind> = z.enum(ERROR_KINDS as [ErrorKind, ...ErrorKind[]]);

/**
 * The fields of an error (`ErrorInfo`), in a chunk, row data and an `error` event alike.
 * All but `message` are optional: rows stored before a field existed still parse. Internal.
 */
export const errorFields: {
  readonly message: z.ZodMiniString;
  readonly statusCode: OptionalOf<z.ZodMiniNumber>;
  readonly kind: OptionalOf<z.ZodMiniType<ErrorKind>>;
  readonly retryable: OptionalOf<z.ZodMiniBoolean>;
  readonly attempts: OptionalOf<z.ZodMiniNumber>;
  readonly provider: OptionalOf<z.ZodMiniString>;
  readonly modelId: OptionalOf<z.ZodMiniString>;
} = {
  message: z.string(),
  statusCode: z.optional(z.number().check(z.int())),
  kind: z.optional(errorKindMini),
  retryable: optionalBoolean,
  attempts: z.optional(z.number().check(z.int(), z.positive())),
  provider: optionalString,
  modelId: optionalString,
};
const error = errorFields;
const steering = { id: z.string(), text: z.string() };

/** The fields of a system notice, in a chunk, row data and a `system` event alike. Internal. */
export const noticeFieldsMini: {
  readonly kind: z.ZodMiniType<SystemKind>;
  readonly text: z.ZodMiniString;
  readonly truncation: OptionalOf<z.ZodMiniType<ContextTruncation>>;
  readonly redaction: OptionalOf<z.ZodMiniType<Redaction>>;
  readonly dropped: OptionalOf<z.ZodMiniType<readonly DroppedSteering[]>>;
} = {
  kind: systemKindMini,
  text: z.string(),
  truncation: z.optional(contextTruncationMini),
  redaction: z.optional(redactionMini),
  dropped: z.optional(z.array(z.object(steering))),
};
const system = noticeFieldsMini;
const source = { source: sourceMini };

/** The fields of a file, in a chunk, row data and a `file` event alike. Internal. */
export const fileFields: {
  readonly mediaType: z.ZodMiniString;
  readonly data: OptionalOf<z.ZodMiniString>;
  readonly url: OptionalOf<z.ZodMiniString>;
  readonly filename: OptionalOf<z.ZodMiniString>;
  readonly providerMetadata: OptionalOf<z.ZodMiniType<ProviderMetadata>>;
  readonly reasoning: OptionalOf<z.ZodMiniBoolean>;
} = {
  mediaType: z.string(),
  data: optionalString,
  url: optionalString,
  filename: optionalString,
  providerMetadata: metadata,
  reasoning: optionalBoolean,
};
const file = fileFields;
const custom = { kind: z.string(), providerMetadata: metadata };
const data = { name: z.string(), id: optionalString, data: jsonValueMini };

/** The check that a file (chunk, row data or event) has exactly one of `data` and `url`. */
export const oneFileSource = (
  what: string,
): z.core.$ZodCheck<{
  readonly data?: string | undefined;
  readonly url?: string | undefined;
}> =>
  z.refine((f) => (f.data === undefined) !== (f.url === undefined), {
    error: `a file ${what} needs exactly one of \`data\` (base64) and \`url\``,
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
  .check(oneFileSource('chunk'));
const customChunk = z.object({ type: z.literal('custom'), step, ...custom });
const dataChunk = z.object({ type: z.literal('data'), step, ...data });

/** The `zod/mini` schema of a {@link Chunk}: any of the variants, told apart by `type`. */
export const chunkMini: z.ZodMiniType<Chunk> = z.discriminatedUnion('type', [
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

/** The `zod/mini` schemas of each row type's `data`: the fields of its chunk type. */
export const rowDataMini: {
  readonly [T in ChunkRowType]: z.ZodMiniType<Extract<ChunkRowDraft, { type: T }>['data']>;
} = {
  text: z.object(text),
  thinking: z.object(thinking),
  tool_call: z.object({
    id: callHead.id,
    name: callHead.name,
    index: z.number().check(z.int(), z.nonnegative()),
    input: callHead.input,
    inputText: callHead.inputText,
    ...callTail,
  }),
  tool_result: z.object({ callId: z.string(), name: callHead.name, ...outcome }),
  error: z.object(error),
  system: z.object(system),
  source: z.object(source),
  file: z.object(file).check(oneFileSource('row')),
  custom: z.object(custom),
  steering: z.object(steering),
  data: z.object(data),
};

/** Zod schema of a {@link SystemKind}. */
export const SystemKindSchema: ZodType<SystemKind> = /* @__PURE__ */ classicView(systemKindMini);
/** Zod schema of an {@link ErrorKind}. */
export const ErrorKindSchema: ZodType<ErrorKind> = /* @__PURE__ */ classicView(errorKindMini);
/** Zod schema of a {@link ToolApproval}. */
export const ToolApprovalSchema: ZodType<ToolApproval> = /* @__PURE__ */ classicView(toolApproval);
/** Zod schema of a {@link ToolCallEntry}. */
export const ToolCallEntrySchema: ZodType<ToolCallEntry> =
  /* @__PURE__ */ classicView(toolCallEntry);
/** Zod schema of a {@link Chunk}: any of the variants, told apart by `type`. */
export const ChunkSchema: ZodType<Chunk> = /* @__PURE__ */ classicView(chunkMini);
/** Zod schema of a {@link TextChunk}. */
export const TextChunkSchema: ZodType<TextChunk> = /* @__PURE__ */ classicView(textChunk);
/** Zod schema of a {@link ThinkingChunk}. */
export const ThinkingChunkSchema: ZodType<ThinkingChunk> =
  /* @__PURE__ */ classicView(thinkingChunk);
/** Zod schema of a {@link ToolBatchChunk}. */
export const ToolBatchChunkSchema: ZodType<ToolBatchChunk> =
  /* @__PURE__ */ classicView(toolBatchChunk);
/** Zod schema of a {@link ErrorChunk}. */
export const ErrorChunkSchema: ZodType<ErrorChunk> = /* @__PURE__ */ classicView(errorChunk);
/** Zod schema of a {@link SystemChunk}. */
export const SystemChunkSchema: ZodType<SystemChunk> = /* @__PURE__ */ classicView(systemChunk);
/** Zod schema of a {@link SteeringChunk}. */
export const SteeringChunkSchema: ZodType<SteeringChunk> =
  /* @__PURE__ */ classicView(steeringChunk);
/** Zod schema of a {@link SourceChunk}. */
export const SourceChunkSchema: ZodType<SourceChunk> = /* @__PURE__ */ classicView(sourceChunk);
/** Zod schema of a {@link FileChunk}. */
export const FileChunkSchema: ZodType<FileChunk> = /* @__PURE__ */ classicView(fileChunk);
/** Zod schema of a {@link CustomChunk}. */
export const CustomChunkSchema: ZodType<CustomChunk> = /* @__PURE__ */ classicView(customChunk);
/** Zod schema of a {@link DataChunk}. */
export const DataChunkSchema: ZodType<DataChunk> = /* @__PURE__ */ classicView(dataChunk);

/** Zod schemas of each row type's `data`: the fields of its chunk type. */
export const RowDataSchemas: {
  readonly [T in ChunkRowType]: ZodType<Extract<ChunkRowDraft, { type: T }>['data']>;
} = /* @__PURE__ */ classicViews(rowDataMini);
