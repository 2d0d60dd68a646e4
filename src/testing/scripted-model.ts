import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4Content,
  LanguageModelV4GenerateResult,
  LanguageModelV4Prompt,
  LanguageModelV4StreamPart,
  LanguageModelV4StreamResult,
} from '@ai-sdk/provider';
import { ChunklogError } from '../errors/index.js';
import { invalidOption, readOptions } from '../errors/invalid-option.js';
import { checkScript, checkStep } from './check-script.js';
import type { Script, ScriptedStep, ScriptedStepFunction } from './script.js';
import { type StepAction, scriptedApiError, stepActions } from './step-actions.js';

/** Options of {@link createScriptedModel}, for example `{ provider: 'anthropic.messages', modelId: 'claude-test', delayMs: 5 }`. */
export interface ScriptedModelOptions {
  /**
   * The provider id. Defaults to `'scripted'`; use `'anthropic.messages'` to get the defaults a
   * session gives Anthropic models (prompt caching).
   */
  readonly provider?: string | undefined;
  /** The model id. Defaults to `'scripted-model'`. */
  readonly modelId?: string | undefined;
  /** Milliseconds to wait before each streamed part (0, the default, streams without timers). */
  readonly delayMs?: number | undefined;
  /**
   * Starts the script again from its first entry once it is used up, so that the model answers
   * any number of calls (call `n` gets entry `n % script.length`). Default false: a call past the
   * end of the script fails. A function script always repeats.
   */
  readonly repeat?: boolean | undefined;
  /**
   * How many of the latest calls {@link ScriptedModel.calls} (and `prompts`) keep, so that a
   * long-running model does not grow without bound. Default 100; `Infinity` keeps every call.
   * {@link ScriptedModel.callCount} counts them all.
   */
  readonly keepCalls?: number | undefined;
}

/** How many calls a scripted model keeps by default. */
const DEFAULT_KEEP_CALLS = 100;

/** One call the scripted model received (`model.calls[0].prompt`, `model.calls[0].options.tools`). */
export interface ScriptedCall {
  /** The zero-based index of the call among all the model's calls (with `repeat`, the script entry that answered it is `index % script.length`). */
  readonly index: number;
  /** The prompt as the AI SDK sent it to the model. */
  readonly prompt: LanguageModelV4Prompt;
  /** Every option of the call except the abort signal. */
  readonly options: Omit<LanguageModelV4CallOptions, 'abortSignal'>;
  /** Whether the call came through `doStream` (else `doGenerate`). */
  readonly streamed: boolean;
}

/**
 * A real AI SDK v4 language model that answers from a script. See {@link createScriptedModel}.
 *
 * @example
 * ```ts
 * const model: ScriptedModel = createScriptedModel(parseScript('text Hi!'));
 * await generateText({ model, prompt: 'Hello' });
 * expect(model.prompts[0]).toEqual([{ role: 'user', content: [{ type: 'text', text: 'Hello' }] }]);
 * ```
 */
export interface ScriptedModel extends LanguageModelV4 {
  /** The latest calls received (at most `keepCalls` of them, 100 by default), oldest first. */
  readonly calls: readonly ScriptedCall[];
  /** The prompts of those calls, in order (`calls.map((c) => c.prompt)`). */
  readonly prompts: readonly LanguageModelV4Prompt[];
  /** How many calls the model received in all, kept or not. */
  readonly callCount: number;
  /** How many script entries are left (`Infinity` for a repeating script). */
  readonly remaining: number;
}

function abortError(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('This operation was aborted', 'AbortError');
}

function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortError(signal));
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortError(signal as AbortSignal));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function waitFor(promise: PromiseLike<unknown>, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortError(signal));
    const onAbort = () => reject(abortError(signal as AbortSignal));
    signal?.addEventListener('abort', onAbort, { once: true });
    promise.then(
      () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      },
      (error: unknown) => {
        signal?.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

function toStream(
  actions: readonly StepAction[],
  delayMs: number,
  signal: AbortSignal | undefined,
): ReadableStream<LanguageModelV4StreamPart> {
  const timed = delayMs > 0 || actions.some((a) => a.kind !== 'part');
  if (!timed) {
    return new ReadableStream({
      start(controller) {
        for (const action of actions) {
          if (action.kind === 'part') controller.enqueue(action.part);
        }
        controller.close();
      },
    });
  }
  let next = 0;
  return new ReadableStream({
    async pull(controller) {
      while (next < actions.length) {
        const action = actions[next++] as StepAction;
        if (signal?.aborted) throw abortError(signal);
        switch (action.kind) {
          case 'delay':
            await pause(action.ms, signal);
            break;
          case 'wait':
            await waitFor(action.until(), signal);
            break;
          case 'throw':
            throw action.error;
          case 'part':
            if (delayMs > 0) await pause(delayMs, signal);
            controller.enqueue(action.part);
            return;
        }
      }
      controller.close();
    },
  });
}

function toContent(actions: readonly StepAction[]): {
  content: LanguageModelV4Content[];
  finish: Extract<LanguageModelV4StreamPart, { type: 'finish' }> | undefined;
} {
  const content: LanguageModelV4Content[] = [];
  const open = new Map<string, { type: 'text' | 'reasoning'; index: number }>();
  let finish: Extract<LanguageModelV4StreamPart, { type: 'finish' }> | undefined;
  for (const action of actions) {
    if (action.kind === 'throw') throw action.error;
    if (action.kind !== 'part') continue;
    const part = action.part;
    switch (part.type) {
      case 'text-start':
      case 'reasoning-start': {
        const type = part.type === 'text-start' ? 'text' : 'reasoning';
        open.set(`${type}:${part.id}`, { type, index: content.length });
        content.push({
          type,
          text: '',
          ...(part.providerMetadata ? { providerMetadata: part.providerMetadata } : {}),
        });
        break;
      }
      case 'text-delta':
      case 'reasoning-delta': {
        const type = part.type === 'text-delta' ? 'text' : 'reasoning';
        const at = open.get(`${type}:${part.id}`);
        const block = at && content[at.index];
        if (block && (block.type === 'text' || block.type === 'reasoning')) {
          content[at.index] = {
            ...block,
            text: block.text + part.delta,
            ...(part.providerMetadata
              ? { providerMetadata: { ...block.providerMetadata, ...part.providerMetadata } }
              : {}),
          };
        }
        break;
      }
      case 'tool-call':
      case 'tool-result':
      case 'custom':
      case 'source':
      case 'file':
      case 'reasoning-file':
      case 'tool-approval-request':
        content.push(part);
        break;
      case 'error':
        throw part.error;
      case 'finish':
        finish = part;
        break;
      default:
        break;
    }
  }
  return { content, finish };
}

/**
 * Creates a real AI SDK v7 language model (`specificationVersion: 'v4'`) that answers each call
 * with the next step of a script, with no network: reasoning with Anthropic-style signatures,
 * redacted thinking, text, parallel tool calls with streamed input, provider errors with HTTP
 * status codes (before or in the middle of the stream), delays and waits that honour the abort
 * signal. It records the prompts it receives (the latest `keepCalls`, 100 by default).
 *
 * The script is a list of entries, one per call, used once each unless `repeat` is set; or a
 * single function of the call, which answers every call (an endless model for long-running
 * examples and servers).
 *
 * @param script - one entry per model call, in order (see {@link ScriptedStep}, or build one with
 *   {@link parseScript}); or a function `(call, index) => step` that answers every call
 * @param options - provider and model ids, a delay before every part, `repeat`, `keepCalls`
 * @returns the model; pass it to `streamText`, `generateText` or a session
 * @throws {ChunklogError} `invalid-option`: an empty script, a malformed script entry (option
 *   `script`, with the path of the problem: a function entry's step is checked when it is
 *   called) or option
 *
 * @example
 * ```ts
 * import { streamText } from 'ai';
 * import { createScriptedModel } from 'chunklog/testing';
 *
 * const model = createScriptedModel([
 *   { parts: [{ type: 'reasoning', text: 'The user greets me.' }, { type: 'text', text: 'Hello!' }] },
 * ]);
 * const result = streamText({ model, prompt: 'Hi' });
 * for await (const part of result.stream) console.log(part.type);
 * console.log(model.prompts[0]); // [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }]
 *
 * // An endless model: every call answered by a function of its prompt.
 * const echo = createScriptedModel((call) => ({
 *   parts: [{ type: 'text', text: `You sent ${call.prompt.length} messages.` }],
 * }));
 * ```
 */
export function createScriptedModel(
  script: Script | ScriptedStepFunction,
  options: ScriptedModelOptions = {},
): ScriptedModel {
  const repeatAll = typeof script === 'function';
  const entries: Script = repeatAll ? [script] : checkScript(script);
  const o = readOptions(options, 'createScriptedModel', [
    'provider',
    'modelId',
    'delayMs',
    'repeat',
    'keepCalls',
  ]);
  for (const option of ['provider', 'modelId'] as const) {
    const value = o[option];
    if (value !== undefined && (typeof value !== 'string' || value === '')) {
      invalidOption(
        'createScriptedModel',
        option,
        `\`${option}\` must be a non-empty string`,
        value,
      );
    }
  }
  const provider = (o.provider as string | undefined) ?? 'scripted';
  const modelId = (o.modelId as string | undefined) ?? 'scripted-model';
  const delayMs = o.delayMs ?? 0;
  if (typeof delayMs !== 'number' || !Number.isFinite(delayMs) || delayMs < 0) {
    throw new ChunklogError('invalid-option', 'delayMs must be a finite number ≥ 0', {
      option: 'delayMs',
      value: delayMs,
    });
  }
  if (o.repeat !== undefined && typeof o.repeat !== 'boolean') {
    invalidOption('createScriptedModel', 'repeat', '`repeat` must be a boolean', o.repeat);
  }
  const repeat = repeatAll || o.repeat === true;
  const keepCalls = o.keepCalls ?? DEFAULT_KEEP_CALLS;
  if (
    typeof keepCalls !== 'number' ||
    !(keepCalls === Number.POSITIVE_INFINITY || (Number.isInteger(keepCalls) && keepCalls >= 0))
  ) {
    invalidOption(
      'createScriptedModel',
      'keepCalls',
      '`keepCalls` must be an integer ≥ 0 or Infinity',
      keepCalls,
    );
  }
  if (entries.length === 0) {
    // A model with nothing to answer fails its first call: say so when it is made.
    invalidOption('createScriptedModel', 'script', 'a script needs at least one entry', script);
  }
  let calls: ScriptedCall[] = [];
  let callCount = 0;

  const next = (callOptions: LanguageModelV4CallOptions, streamed: boolean) => {
    const index = callCount++;
    const { abortSignal: _signal, ...rest } = callOptions;
    if (keepCalls > 0) {
      calls.push({ index, prompt: callOptions.prompt, options: rest, streamed });
      // Trim in batches, so that a long run does not copy the array on every call.
      if (calls.length >= keepCalls * 2 || calls.length > keepCalls + 1000) {
        calls = calls.slice(calls.length - keepCalls);
      }
    }
    const at = repeat ? index % entries.length : index;
    const entry = entries[at];
    if (entry === undefined) {
      throw new ChunklogError(
        'invalid-option',
        `The scripted model ${provider}/${modelId} was called ${index + 1} times but its script has ${entries.length} steps`,
        { option: 'script', value: index },
      );
    }
    const step: ScriptedStep =
      typeof entry === 'function' ? checkStep(entry(callOptions, index), at) : entry;
    let promptSize: number | undefined;
    const context = {
      provider,
      modelId,
      callIndex: index,
      // Serialized only when a step's usage leaves the input tokens to be derived from it.
      get promptSize(): number {
        promptSize ??= JSON.stringify(callOptions.prompt).length;
        return promptSize;
      },
    };
    if (step.fail) throw scriptedApiError(step.fail, context);
    return { step, actions: stepActions(step, context) };
  };

  const model: ScriptedModel = {
    specificationVersion: 'v4',
    provider,
    modelId,
    supportedUrls: {},
    get calls() {
      if (calls.length > keepCalls) calls = calls.slice(calls.length - keepCalls);
      return calls;
    },
    get prompts() {
      return model.calls.map((call) => call.prompt);
    },
    get callCount() {
      return callCount;
    },
    get remaining() {
      return repeat ? Number.POSITIVE_INFINITY : Math.max(0, entries.length - callCount);
    },
    async doStream(callOptions): Promise<LanguageModelV4StreamResult> {
      const signal = callOptions.abortSignal;
      if (signal?.aborted) throw abortError(signal);
      const { step, actions } = next(callOptions, true);
      return { stream: toStream(actions, step.delayMs ?? delayMs, signal) };
    },
    async doGenerate(callOptions): Promise<LanguageModelV4GenerateResult> {
      const signal = callOptions.abortSignal;
      if (signal?.aborted) throw abortError(signal);
      const { actions } = next(callOptions, false);
      const { content, finish } = toContent(actions);
      if (finish === undefined) throw new Error('The scripted step did not finish');
      return { content, finishReason: finish.finishReason, usage: finish.usage, warnings: [] };
    },
  };
  return model;
}
