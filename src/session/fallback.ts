import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4GenerateResult,
  LanguageModelV4StreamPart,
  LanguageModelV4StreamResult,
} from '@ai-sdk/provider';

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
 * The HTTP status of a failed call: the `statusCode` of an `APICallError` (or of a provider's
 * stream error), of a retry error's last attempt, or of an error's cause, a few levels deep.
 *
 * @param error - anything a model call threw or streamed
 * @returns the status code, or undefined
 *
 * @example
 * ```ts
 * statusCodeOf(new APICallError({ message: 'slow down', url, requestBodyValues: {}, statusCode: 429 })); // 429
 * ```
 */
export function statusCodeOf(error: unknown): number | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && isRecord(current); depth++) {
    const code = current.statusCode ?? current.status;
    if (typeof code === 'number' && Number.isInteger(code)) return code;
    current = current.lastError ?? current.cause;
  }
  return undefined;
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

/**
 * A language model that calls the first model of a chain and moves to the next one when a call
 * fails with a rate limit, an overload or a 5xx error, before or during its stream. The step
 * continues on the next model with the same prompt; blocks the failed model left open are
 * closed. Each switch is reported in band, as a `raw` part that {@link readModelSwitch} reads,
 * so that it lands at its exact place among the turn's events. Later calls stay on the model
 * that answered.
 *
 * @example
 * ```ts
 * const model = new FallbackChain([anthropic('claude-opus-4-1'), anthropic('claude-sonnet-4-5')]);
 * streamText({ model, prompt, include: { rawChunks: true } });
 * ```
 */
export class FallbackChain implements LanguageModelV4 {
  readonly specificationVersion = 'v4' as const;
  readonly #models: readonly LanguageModelV4[];
  #index = 0;

  /** @param models - the primary model, then its fallbacks in order */
  constructor(models: readonly LanguageModelV4[]) {
    this.#models = models;
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

  async doGenerate(options: LanguageModelV4CallOptions): Promise<LanguageModelV4GenerateResult> {
    for (;;) {
      try {
        return await this.current.doGenerate(options);
      } catch (error) {
        if (this.#advance(error, options.abortSignal) === undefined) throw error;
      }
    }
  }

  async doStream(options: LanguageModelV4CallOptions): Promise<LanguageModelV4StreamResult> {
    // The caller asks for raw parts to receive our markers; the models themselves are not asked.
    const inner: LanguageModelV4CallOptions = { ...options, includeRawChunks: false };
    const switches: ModelSwitch[] = [];
    const open = async (): Promise<LanguageModelV4StreamResult> => {
      for (;;) {
        try {
          return await this.current.doStream(inner);
        } catch (error) {
          const change = this.#advance(error, options.abortSignal);
          if (change === undefined) throw error;
          switches.push(change);
        }
      }
    };
    const first = await open();
    let reader = first.stream.getReader();
    let started = false;
    const openBlocks = new Map<string, 'text' | 'reasoning'>();
    const pending: Part[] = [];
    const marker = (change: ModelSwitch): Part => ({
      type: 'raw',
      rawValue: { [switchMarker]: change },
    });
    // Ends the failed attempt and opens the next model's stream; false when there is none.
    const recover = async (error: unknown): Promise<boolean> => {
      const change = this.#advance(error, options.abortSignal);
      if (change === undefined) return false;
      void reader.cancel(error).catch(() => {});
      for (const [id, type] of openBlocks) {
        pending.push(type === 'text' ? { type: 'text-end', id } : { type: 'reasoning-end', id });
      }
      openBlocks.clear();
      pending.push(marker(change));
      try {
        const next = await open();
        for (const later of switches.splice(0)) pending.push(marker(later));
        reader = next.stream.getReader();
      } catch (failure) {
        for (const later of switches.splice(0)) pending.push(marker(later));
        pending.push({ type: 'error', error: failure });
        reader = new ReadableStream<Part>({ start: (c) => c.close() }).getReader();
      }
      return true;
    };
    const stream = new ReadableStream<Part>({
      async pull(controller) {
        for (;;) {
          const queued = pending.shift();
          if (queued !== undefined) {
            controller.enqueue(queued);
            return;
          }
          let result: ReadableStreamReadResult<Part>;
          try {
            result = await reader.read();
          } catch (error) {
            if (await recover(error)) continue;
            throw error;
          }
          if (result.done) {
            controller.close();
            return;
          }
          const part = result.value;
          switch (part.type) {
            case 'stream-start':
              if (started) continue;
              started = true;
              controller.enqueue(part);
              for (const change of switches.splice(0)) pending.push(marker(change));
              return;
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
              if (await recover(part.error)) continue;
              break;
            default:
              break;
          }
          if (!started) {
            // A stream without stream-start: put the markers of earlier switches first.
            started = true;
            for (const change of switches.splice(0)) controller.enqueue(marker(change));
          }
          controller.enqueue(part);
          return;
        }
      },
      cancel(reason) {
        return reader.cancel(reason);
      },
    });
    return { ...first, stream };
  }
}
