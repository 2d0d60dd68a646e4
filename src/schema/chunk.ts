import type { ContextTruncation } from './context-truncation.js';
import type { ErrorInfo } from './error-info.js';
import type { JSONValue, ProviderMetadata } from './json.js';
import { listingEvery } from './listing-every.js';
import type { Redaction } from './redaction.js';
import type { Citation, Source } from './source.js';

/** The kinds of system notice a turn or thread can record. */
export type SystemKind =
  | 'notice'
  | 'model-changed'
  | 'config-reload'
  | 'cancelled'
  | 'interrupted'
  | 'context-truncated'
  | 'resumed'
  | 'redacted';

/** What every chunk has: the zero-based step of the turn it happened in. */
export interface ChunkBase {
  /** The step (model call) of the turn this chunk belongs to, starting at 0. */
  readonly step: number;
}

/** Text the model wrote (or, in a user message, the user's text). One provider text block. */
export interface TextChunk extends ChunkBase {
  readonly type: 'text';
  readonly text: string;
  /** The provider's block id, when the stream had one. */
  readonly id?: string | undefined;
  /** Metadata merged from the block's start, deltas and end (later keys win). */
  readonly providerMetadata?: ProviderMetadata | undefined;
  /** Citations that arrived on the block's end. */
  readonly citations?: readonly Citation[] | undefined;
}

/**
 * Reasoning the model produced. One provider reasoning block. Anthropic's signature and
 * redacted thinking, and OpenAI's reasoning item id and encrypted content, live in
 * `providerMetadata`; an empty thinking chunk that carries metadata (redacted thinking) is kept.
 */
export interface ThinkingChunk extends ChunkBase {
  readonly type: 'thinking';
  readonly text: string;
  /** The provider's block id, when the stream had one. */
  readonly id?: string | undefined;
  /** Metadata merged from the block's start, deltas and end (later keys win). */
  readonly providerMetadata?: ProviderMetadata | undefined;
  /** The model that produced this reasoning, when known (its signature is only valid for it). */
  readonly modelId?: string | undefined;
}

/** The approval state of a tool call that needed the user's approval. */
export interface ToolApproval {
  /** The approval request's id. */
  readonly id: string;
  /** Whether it was approved; absent while the request is pending. */
  readonly approved?: boolean | undefined;
  /** Why it was approved or denied, when given. */
  readonly reason?: string | undefined;
  /** Whether the decision was taken automatically. */
  readonly isAutomatic?: boolean | undefined;
  /** The AI SDK's HMAC signature of the request, needed to answer it from a stored history. */
  readonly signature?: string | undefined;
}

/** One tool call in a {@link ToolBatchChunk}, with everything that happened to it. */
export interface ToolCallEntry {
  /** The tool call id. */
  readonly id: string;
  /** The tool's name (empty for an orphan result whose name was not given). */
  readonly name: string;
  /** The call's arguments; absent until the `tool-call` event (input still streaming, or never finished). */
  readonly input?: JSONValue | undefined;
  /** The raw input streamed so far by `tool-input-delta`, kept only until `input` is known. */
  readonly inputText?: string | undefined;
  /** The final result; absent while the call runs. */
  readonly result?: JSONValue | undefined;
  /** Whether `result` is an error (a thrown tool, a denied execution). */
  readonly isError?: boolean | undefined;
  /** Whether execution was denied (by the user, or by an approval rule). */
  readonly denied?: boolean | undefined;
  /** Progress text streamed while the tool ran, appended in order (a shell's output). */
  readonly progress?: string | undefined;
  /** The latest preliminary result of a generator tool. */
  readonly preliminary?: JSONValue | undefined;
  /** Whether the provider executed the tool (web search and similar server tools). */
  readonly providerExecuted?: boolean | undefined;
  /**
   * Provider metadata of the call: its `tool-input-start`'s and `tool-call`'s, merged (later keys
   * win). The call part goes back to the model with it.
   */
  readonly providerMetadata?: ProviderMetadata | undefined;
  /**
   * Provider metadata of the call's result (its `tool-result` event's), kept apart from the
   * call's: a provider-executed result goes back to the model with it (an OpenAI web search
   * result's `itemId`), as the AI SDK's loop sends it.
   */
  readonly resultProviderMetadata?: ProviderMetadata | undefined;
  /** Whether the tool was not in the declared tool set (a dynamic tool). */
  readonly dynamic?: boolean | undefined;
  /** Whether the call was invalid (unparsable input or an unknown tool). */
  readonly invalid?: boolean | undefined;
  /** The tool's display title, when it has one. */
  readonly title?: string | undefined;
  /** The approval this call needed, when it needed one. */
  readonly approval?: ToolApproval | undefined;
  /** True when a result, progress or approval arrived for a call id this turn never saw called. */
  readonly orphan?: boolean | undefined;
  /**
   * True on a **deferred result**: the outcome of a call made earlier in the turn that arrived
   * apart from it (a provider-executed result after other content, or in a later step), kept
   * where it arrived. The entry holds only the call's `id` and `name` and the outcome fields; its
   * call is the entry of that id without this flag, earlier in the turn.
   */
  readonly deferred?: boolean | undefined;
}

/** Tool calls made together (parallel calls of one step), each with its result once known. */
export interface ToolBatchChunk extends ChunkBase {
  readonly type: 'tool-batch';
  readonly calls: readonly ToolCallEntry[];
}

/**
 * An error that ended or interrupted the turn, with what is known of it ({@link ErrorInfo}: the
 * HTTP status, the kind of failure, whether sending again can help, the model that failed).
 * Never sent to the model.
 */
export interface ErrorChunk extends ChunkBase, ErrorInfo {
  readonly type: 'error';
}

/** A notice from the app or the runtime (a model switch, a cancel). Never sent to the model. */
export interface SystemChunk extends ChunkBase {
  readonly type: 'system';
  readonly kind: SystemKind;
  readonly text: string;
  /** On a `context-truncated` chunk: the cut it records (see `docs/model-input.md`). */
  readonly truncation?: ContextTruncation | undefined;
  /** On a `redacted` chunk: what was redacted, by kind (see `docs/session.md`, _Redaction_). */
  readonly redaction?: Redaction | undefined;
  /**
   * On a `cancelled` chunk: the steering messages the cancel dropped before the model saw them,
   * in the order they were sent (see `docs/session.md`, _Steering_). Never sent to the model.
   */
  readonly dropped?: readonly DroppedSteering[] | undefined;
}

/**
 * A steering message a cancel dropped before it reached the model: its id (the one `steer`
 * answered with) and its text, as the session would have sent it (redacted, when it redacts).
 */
export interface DroppedSteering {
  readonly id: string;
  readonly text: string;
}

/** A user message that joined the running turn at a step boundary. Stored with role `user`. */
export interface SteeringChunk extends ChunkBase {
  readonly type: 'steering';
  /** The steering message's id. */
  readonly id: string;
  readonly text: string;
}

/** A source the model used (web search results, documents). Stored, not sent back to the model. */
export interface SourceChunk extends ChunkBase {
  readonly type: 'source';
  readonly source: Source;
}

/** A file: generated by the model, produced by its reasoning, or attached by the user. */
export interface FileChunk extends ChunkBase {
  readonly type: 'file';
  /** The IANA media type. */
  readonly mediaType: string;
  /** The content as base64, when inline. Exactly one of `data` and `url` is set. */
  readonly data?: string | undefined;
  /** Where the content is, when not inline. */
  readonly url?: string | undefined;
  readonly filename?: string | undefined;
  readonly providerMetadata?: ProviderMetadata | undefined;
  /** True for a file produced by the model's reasoning (`reasoning-file`). */
  readonly reasoning?: boolean | undefined;
}

/**
 * Provider-specific content with no standard payload (an Anthropic fallback marker between two
 * thinking blocks, the only content of a refused answer). Kept in order and sent back in place.
 */
export interface CustomChunk extends ChunkBase {
  readonly type: 'custom';
  /** `{provider}.{type}`, for example `anthropic.fallback`. */
  readonly kind: string;
  readonly providerMetadata?: ProviderMetadata | undefined;
}

/**
 * An app's own UI data, as the AI SDK's `data-${name}` message part carries it (a weather card, a
 * progress bar). chunklog never produces one from a model stream; it keeps the ones an app stores
 * (for example UI messages imported with `fromUIMessages`) in place. Never sent to the model.
 */
export interface DataChunk extends ChunkBase {
  readonly type: 'data';
  /** The part's name: `weather` for a `data-weather` part. */
  readonly name: string;
  /** The part's id, when it has one (the AI SDK updates a data part in place by id). */
  readonly id?: string | undefined;
  readonly data: JSONValue;
}

/** One ordered piece of a turn. */
export type Chunk =
  | TextChunk
  | ThinkingChunk
  | ToolBatchChunk
  | ErrorChunk
  | SystemChunk
  | SteeringChunk
  | SourceChunk
  | FileChunk
  | CustomChunk
  | DataChunk;

/** The `type` of a {@link Chunk}. */
export type ChunkType = Chunk['type'];

const allChunkTypes = listingEvery<ChunkType>()([
  'text',
  'thinking',
  'tool-batch',
  'error',
  'system',
  'steering',
  'source',
  'file',
  'custom',
  'data',
]);

/** Every {@link ChunkType}, in a fixed order. */
export const CHUNK_TYPES: readonly ChunkType[] = allChunkTypes;

export {
  ChunkSchema,
  CustomChunkSchema,
  DataChunkSchema,
  ErrorChunkSchema,
  ErrorKindSchema,
  FileChunkSchema,
  SourceChunkSchema,
  SteeringChunkSchema,
  SYSTEM_KINDS,
  SystemChunkSchema,
  SystemKindSchema,
  TextChunkSchema,
  ThinkingChunkSchema,
  ToolApprovalSchema,
  ToolBatchChunkSchema,
  ToolCallEntrySchema,
} from './chunk-schemas.js';
