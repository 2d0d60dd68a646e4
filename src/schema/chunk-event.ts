import type { ZodType } from 'zod';
import * as z from 'zod/mini';
import type { DroppedSteering, SystemKind } from './chunk.js';
import { errorFields, fileFields, noticeFieldsMini, oneFileSource } from './chunk-schemas.js';
import { classicView } from './classic-view.js';
import type { ContextTruncation } from './context-truncation.js';
import type { ErrorInfo } from './error-info.js';
import {
  type JSONValue,
  jsonValueMini,
  type ProviderMetadata,
  providerMetadataMini,
} from './json.js';
import { listingEvery } from './listing-every.js';
import type { Redaction } from './redaction.js';
import { type Citation, citationMini, type Source, sourceMini } from './source.js';
import { type FinishReason, finishReasonMini, type TokenUsage, tokenUsageMini } from './usage.js';

/** A turn began. The first event of every turn. */
export interface TurnStartEvent {
  readonly type: 'turn-start';
  /** The id every row of this turn will carry. */
  readonly turnId: string;
  /** The id of the assistant message the turn produces, when the app assigns one. */
  readonly assistantId?: string | undefined;
  /**
   * The role of the message the turn makes: `system` for a system event outside a turn (a
   * notice stored as a system message of its own), so that a client shows it as one from its
   * first event; `assistant` (the default) for a model's turn.
   */
  readonly role?: 'assistant' | 'system' | undefined;
  /**
   * The text of the user's message the turn answers, as stored (redacted when the session
   * redacts). A client that did not send it (a second tab, a page reloaded mid-turn) shows it
   * above the answer until the turn's rows are stored. Absent on a turn continued after a crash
   * (its user message is stored already) and on a system turn.
   */
  readonly userText?: string | undefined;
}

/** A turn ended (finished, failed or was cancelled). The last event of every turn. */
export interface TurnEndEvent {
  readonly type: 'turn-end';
  readonly finishReason?: FinishReason | undefined;
  /** Token usage of the whole turn. */
  readonly usage?: TokenUsage | undefined;
}

/**
 * A step (one model call) began. `step` is its zero-based number; when a producer does not know
 * it, the reducer numbers steps itself (0 for the first `step-start` of a turn, then one more).
 */
export interface StepStartEvent {
  readonly type: 'step-start';
  readonly step?: number | undefined;
  /** The model called in this step, when known before it answers. */
  readonly modelId?: string | undefined;
}

/** A step finished. */
export interface StepFinishEvent {
  readonly type: 'step-finish';
  /** The step's number; when absent, the step in progress. */
  readonly step?: number | undefined;
  readonly finishReason: FinishReason;
  readonly usage?: TokenUsage | undefined;
  /** The model that answered this step (the response's model id). */
  readonly modelId?: string | undefined;
  /**
   * The step's provider metadata (for example Anthropic's `stopDetails` explaining a refusal,
   * or OpenAI's response id).
   */
  readonly providerMetadata?: ProviderMetadata | undefined;
}

/** The start of a text block. */
export interface TextStartEvent {
  readonly type: 'text-start';
  readonly id?: string | undefined;
  readonly providerMetadata?: ProviderMetadata | undefined;
}

/** Text appended to a text block. */
export interface TextDeltaEvent {
  readonly type: 'text-delta';
  readonly id?: string | undefined;
  readonly text: string;
  readonly providerMetadata?: ProviderMetadata | undefined;
}

/** The end of a text block; citations, when the provider gives any, ride on it. */
export interface TextEndEvent {
  readonly type: 'text-end';
  readonly id?: string | undefined;
  readonly providerMetadata?: ProviderMetadata | undefined;
  readonly citations?: readonly Citation[] | undefined;
}

/** The start of a reasoning block (redacted thinking may arrive as a start with metadata only). */
export interface ReasoningStartEvent {
  readonly type: 'reasoning-start';
  readonly id?: string | undefined;
  readonly providerMetadata?: ProviderMetadata | undefined;
}

/** Reasoning text appended to a reasoning block (a signature may arrive with empty text). */
export interface ReasoningDeltaEvent {
  readonly type: 'reasoning-delta';
  readonly id?: string | undefined;
  readonly text: string;
  readonly providerMetadata?: ProviderMetadata | undefined;
}

/** The end of a reasoning block. */
export interface ReasoningEndEvent {
  readonly type: 'reasoning-end';
  readonly id?: string | undefined;
  readonly providerMetadata?: ProviderMetadata | undefined;
}

/** Provider-specific content with no standard payload (`anthropic.fallback`, a refusal). */
export interface CustomEvent {
  readonly type: 'custom';
  readonly kind: string;
  readonly providerMetadata?: ProviderMetadata | undefined;
}

/** The model began streaming a tool call's input. */
export interface ToolInputStartEvent {
  readonly type: 'tool-input-start';
  readonly toolCallId: string;
  readonly toolName: string;
  readonly providerExecuted?: boolean | undefined;
  readonly providerMetadata?: ProviderMetadata | undefined;
  readonly dynamic?: boolean | undefined;
  readonly title?: string | undefined;
}

/** A piece of a tool call's streamed input (raw JSON text). */
export interface ToolInputDeltaEvent {
  readonly type: 'tool-input-delta';
  readonly toolCallId: string;
  readonly delta: string;
}

/** A complete tool call. */
export interface ToolCallEvent {
  readonly type: 'tool-call';
  readonly toolCallId: string;
  readonly toolName: string;
  readonly input: JSONValue;
  readonly providerExecuted?: boolean | undefined;
  readonly providerMetadata?: ProviderMetadata | undefined;
  readonly dynamic?: boolean | undefined;
  /** True for a call the SDK could not parse or whose tool does not exist. */
  readonly invalid?: boolean | undefined;
  readonly title?: string | undefined;
}

/**
 * Progress of a running tool: `text` is appended to the call's progress (like a shell's output);
 * `output` is the latest preliminary result of a generator tool and replaces the one before.
 */
export interface ToolProgressEvent {
  readonly type: 'tool-progress';
  readonly toolCallId: string;
  readonly text?: string | undefined;
  readonly output?: JSONValue | undefined;
}

/** The final result of a tool call. */
export interface ToolResultEvent {
  readonly type: 'tool-result';
  readonly toolCallId: string;
  /** The tool's name; lets a result whose call is unknown still be sent back correctly. */
  readonly toolName?: string | undefined;
  readonly output: JSONValue;
  /** True when `output` is an error (the tool threw, or execution was denied). */
  readonly isError?: boolean | undefined;
  /** True when execution was denied. */
  readonly denied?: boolean | undefined;
  readonly providerExecuted?: boolean | undefined;
  readonly providerMetadata?: ProviderMetadata | undefined;
}

/** A tool call needs approval before it runs. */
export interface ToolApprovalRequestEvent {
  readonly type: 'tool-approval-request';
  readonly toolCallId: string;
  readonly approvalId: string;
  readonly reason?: string | undefined;
  readonly isAutomatic?: boolean | undefined;
  /** The AI SDK's HMAC signature binding the request to its call, checked when it is answered. */
  readonly signature?: string | undefined;
}

/** An approval request was answered. */
export interface ToolApprovalResponseEvent {
  readonly type: 'tool-approval-response';
  readonly approvalId: string;
  readonly approved: boolean;
  readonly reason?: string | undefined;
  /** The call the approval was for, when known. */
  readonly toolCallId?: string | undefined;
}

/** A source the model used. */
export interface SourceEvent {
  readonly type: 'source';
  readonly source: Source;
}

/** A file the model generated (`reasoning: true` for a file of its reasoning). */
export interface FileEvent {
  readonly type: 'file';
  readonly mediaType: string;
  /** Base64 content; exactly one of `data` and `url` is set. */
  readonly data?: string | undefined;
  readonly url?: string | undefined;
  readonly filename?: string | undefined;
  readonly providerMetadata?: ProviderMetadata | undefined;
  readonly reasoning?: boolean | undefined;
}

/** A user message joined the running turn before step `step` (the AI SDK's steering). */
export interface SteeringMessageEvent {
  readonly type: 'steering-message';
  readonly id: string;
  readonly text: string;
  readonly step: number;
}

/**
 * An error, with what is known of it ({@link ErrorInfo}: a failed API call has its HTTP status
 * in `statusCode`, its kind, whether a retry can help, and the model that failed).
 */
export interface ErrorEvent extends ErrorInfo {
  readonly type: 'error';
}

/** A system notice (a model switch, a config reload, a cancel). */
export interface SystemEvent {
  readonly type: 'system';
  readonly kind: SystemKind;
  readonly text: string;
  /** On a `context-truncated` event: the cut it records. */
  readonly truncation?: ContextTruncation | undefined;
  /** On a `redacted` event: what was redacted, by kind. */
  readonly redaction?: Redaction | undefined;
  /** On a `cancelled` event: the steering messages the cancel dropped before the model saw them. */
  readonly dropped?: readonly DroppedSteering[] | undefined;
}

/** The JSON wire vocabulary: everything that can happen during a turn. */
export type ChunkEvent =
  | TurnStartEvent
  | TurnEndEvent
  | StepStartEvent
  | StepFinishEvent
  | TextStartEvent
  | TextDeltaEvent
  | TextEndEvent
  | ReasoningStartEvent
  | ReasoningDeltaEvent
  | ReasoningEndEvent
  | CustomEvent
  | ToolInputStartEvent
  | ToolInputDeltaEvent
  | ToolCallEvent
  | ToolProgressEvent
  | ToolResultEvent
  | ToolApprovalRequestEvent
  | ToolApprovalResponseEvent
  | SourceEvent
  | FileEvent
  | SteeringMessageEvent
  | ErrorEvent
  | SystemEvent;

/** The `type` of a {@link ChunkEvent}. */
export type ChunkEventType = ChunkEvent['type'];

/** The event of a given type. */
export type ChunkEventOf<T extends ChunkEventType> = Extract<ChunkEvent, { type: T }>;

const allChunkEventTypes = listingEvery<ChunkEventType>()([
  'turn-start',
  'turn-end',
  'step-start',
  'step-finish',
  'text-start',
  'text-delta',
  'text-end',
  'reasoning-start',
  'reasoning-delta',
  'reasoning-end',
  'custom',
  'tool-input-start',
  'tool-input-delta',
  'tool-call',
  'tool-progress',
  'tool-result',
  'tool-approval-request',
  'tool-approval-response',
  'source',
  'file',
  'steering-message',
  'error',
  'system',
]);

/** Every {@link ChunkEventType}, in a fixed order. Generators and exhaustive tests use it. */
export const CHUNK_EVENT_TYPES: readonly ChunkEventType[] = allChunkEventTypes;

const id = z.optional(z.string());
const optionalString = z.optional(z.string());
const optionalBoolean = z.optional(z.boolean());
const metadata = z.optional(providerMetadataMini);
const stepNumber = z.number().check(z.int(), z.nonnegative());

const turnStart = z.object({
  type: z.literal('turn-start'),
  turnId: z.string().check(z.minLength(1)),
  assistantId: id,
  role: z.optional(z.enum(['assistant', 'system'])),
  userText: optionalString,
});
const turnEnd = z.object({
  type: z.literal('turn-end'),
  finishReason: z.optional(finishReasonMini),
  usage: z.optional(tokenUsageMini),
});
const stepStart = z.object({
  type: z.literal('step-start'),
  step: z.optional(stepNumber),
  modelId: id,
});
const stepFinish = z.object({
  type: z.literal('step-finish'),
  step: z.optional(stepNumber),
  finishReason: finishReasonMini,
  usage: z.optional(tokenUsageMini),
  modelId: id,
  providerMetadata: metadata,
});
const textStart = z.object({ type: z.literal('text-start'), id, providerMetadata: metadata });
const textDelta = z.object({
  type: z.literal('text-delta'),
  id,
  text: z.string(),
  providerMetadata: metadata,
});
const textEnd = z.object({
  type: z.literal('text-end'),
  id,
  providerMetadata: metadata,
  citations: z.optional(z.array(citationMini)),
});
const reasoningStart = z.object({
  type: z.literal('reasoning-start'),
  id,
  providerMetadata: metadata,
});
const reasoningDelta = z.object({
  type: z.literal('reasoning-delta'),
  id,
  text: z.string(),
  providerMetadata: metadata,
});
const reasoningEnd = z.object({ type: z.literal('reasoning-end'), id, providerMetadata: metadata });
const custom = z.object({
  type: z.literal('custom'),
  kind: z.string(),
  providerMetadata: metadata,
});
const toolInputStart = z.object({
  type: z.literal('tool-input-start'),
  toolCallId: z.string(),
  toolName: z.string(),
  providerExecuted: optionalBoolean,
  providerMetadata: metadata,
  dynamic: optionalBoolean,
  title: optionalString,
});
const toolInputDelta = z.object({
  type: z.literal('tool-input-delta'),
  toolCallId: z.string(),
  delta: z.string(),
});
const toolCall = z.object({
  type: z.literal('tool-call'),
  toolCallId: z.string(),
  toolName: z.string(),
  input: jsonValueMini,
  providerExecuted: optionalBoolean,
  providerMetadata: metadata,
  dynamic: optionalBoolean,
  invalid: optionalBoolean,
  title: optionalString,
});
const toolProgress = z.object({
  type: z.literal('tool-progress'),
  toolCallId: z.string(),
  text: optionalString,
  output: z.optional(jsonValueMini),
});
const toolResult = z.object({
  type: z.literal('tool-result'),
  toolCallId: z.string(),
  toolName: optionalString,
  output: jsonValueMini,
  isError: optionalBoolean,
  denied: optionalBoolean,
  providerExecuted: optionalBoolean,
  providerMetadata: metadata,
});
const toolApprovalRequest = z.object({
  type: z.literal('tool-approval-request'),
  toolCallId: z.string(),
  approvalId: z.string(),
  reason: optionalString,
  isAutomatic: optionalBoolean,
  signature: optionalString,
});
const toolApprovalResponse = z.object({
  type: z.literal('tool-approval-response'),
  approvalId: z.string(),
  approved: z.boolean(),
  reason: optionalString,
  toolCallId: optionalString,
});
const source = z.object({ type: z.literal('source'), source: sourceMini });
const file = z.object({ type: z.literal('file'), ...fileFields }).check(oneFileSource('event'));
const steeringMessage = z.object({
  type: z.literal('steering-message'),
  id: z.string(),
  text: z.string(),
  step: stepNumber,
});
const error = z.object({ type: z.literal('error'), ...errorFields });
const system = z.object({ type: z.literal('system'), ...noticeFieldsMini });

/**
 * The `zod/mini` schema of a {@link ChunkEvent}: any event of the wire vocabulary, told apart by
 * `type`. What the window validates live events with.
 */
export const chunkEventMini: z.ZodMiniType<ChunkEvent> = z.discriminatedUnion('type', [
  turnStart,
  turnEnd,
  stepStart,
  stepFinish,
  textStart,
  textDelta,
  textEnd,
  reasoningStart,
  reasoningDelta,
  reasoningEnd,
  custom,
  toolInputStart,
  toolInputDelta,
  toolCall,
  toolProgress,
  toolResult,
  toolApprovalRequest,
  toolApprovalResponse,
  source,
  file,
  steeringMessage,
  error,
  system,
]);

/** Zod schema of a {@link ChunkEvent}: any event of the wire vocabulary, told apart by `type`. */
export const ChunkEventSchema: ZodType<ChunkEvent> = /* @__PURE__ */ classicView(chunkEventMini);
