import type { ModelMessage, SystemModelMessage } from 'ai';
import { ChunklogError } from '../errors/chunklog-error.js';
import { type CacheControl, markable, marked, unmarked } from './cache-markers.js';
import { checkModelMessages } from './check-model-messages.js';

/**
 * The most cache breakpoints Anthropic accepts in one request, the system prompt's included.
 *
 * @example
 * ```ts
 * applyAnthropicCaching(messages, { maxBreakpoints: ANTHROPIC_MAX_BREAKPOINTS - 1 }); // one is on a tool
 * ```
 */
export const ANTHROPIC_MAX_BREAKPOINTS = 4;

/**
 * Options of {@link applyAnthropicCaching}.
 *
 * @example
 * ```ts
 * const options: AnthropicCachingOptions = { ttl: '1h' };
 * ```
 */
export interface AnthropicCachingOptions {
  /** How many breakpoints in all, the system prompt's included: 1 to 4 (default 4). */
  readonly maxBreakpoints?: number | undefined;
  /**
   * Whether one breakpoint belongs to the system prompt (default true). It goes on the last
   * leading system message of `messages` when there is one; otherwise it is left for the system
   * prompt the caller passes as `system` (see {@link anthropicCachedSystem}).
   */
  readonly systemBreakpoint?: boolean | undefined;
  /** The cache lifetime: `'5m'` (Anthropic's default) or `'1h'`. */
  readonly ttl?: '5m' | '1h' | undefined;
}

function cacheControl(ttl: '5m' | '1h' | undefined): CacheControl {
  return ttl === undefined ? { type: 'ephemeral' } : { type: 'ephemeral', ttl };
}

function invalid(option: string, message: string, value: unknown): never {
  throw new ChunklogError('invalid-option', `applyAnthropicCaching: ${message}`, { option, value });
}

function resolve(options: AnthropicCachingOptions | undefined): {
  max: number;
  system: boolean;
  control: CacheControl;
} {
  if (options !== undefined && (options === null || typeof options !== 'object')) {
    invalid('options', 'options must be an object', options);
  }
  const {
    maxBreakpoints = ANTHROPIC_MAX_BREAKPOINTS,
    systemBreakpoint = true,
    ttl,
  } = options ?? {};
  for (const key of Object.keys(options ?? {})) {
    if (key !== 'maxBreakpoints' && key !== 'systemBreakpoint' && key !== 'ttl') {
      invalid(key, `unknown option \`${key}\``, (options as Record<string, unknown>)[key]);
    }
  }
  if (
    !Number.isInteger(maxBreakpoints) ||
    maxBreakpoints < 1 ||
    maxBreakpoints > ANTHROPIC_MAX_BREAKPOINTS
  ) {
    invalid('maxBreakpoints', '`maxBreakpoints` must be an integer from 1 to 4', maxBreakpoints);
  }
  if (typeof systemBreakpoint !== 'boolean') {
    invalid('systemBreakpoint', '`systemBreakpoint` must be a boolean', systemBreakpoint);
  }
  if (ttl !== undefined && ttl !== '5m' && ttl !== '1h')
    invalid('ttl', "`ttl` must be '5m' or '1h'", ttl);
  return { max: maxBreakpoints, system: systemBreakpoint, control: cacheControl(ttl) };
}

const isInput = (m: ModelMessage | undefined) => m?.role === 'user' || m?.role === 'tool';

/**
 * The candidate positions: the end of every run of consecutive user/tool messages (the input that
 * ended a prompt before each assistant answer, and the input at the end), falling back to the last
 * markable message of the run. Appending messages never moves an earlier candidate.
 */
function candidates(messages: readonly ModelMessage[]): number[] {
  const out: number[] = [];
  for (let i = 0; i < messages.length; i++) {
    if (!isInput(messages[i]) || isInput(messages[i + 1])) continue;
    for (let j = i; j >= 0 && isInput(messages[j]); j--) {
      if (markable(messages[j] as ModelMessage)) {
        out.push(j);
        break;
      }
    }
  }
  return out;
}

/**
 * Places Anthropic prompt-cache breakpoints (`providerOptions.anthropic.cacheControl`) on a
 * `ModelMessage[]` so that a conversation reads its prefix back from the cache step after step.
 *
 * Placement is a pure function of the message list: one breakpoint for the system prompt, the
 * others on the newest "input ends" (the last user or tool message before each assistant
 * message, and the last message). Messages are only ever appended between steps, so the
 * breakpoints of a step stay where they were in the next steps until a newer one pushes the oldest
 * out; the request with markers removed is append-only, so the cached prefix up to every
 * remaining breakpoint is unchanged. Never more than `maxBreakpoints` (4) in all. Existing
 * Anthropic markers in `messages` are removed first, so it can be applied again to the AI SDK's
 * step messages in `prepareStep`. See `notes/0005-anthropic-cache-breakpoints.md`.
 *
 * @param messages - the prompt's messages (for example from {@link toModelMessages})
 * @param options - see {@link AnthropicCachingOptions}
 * @returns a new list; unchanged messages are shared
 * @throws {ChunklogError} `invalid-option`, naming the option; `invalid-ui-message` when
 *   `messages` is not an array of model messages (`path` starts with the index)
 *
 * @example
 * ```ts
 * const system = anthropicCachedSystem('You are a careful assistant.');
 * streamText({
 *   model: anthropic('claude-sonnet-4-5'),
 *   system,
 *   messages: applyAnthropicCaching(toModelMessages(history)),
 *   prepareStep: ({ messages }) => ({ messages: applyAnthropicCaching(messages) }),
 * });
 * ```
 */
export function applyAnthropicCaching(
  messages: readonly ModelMessage[],
  options?: AnthropicCachingOptions,
): ModelMessage[] {
  const { max, system, control } = resolve(options);
  const out = checkModelMessages(messages, 'applyAnthropicCaching').map(unmarked);
  let budget = max;
  if (system) {
    budget -= 1;
    let lastSystem = -1;
    while (out[lastSystem + 1]?.role === 'system') lastSystem++;
    if (lastSystem >= 0) out[lastSystem] = marked(out[lastSystem] as ModelMessage, control);
  }
  const at = candidates(out);
  for (const i of at.slice(Math.max(0, at.length - budget))) {
    out[i] = marked(out[i] as ModelMessage, control);
  }
  return out;
}

/**
 * A system prompt carrying an Anthropic cache breakpoint, for `streamText({ system })`: the
 * breakpoint {@link applyAnthropicCaching} reserves by default.
 *
 * @param content - the system prompt
 * @param options - `ttl`: `'5m'` (default) or `'1h'`
 * @returns a system message with `providerOptions.anthropic.cacheControl`
 * @throws {ChunklogError} `invalid-option` when `content` is not a string or `ttl` is unknown
 *
 * @example
 * ```ts
 * streamText({ model, system: anthropicCachedSystem('You are terse.'), messages });
 * ```
 */
export function anthropicCachedSystem(
  content: string,
  options?: { readonly ttl?: '5m' | '1h' | undefined },
): SystemModelMessage {
  if (typeof content !== 'string') {
    throw new ChunklogError('invalid-option', 'anthropicCachedSystem: `content` must be a string', {
      option: 'content',
      value: content,
    });
  }
  if (options !== undefined && (typeof options !== 'object' || options === null)) {
    throw new ChunklogError('invalid-option', 'anthropicCachedSystem: options must be an object', {
      option: 'options',
      value: options,
    });
  }
  const ttl = options?.ttl;
  if (ttl !== undefined && ttl !== '5m' && ttl !== '1h') {
    throw new ChunklogError('invalid-option', "anthropicCachedSystem: `ttl` must be '5m' or '1h'", {
      option: 'ttl',
      value: ttl,
    });
  }
  return {
    role: 'system',
    content,
    providerOptions: { anthropic: { cacheControl: cacheControl(ttl) } },
  };
}
