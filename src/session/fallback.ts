import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4GenerateResult,
  LanguageModelV4StreamPart,
  LanguageModelV4StreamResult,
} from '@ai-sdk/provider';
import { RetryError } from 'ai';
import { type Backoff, backoffDelay, sleep } from '../errors/backoff.js';
import { statusCodeOf } from '../events/errors.js';

/** Why a call moved to the next model: `'rate-limit'` (429), `'overloaded'` (529, 503), `'server-error'` (other 5xx). */
export type FallbackReason = 'rate-limit' | 'overloaded' | 'server-error';

/**
 * A switch from one model to the next, as the fallback chain reports it in the stream, for
 * example `{ from: { modelId: 'opus' }, to: { modelId: 'sonnet' }, reason: 'rate-limit', statusCode: 429 }`.
 */
export interface ModelSwitch {
  readonly from: { readonly provider: string; readonly modelId: string };
  readonly to: { readonly provider: string; readonly modelId: string };
  readonly reason: FallbackReason;
  readonly statusCode: number;
  /** The failed call's error message. */
  readonly message: string;
}

const switchMarker: unique symbol = Symbol.for('chunklog.model-switch');

function isRecord(value: unknown): value is Record<PropertyKey, unknown> {
  return typeof value === 'object' && value !== null;
}

/**
 * Whether an error should move the call to the next model: a rate limit (429), an overload
 * (529, 503) or any other 5xx.
 *
 * @param error - the failure
 * @returns why to fall back, or undefined to let the error stand
 *
 * @example
 * ```ts
 * fallbackReason({ statusCode: 429 }); // 'rate-limit'
 * fallbackReason({ statusCode: 400 }); // undefined
 * ```
 */
export function fallbackReason(error: unknown): FallbackReason | undefined {
  const status = statusCodeOf(error);
  if (status === undefined) return undefined;
  if (status === 429) return 'rate-limit';
  if (status === 529 || status === 503) return 'overloaded';
  if (status >= 500 && status <= 599) return 'server-error';
  return undefined;
}

function messageOf(error: unknown): string {
  if (isRecord(error) && typeof error.message === 'string') return error.message;
  return String(error);
}

/**
 * Reads a model switch from a `raw` stream part, when it is one.
 *
 * @param rawValue - the `rawValue` of a `raw` part
 * @returns the switch, or undefined for any other raw value
 *
 * @example
 * ```ts
 * if (part.type === 'raw') console.log(readModelSwitch(part.rawValue)?.to.modelId);
 * ```
 */
export function readModelSwitch(rawValue: unknown): ModelSwitch | undefined {
  if (!isRecord(rawValue)) return undefined;
  const value = rawValue[switchMarker];
  return isRecord(value) ? (value as unknown as ModelSwitch) : undefined;
}

/**
 * The text of the `model-changed` system chunk a switch records, for example
 * `Switched to claude-sonnet-4 (rate limit, HTTP 429)`.
 *
 * @param change - the switch
 * @returns the text
 *
 * @example
 * ```ts
 * session.subscribe((event) => {
 *   if (event.type === 'system' && event.kind === 'model-changed') toast(event.text);
 * });
 * ```
 */
export function describeModelSwitch(change: ModelSwitch): string {
  const why =
    change.reason === 'rate-limit'
      ? 'rate limit'
      : change.reason === 'overloaded'
        ? 'overloaded'
        : 'server error';
  return `Switched from ${change.from.modelId} to ${change.to.modelId} (${why}, HTTP ${change.statusCode})`;
}

type Part = LanguageModelV4StreamPart;

/** Options of a {@link FallbackChain}. */
export interface FallbackChainOptions {
  /**
   * Retries of a retryable failure (the error's `isRetryable`: 408, 409, 429, 5xx, a dropped
   * connection) on each model, before the call moves to the next model. Default 2, as the AI
   * SDK's `maxRetries`.
   */
  readonly maxRetries?: number | undefined;
  /** The first retry's delay; each next one doubles it, as the AI SDK does. Default 2,000 ms. */
  readonly initialDelayMs?: number | undefined;
}

/** The result of calling one model with its retries: the stream, or the error that ended it. */
type Attempt<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly error: unknown };

function isRetryable(error: unknown): boolean {
  return isRecord(error) && error.isRetryable === true;
}

/**
 * How long to wait before retrying: the server's `retry-after-ms` or `retry-after` when it is
 * reasonable (under a minute, or under the backoff), else the exponential backoff — the AI SDK's
 * own rule.
 */
function retryDelay(error: unknown, backoff: number): number {
  const holder =
    isRecord(error) && isRecord(error.responseHeaders)
      ? error
      : isRecord(error) && isRecord(error.cause)
        ? error.cause
        : undefined;
  const headers = holder?.responseHeaders as Record<string, string | undefined> | undefined;
  if (headers === undefined) return backoff;
  let ms: number | undefined;
  const afterMs = Number.parseFloat(headers['retry-after-ms'] ?? '');
  if (!Number.isNaN(afterMs)) ms = afterMs;
  const after = headers['retry-after'];
  if (ms === undefined && after !== undefined) {
    const seconds = Number.parseFloat(after);
    ms = Number.isNaN(seconds) ? Date.parse(after) - Date.now() : seconds * 1000;
  }
  if (ms !== undefined && !Number.isNaN(ms) && ms >= 0 && (ms < 60_000 || ms < backoff)) return ms;
  return backoff;
}

/** The error of a model that failed `errors.length` times, as the AI SDK's retries report it. */
function finalError(errors: readonly unknown[]): unknown {
  const last = errors[errors.length - 1];
  if (errors.length === 1) return last;
  const message = isRetryable(last)
    ? `Failed after ${errors.length} attempts. Last error: ${messageOf(last)}`
    : `Failed after ${errors.length} attempts with non-retryable error: '${messageOf(last)}'`;
  return new RetryError({
    message,
    reason: isRetryable(last) ? 'maxRetriesExceeded' : 'errorNotRetryable',
    errors: [...errors],
  });
}

/**
 * A language model that calls the first model of a chain and moves to the next one when a call
 * fails with a rate limit, an overload or a 5xx error, before or during its stream. Each model
 * first gets `maxRetries` retries of a retryable failure before its stream starts (with the AI
 * SDK's backoff), so the AI SDK's own retries must be off (`maxRetries: 0`) around a chain. The
 * step continues on the next model with the same prompt; blocks the failed model left open are
 * closed. Each switch is reported in band, as a `raw` part that {@link readModelSwitch} reads,
 * at once — before the next model is called, so the log records the switch even when that model
 * fails too, whose error then follows it as an `error` part. Later calls stay on the model that
 * answered.
 *
 * @example
 * ```ts
 * const model = new FallbackChain([anthropic('claude-opus-4-1'), anthropic('claude-sonnet-4-5')], { maxRetries: 2 });
 * streamText({ model, prompt, maxRetries: 0, include: { rawChunks: true } });
 * ```
 */
export class FallbackChain implements LanguageModelV4 {
  readonly specificationVersion = 'v4' as const;
  readonly #models: readonly LanguageModelV4[];
  readonly #maxRetries: number;
  readonly #initialDelayMs: number;
  #index = 0;

  /**
   * @param models - the primary model, then its fallbacks in order
   * @param options - retries per model
   */
  constructor(models: readonly LanguageModelV4[], options: FallbackChainOptions = {}) {
    this.#models = models;
    this.#maxRetries = options.maxRetries ?? 2;
    this.#initialDelayMs = options.initialDelayMs ?? 2000;
  }

  /** The model calls go to now. */
  get current(): LanguageModelV4 {
    return this.#models[this.#index] as LanguageModelV4;
  }

  get provider(): string {
    return this.current.provider;
  }

  get modelId(): string {
    return this.current.modelId;
  }

  get supportedUrls(): LanguageModelV4['supportedUrls'] {
    return this.current.supportedUrls;
  }

  /** Moves to the next model when `error` allows it; returns the switch, or undefined. */
  #advance(error: unknown, signal: AbortSignal | undefined): ModelSwitch | undefined {
    const reason = fallbackReason(error);
    if (reason === undefined || signal?.aborted || this.#index + 1 >= this.#models.length) {
      return undefined;
    }
    const from = this.current;
    this.#index++;
    const to = this.current;
    return {
      from: { provider: from.provider, modelId: from.modelId },
      to: { provider: to.provider, modelId: to.modelId },
      reason,
      statusCode: statusCodeOf(error) as number,
      message: messageOf(error),
    };
  }

  /** Calls the current model, retrying a retryable failure up to `maxRetries` times. */
  async #attempt<T>(
    call: (model: LanguageModelV4) => PromiseLike<T>,
    signal: AbortSignal | undefined,
  ): Promise<Attempt<T>> {
    const errors: unknown[] = [];
    // Doubling from the first delay, without a cap or jitter: the AI SDK's own backoff.
    const policy: Backoff = { initialMs: this.#initialDelayMs, maxMs: Infinity, jitter: false };
    for (;;) {
      try {
        return { ok: true, value: await call(this.current) };
      } catch (error) {
        if (signal?.aborted) return { ok: false, error };
        errors.push(error);
        if (errors.length > this.#maxRetries || !isRetryable(error)) {
          return { ok: false, error: finalError(errors) };
        }
        const backoff = backoffDelay(policy, errors.length - 1);
        if (!(await sleep(retryDelay(error, backoff), signal))) {
          return { ok: false, error: signal?.reason ?? error };
        }
      }
    }
  }

  async doGenerate(options: LanguageModelV4CallOptions): Promise<LanguageModelV4GenerateResult> {
    for (;;) {
      const attempt = await this.#attempt(
        (model) => model.doGenerate(options),
        options.abortSignal,
      );
      if (attempt.ok) return attempt.value;
      if (this.#advance(attempt.error, options.abortSignal) === undefined) throw attempt.error;
    }
  }

  async doStream(options: LanguageModelV4CallOptions): Promise<LanguageModelV4StreamResult> {
    // The caller asks for raw parts to receive our markers; the models themselves are not asked.
    const inner: LanguageModelV4CallOptions = { ...options, includeRawChunks: false };
    const signal = options.abortSignal;
    const open = () => this.#attempt((model) => model.doStream(inner), signal);
    const marker = (change: ModelSwitch): Part => ({
      type: 'raw',
      rawValue: { [switchMarker]: change },
    });
    // Parts to send before reading on: closed blocks, switch markers, the last model's error.
    const pending: Part[] = [];
    // The stream read now; undefined between a switch and the next model's stream.
    let reader: ReadableStreamDefaultReader<Part> | undefined;
    let ended = false;
    // The first model is called at once: when it fails and no model is left to move to, the
    // call fails as a plain model's would (the AI SDK reports the error).
    const first = await open();
    if (first.ok) {
      reader = first.value.stream.getReader();
    } else {
      const change = this.#advance(first.error, signal);
      if (change === undefined) throw first.error;
      pending.push(marker(change));
    }
    // Opens the current model's stream. A failure moves on (a marker to send first) or, with no
    // model left, becomes the stream's last part.
    const openNext = async (): Promise<void> => {
      const next = await open();
      if (next.ok) {
        reader = next.value.stream.getReader();
        return;
      }
      const change = this.#advance(next.error, signal);
      if (change !== undefined) {
        pending.push(marker(change));
        return;
      }
      pending.push({ type: 'error', error: next.error });
      ended = true;
    };
    const openBlocks = new Map<string, 'text' | 'reasoning'>();
    // A model failed mid-stream: end its attempt and note the switch; false when none is left.
    const recover = (error: unknown): boolean => {
      const change = this.#advance(error, signal);
      if (change === undefined) return false;
      void reader?.cancel(error).catch(() => {});
      reader = undefined;
      for (const [id, type] of openBlocks) {
        pending.push(type === 'text' ? { type: 'text-end', id } : { type: 'reasoning-end', id });
      }
      openBlocks.clear();
      pending.push(marker(change));
      return true;
    };
    let started = false;
    const stream = new ReadableStream<Part>({
      async pull(controller) {
        for (;;) {
          const queued = pending.shift();
          if (queued !== undefined) {
            started = true;
            controller.enqueue(queued);
            return;
          }
          if (ended) {
            controller.close();
            return;
          }
          if (reader === undefined) {
            await openNext();
            continue;
          }
          let result: ReadableStreamReadResult<Part>;
          try {
            result = await reader.read();
          } catch (error) {
            if (recover(error)) continue;
            throw error;
          }
          if (result.done) {
            controller.close();
            return;
          }
          const part = result.value;
          switch (part.type) {
            case 'stream-start':
              // Only the first: a later model's would come after parts already sent.
              if (started) continue;
              break;
            case 'text-start':
              openBlocks.set(part.id, 'text');
              break;
            case 'reasoning-start':
              openBlocks.set(part.id, 'reasoning');
              break;
            case 'text-end':
            case 'reasoning-end':
              openBlocks.delete(part.id);
              break;
            case 'error':
              if (recover(part.error)) continue;
              break;
            default:
              break;
          }
          started = true;
          controller.enqueue(part);
          return;
        }
      },
      cancel(reason) {
        return reader?.cancel(reason);
      },
    });
    return first.ok ? { ...first.value, stream } : { stream };
  }
}
