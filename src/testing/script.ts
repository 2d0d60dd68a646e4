import type {
  JSONValue,
  LanguageModelV4CallOptions,
  LanguageModelV4StreamPart,
  SharedV4ProviderMetadata,
} from '@ai-sdk/provider';
import type { AiSdkFinishReason } from '../schema/usage.js';

/**
 * An API failure a scripted step reports: becomes an `APICallError` with this status code, as a
 * real provider's HTTP failure would. For example `{ statusCode: 429 }` or
 * `{ statusCode: 503, message: 'Network error', isRetryable: false }`.
 */
export interface ScriptedFailure {
  /** The HTTP status code, for example 429 (rate limit), 529 (overloaded) or 500. */
  readonly statusCode: number;
  /** The error message; defaults to a short text naming the status. */
  readonly message?: string | undefined;
  /** Whether a retry may succeed; defaults to true for 408, 409, 429 and 5xx, as the AI SDK does. */
  readonly isRetryable?: boolean | undefined;
  /** Response headers (for example `retry-after`). */
  readonly responseHeaders?: Readonly<Record<string, string>> | undefined;
}

/** A reasoning block, streamed as `reasoning-start`, deltas and `reasoning-end`. */
export interface ScriptedReasoning {
  readonly type: 'reasoning';
  /** The reasoning text; an array gives the deltas one by one, a string is split into words. */
  readonly text: string | readonly string[];
  /**
   * The Anthropic signature, streamed as an empty delta carrying
   * `providerMetadata.anthropic.signature` just before the end, as `@ai-sdk/anthropic` does.
   * `false` streams none.
   */
  readonly signature?: string | false | undefined;
  /** The block id; defaults to `{call index}-{block position}`. */
  readonly id?: string | undefined;
  /** Extra metadata on the block's end. */
  readonly providerMetadata?: SharedV4ProviderMetadata | undefined;
}

/** A redacted thinking block: a start carrying `providerMetadata.anthropic.redactedData`, no text. */
export interface ScriptedRedactedReasoning {
  readonly type: 'redacted-reasoning';
  /** The encrypted data. */
  readonly data: string;
  /** The block id; defaults to `{call index}-{block position}`. */
  readonly id?: string | undefined;
}

/** A text block, streamed as `text-start`, deltas and `text-end`. */
export interface ScriptedText {
  readonly type: 'text';
  /** The text; an array gives the deltas one by one, a string is split into words. */
  readonly text: string | readonly string[];
  /** The block id; defaults to `{call index}-{block position}`. */
  readonly id?: string | undefined;
  /** Metadata on the block's end. */
  readonly providerMetadata?: SharedV4ProviderMetadata | undefined;
}

/** A tool call, its input streamed as `tool-input-*` parts and then the complete `tool-call`. */
export interface ScriptedToolCall {
  readonly type: 'tool-call';
  readonly toolName: string;
  /** The input object (any JSON value). */
  readonly input: JSONValue;
  /** The call id; defaults to `call-{call index}-{position in the step}`. */
  readonly toolCallId?: string | undefined;
  /**
   * How the input is streamed: `true` (the default) in a few JSON pieces, a number for pieces of
   * that many characters, `false` for no `tool-input-*` parts at all.
   */
  readonly streamInput?: boolean | number | undefined;
  readonly providerExecuted?: boolean | undefined;
  readonly providerMetadata?: SharedV4ProviderMetadata | undefined;
}

/** A provider-executed tool's result (web search and similar). */
export interface ScriptedToolResult {
  readonly type: 'tool-result';
  readonly toolCallId: string;
  readonly toolName: string;
  readonly result: NonNullable<JSONValue>;
  readonly isError?: boolean | undefined;
  readonly providerMetadata?: SharedV4ProviderMetadata | undefined;
}

/** An `error` part in the middle of the stream (what a provider sends for a mid-stream failure). */
export interface ScriptedStreamError extends ScriptedFailure {
  readonly type: 'error';
}

/** The stream itself fails (a dropped connection): reading it rejects with an `APICallError`. */
export interface ScriptedStreamThrow extends ScriptedFailure {
  readonly type: 'throw';
}

/** Waits this many milliseconds before the next part (honours the abort signal). */
export interface ScriptedDelay {
  readonly type: 'delay';
  readonly ms: number;
}

/**
 * Waits until the promise settles before the next part (honours the abort signal). Lets a test
 * act at an exact point of the stream.
 */
export interface ScriptedWait {
  readonly type: 'wait';
  readonly until: PromiseLike<unknown> | (() => PromiseLike<unknown>);
}

/** Any raw v4 stream part, passed through as is. */
export interface ScriptedRawPart {
  readonly type: 'part';
  readonly part: LanguageModelV4StreamPart;
}

/** One thing a scripted step streams, for example `{ type: 'text', text: 'Hello world' }`. */
export type ScriptedPart =
  | ScriptedReasoning
  | ScriptedRedactedReasoning
  | ScriptedText
  | ScriptedToolCall
  | ScriptedToolResult
  | ScriptedStreamError
  | ScriptedStreamThrow
  | ScriptedDelay
  | ScriptedWait
  | ScriptedRawPart;

/** Token counts a step reports (`{ input: 100, output: 20, cacheRead: 80 }`). Omitted counts are derived from the prompt and output sizes. */
export interface ScriptedUsage {
  readonly input?: number | undefined;
  readonly output?: number | undefined;
  readonly reasoning?: number | undefined;
  readonly cacheRead?: number | undefined;
  readonly cacheWrite?: number | undefined;
}

/** The unified finish reasons of a v4 model (`'stop'`, `'tool-calls'`, `'length'`…). */
export type ScriptedFinishReason = AiSdkFinishReason;

/**
 * What one model call (one step of a turn) does.
 *
 * @example
 * ```ts
 * const step: ScriptedStep = {
 *   parts: [
 *     { type: 'reasoning', text: 'Two files.', signature: 'sig-1' },
 *     { type: 'tool-call', toolName: 'read_file', input: { path: 'a.ts' } },
 *     { type: 'tool-call', toolName: 'read_file', input: { path: 'b.ts' } },
 *   ],
 *   usage: { input: 1200, output: 40 },
 * };
 * ```
 */
export interface ScriptedStep {
  /** The parts streamed, in order. */
  readonly parts?: readonly ScriptedPart[] | undefined;
  /** Fail before streaming: `doStream` rejects with an `APICallError` (an HTTP error status). */
  readonly fail?: ScriptedFailure | undefined;
  /** Defaults to `tool-calls` when the step calls a client tool, else `stop`. */
  readonly finishReason?: ScriptedFinishReason | undefined;
  readonly usage?: ScriptedUsage | undefined;
  /** The response's model id (a `response-metadata` part); defaults to the model's id. */
  readonly responseModelId?: string | undefined;
  /** Milliseconds to wait before each part of this step; overrides the model's `delayMs`. */
  readonly delayMs?: number | undefined;
}

/**
 * A function of the call that returns its step, for answers that depend on the prompt. `index`
 * is the call's index among all the model's calls.
 *
 * @example
 * ```ts
 * const answer: ScriptedStepFunction = (call) => ({ parts: [{ type: 'text', text: String(call.prompt.length) }] });
 * const model = createScriptedModel(answer); // answers every call
 * ```
 */
export type ScriptedStepFunction = (
  call: LanguageModelV4CallOptions,
  index: number,
) => ScriptedStep;

/** A step, or a function of the call that returns one (for answers that depend on the prompt): `(call) => ({ parts: [{ type: 'text', text: String(call.prompt.length) }] })`. */
export type ScriptEntry = ScriptedStep | ScriptedStepFunction;

/** A script: one entry per model call, in call order (`[{ parts: [...] }, { fail: { statusCode: 429 } }]`). */
export type Script = readonly ScriptEntry[];
