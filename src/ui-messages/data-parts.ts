import type {
  ContextTruncation,
  DroppedSteering,
  ErrorInfo,
  Redaction,
  SystemKind,
} from '../schema/index.js';

/**
 * The names of the data parts chunklog adds to a `UIMessage` for what the AI SDK has no part for.
 * `convertToModelMessages` ignores data parts, so none of them reaches the model.
 *
 * - `data-chunklog-system`: a system notice (`{ kind, text }`), from a `system` chunk.
 * - `data-chunklog-error`: an error of the turn (an `ErrorInfo`: `{ message, statusCode?, kind?,
 *   retryable?, attempts?, provider?, modelId? }`), from an `error` chunk.
 * - `data-chunklog-tool-progress`: the progress text a running tool streamed (`{ toolCallId, text }`,
 *   part id = the tool call id), placed after the tool parts of its batch.
 *
 * The `data-chunklog-` prefix is reserved: `fromUIMessages` rejects any other part that uses it.
 *
 * @example
 * ```tsx
 * if (part.type === CHUNKLOG_DATA_PARTS.system) return <Notice text={part.data.text} />;
 * ```
 */
export const CHUNKLOG_DATA_PARTS: {
  readonly system: 'data-chunklog-system';
  readonly error: 'data-chunklog-error';
  readonly toolProgress: 'data-chunklog-tool-progress';
  readonly deferredResult: 'data-chunklog-deferred-result';
} = {
  system: 'data-chunklog-system',
  error: 'data-chunklog-error',
  toolProgress: 'data-chunklog-tool-progress',
  deferredResult: 'data-chunklog-deferred-result',
};

/**
 * The prefix every chunklog data part type starts with; reserved.
 *
 * @example
 * ```ts
 * const mine = message.parts.filter((p) => !p.type.startsWith(CHUNKLOG_DATA_PART_PREFIX));
 * ```
 */
export const CHUNKLOG_DATA_PART_PREFIX = 'data-chunklog-';

/**
 * `data` of a `data-chunklog-system` part.
 *
 * @example
 * ```ts
 * const notice: ChunklogSystemData = { kind: 'model-changed', text: 'Switched to Haiku' };
 * ```
 */
export interface ChunklogSystemData {
  readonly kind: SystemKind;
  readonly text: string;
  /** On a `context-truncated` notice: the cut it records. */
  readonly truncation?: ContextTruncation | undefined;
  /** On a `redacted` notice: what was redacted, by kind. */
  readonly redaction?: Redaction | undefined;
  /** On a `cancelled` notice: the steering messages the cancel dropped (never sent to the model). */
  readonly dropped?: readonly DroppedSteering[] | undefined;
}

/**
 * `data` of a `data-chunklog-error` part.
 *
 * @example
 * ```ts
 * const error: ChunklogErrorData = { message: 'Overloaded', statusCode: 529 };
 * ```
 */
export type ChunklogErrorData = ErrorInfo;

/**
 * `data` of a `data-chunklog-tool-progress` part.
 *
 * @example
 * ```ts
 * const progress: ChunklogToolProgressData = { toolCallId: 'call-1', text: '3 files copied' };
 * ```
 */
export interface ChunklogToolProgressData {
  readonly toolCallId: string;
  readonly text: string;
}

/**
 * `data` of a `data-chunklog-deferred-result` part: it marks where the result of a call arrived
 * when it arrived apart from the call (a deferred result). The result itself is on the call's
 * tool part, as `useChat` shows it.
 *
 * @example
 * ```ts
 * const marker: ChunklogDeferredResultData = { toolCallId: 'srvtoolu_1' };
 * ```
 */
export interface ChunklogDeferredResultData {
  readonly toolCallId: string;
}

/**
 * The data part types chunklog adds, keyed by name without the `data-` prefix, for an app's typed
 * `UIMessage<METADATA, DATA_TYPES, TOOLS>`.
 *
 * @example
 * ```ts
 * type MyUIMessage = UIMessage<never, ChunklogUIDataTypes & { weather: Weather }>;
 * ```
 */
export type ChunklogUIDataTypes = {
  'chunklog-system': ChunklogSystemData;
  'chunklog-error': ChunklogErrorData;
  'chunklog-tool-progress': ChunklogToolProgressData;
  'chunklog-deferred-result': ChunklogDeferredResultData;
};

/**
 * A `data-chunklog-system` part.
 *
 * @example
 * ```ts
 * const notices = message.parts.filter(isChunklogSystemPart); // ChunklogSystemUIPart[]
 * ```
 */
export interface ChunklogSystemUIPart {
  readonly type: 'data-chunklog-system';
  readonly id?: string | undefined;
  readonly data: ChunklogSystemData;
}

/**
 * A `data-chunklog-error` part.
 *
 * @example
 * ```ts
 * const last = message.parts.filter(isChunklogErrorPart).at(-1); // ChunklogErrorUIPart
 * ```
 */
export interface ChunklogErrorUIPart {
  readonly type: 'data-chunklog-error';
  readonly id?: string | undefined;
  readonly data: ChunklogErrorData;
}

/**
 * A `data-chunklog-tool-progress` part; its `id` is the tool call id.
 *
 * @example
 * ```ts
 * const byCall = new Map(message.parts.filter(isChunklogToolProgressPart).map((p) => [p.id, p.data.text]));
 * ```
 */
export interface ChunklogToolProgressUIPart {
  readonly type: 'data-chunklog-tool-progress';
  readonly id: string;
  readonly data: ChunklogToolProgressData;
}

/**
 * Whether `part` is a chunklog system notice.
 *
 * @param part - a part of a `UIMessage` (or anything with a string `type`)
 * @returns true for a `data-chunklog-system` part
 * @example
 * ```ts
 * const notices = message.parts.filter(isChunklogSystemPart).map((p) => p.data.text);
 * ```
 */
export function isChunklogSystemPart(part: {
  readonly type: string;
}): part is ChunklogSystemUIPart {
  return part.type === CHUNKLOG_DATA_PARTS.system;
}

/**
 * Whether `part` is a chunklog error.
 *
 * @param part - a part of a `UIMessage` (or anything with a string `type`)
 * @returns true for a `data-chunklog-error` part
 * @example
 * ```ts
 * const failed = message.parts.some(isChunklogErrorPart);
 * ```
 */
export function isChunklogErrorPart(part: { readonly type: string }): part is ChunklogErrorUIPart {
  return part.type === CHUNKLOG_DATA_PARTS.error;
}

/**
 * Whether `part` is the progress text of a running tool.
 *
 * @param part - a part of a `UIMessage` (or anything with a string `type`)
 * @returns true for a `data-chunklog-tool-progress` part
 * @example
 * ```ts
 * const output = message.parts.find(
 *   (p) => isChunklogToolProgressPart(p) && p.id === toolCallId,
 * );
 * ```
 */
export function isChunklogToolProgressPart(part: {
  readonly type: string;
}): part is ChunklogToolProgressUIPart {
  return part.type === CHUNKLOG_DATA_PARTS.toolProgress;
}
