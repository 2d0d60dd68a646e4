import type {
  LanguageModelV4FinishReason,
  LanguageModelV4StreamPart,
  LanguageModelV4Usage,
} from '@ai-sdk/provider';
import { APICallError } from 'ai';
import type { ScriptedFailure, ScriptedStep, ScriptedUsage } from './script.js';

/** What the scripted stream does next: emit a part, pause, or fail. */
export type StepAction =
  | { readonly kind: 'part'; readonly part: LanguageModelV4StreamPart }
  | { readonly kind: 'delay'; readonly ms: number }
  | { readonly kind: 'wait'; readonly until: () => PromiseLike<unknown> }
  | { readonly kind: 'throw'; readonly error: unknown };

/** What the actions of a step need to know about the call. */
export interface StepContext {
  readonly provider: string;
  readonly modelId: string;
  /** The zero-based index of this call among the model's calls. */
  readonly callIndex: number;
  /** Size of the prompt (serialized), for derived input token counts. */
  readonly promptSize: number;
}

const defaultMessages: Record<number, string> = {
  400: 'Bad request',
  401: 'Unauthorized',
  403: 'Forbidden',
  408: 'Request timeout',
  413: 'Request too large',
  429: 'Rate limit exceeded',
  500: 'Internal server error',
  502: 'Bad gateway',
  503: 'Service unavailable',
  504: 'Gateway timeout',
  529: 'Overloaded',
};

/**
 * Builds the `APICallError` a provider would throw for an HTTP failure.
 *
 * @param failure - the status code and message
 * @param context - the provider and model, for the error's url
 * @returns the error
 */
export function scriptedApiError(
  failure: ScriptedFailure,
  context: Pick<StepContext, 'provider' | 'modelId'>,
): APICallError {
  const message =
    failure.message ?? defaultMessages[failure.statusCode] ?? `HTTP ${failure.statusCode}`;
  return new APICallError({
    message,
    url: `scripted://${context.provider}/${context.modelId}`,
    requestBodyValues: {},
    statusCode: failure.statusCode,
    responseBody: JSON.stringify({ error: { message } }),
    ...(failure.responseHeaders !== undefined
      ? { responseHeaders: { ...failure.responseHeaders } }
      : {}),
    ...(failure.isRetryable !== undefined ? { isRetryable: failure.isRetryable } : {}),
  });
}

/**
 * Splits text into word-sized deltas (each word keeps the whitespace after it), the way a
 * provider streams tokens.
 *
 * @param text - the text, or the deltas already split
 * @returns the deltas; an empty text gives no deltas
 */
export function toDeltas(text: string | readonly string[]): readonly string[] {
  if (typeof text !== 'string') return text;
  return text.match(/\s*\S+\s*/g) ?? (text === '' ? [] : [text]);
}

function splitEvery(text: string, size: number): string[] {
  const pieces: string[] = [];
  for (let i = 0; i < text.length; i += size) pieces.push(text.slice(i, i + size));
  return pieces;
}

function toUsage(
  usage: ScriptedUsage | undefined,
  context: { readonly promptSize: number },
  outputChars: number,
  reasoningChars: number,
): LanguageModelV4Usage {
  const input = usage?.input ?? Math.ceil(context.promptSize / 4);
  const reasoning = usage?.reasoning ?? Math.ceil(reasoningChars / 4);
  const output = usage?.output ?? Math.ceil(outputChars / 4) + reasoning;
  const cacheRead = usage?.cacheRead;
  const cacheWrite = usage?.cacheWrite;
  return {
    inputTokens: {
      total: input,
      noCache: input - (cacheRead ?? 0) - (cacheWrite ?? 0),
      cacheRead,
      cacheWrite,
    },
    outputTokens: { total: output, text: output - reasoning, reasoning },
  };
}

/**
 * Turns a scripted step into the ordered actions of its stream: a `stream-start`, a
 * `response-metadata`, the parts, and a `finish` unless the step failed mid-stream.
 *
 * @param step - the scripted step
 * @param context - the call it answers
 * @returns the actions, in order
 */
export function stepActions(step: ScriptedStep, context: StepContext): StepAction[] {
  const actions: StepAction[] = [];
  const part = (p: LanguageModelV4StreamPart) => actions.push({ kind: 'part', part: p });
  part({ type: 'stream-start', warnings: [] });
  part({
    type: 'response-metadata',
    id: `response-${context.callIndex}`,
    modelId: step.responseModelId ?? context.modelId,
    timestamp: new Date(0),
  });
  let block = 0;
  let toolCalls = 0;
  let clientToolCalls = 0;
  let outputChars = 0;
  let reasoningChars = 0;
  let failed = false;
  for (const item of step.parts ?? []) {
    switch (item.type) {
      case 'reasoning': {
        const id = item.id ?? `${context.callIndex}-${block}`;
        block++;
        part({ type: 'reasoning-start', id });
        for (const delta of toDeltas(item.text)) {
          reasoningChars += delta.length;
          part({ type: 'reasoning-delta', id, delta });
        }
        if (item.signature !== false) {
          const signature = item.signature ?? `sig-${id}`;
          part({
            type: 'reasoning-delta',
            id,
            delta: '',
            providerMetadata: { anthropic: { signature } },
          });
        }
        part({
          type: 'reasoning-end',
          id,
          ...(item.providerMetadata !== undefined
            ? { providerMetadata: item.providerMetadata }
            : {}),
        });
        break;
      }
      case 'redacted-reasoning': {
        const id = item.id ?? `${context.callIndex}-${block}`;
        block++;
        part({
          type: 'reasoning-start',
          id,
          providerMetadata: { anthropic: { redactedData: item.data } },
        });
        part({ type: 'reasoning-end', id });
        break;
      }
      case 'text': {
        const id = item.id ?? `${context.callIndex}-${block}`;
        block++;
        part({ type: 'text-start', id });
        for (const delta of toDeltas(item.text)) {
          outputChars += delta.length;
          part({ type: 'text-delta', id, delta });
        }
        part({
          type: 'text-end',
          id,
          ...(item.providerMetadata !== undefined
            ? { providerMetadata: item.providerMetadata }
            : {}),
        });
        break;
      }
      case 'tool-call': {
        block++;
        const id = item.toolCallId ?? `call-${context.callIndex}-${toolCalls}`;
        toolCalls++;
        if (item.providerExecuted !== true) clientToolCalls++;
        const input = JSON.stringify(item.input);
        outputChars += input.length;
        const executed = item.providerExecuted !== undefined ? { providerExecuted: true } : {};
        const metadata =
          item.providerMetadata !== undefined ? { providerMetadata: item.providerMetadata } : {};
        if (item.streamInput !== false) {
          const size = typeof item.streamInput === 'number' ? item.streamInput : 16;
          part({ type: 'tool-input-start', id, toolName: item.toolName, ...executed });
          for (const delta of splitEvery(input, Math.max(1, size))) {
            part({ type: 'tool-input-delta', id, delta });
          }
          part({ type: 'tool-input-end', id });
        }
        part({
          type: 'tool-call',
          toolCallId: id,
          toolName: item.toolName,
          input,
          ...executed,
          ...metadata,
        });
        break;
      }
      case 'tool-result':
        part({
          type: 'tool-result',
          toolCallId: item.toolCallId,
          toolName: item.toolName,
          result: item.result,
          ...(item.isError !== undefined ? { isError: item.isError } : {}),
          ...(item.providerMetadata !== undefined
            ? { providerMetadata: item.providerMetadata }
            : {}),
        });
        break;
      case 'error':
        failed = true;
        part({ type: 'error', error: scriptedApiError(item, context) });
        break;
      case 'throw':
        failed = true;
        actions.push({ kind: 'throw', error: scriptedApiError(item, context) });
        break;
      case 'delay':
        actions.push({ kind: 'delay', ms: item.ms });
        break;
      case 'wait': {
        const until = item.until;
        actions.push({ kind: 'wait', until: typeof until === 'function' ? until : () => until });
        break;
      }
      case 'part':
        part(item.part);
        break;
      default: {
        const never: never = item;
        throw new TypeError(`Unknown scripted part ${JSON.stringify(never)}`);
      }
    }
  }
  if (!failed) {
    const unified = step.finishReason ?? (clientToolCalls > 0 ? 'tool-calls' : 'stop');
    const finishReason: LanguageModelV4FinishReason = { unified, raw: unified };
    part({
      type: 'finish',
      finishReason,
      usage: toUsage(step.usage, context, outputChars, reasoningChars),
    });
  }
  return actions;
}
