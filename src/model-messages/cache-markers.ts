// Reading and writing Anthropic cache markers (`providerOptions.anthropic.cacheControl`) on
// ModelMessages and their parts.
import type { ModelMessage } from 'ai';
import type { ProviderOptions, ToolPart } from './ai-types.js';

/** An Anthropic cache-control value. */
export type CacheControl = { type: 'ephemeral'; ttl?: '5m' | '1h' };

/** `providerOptions` without Anthropic cache markers; the same object when it had none. */
function withoutMarker(options: ProviderOptions | undefined): ProviderOptions | undefined {
  const anthropic = options?.anthropic;
  if (anthropic === undefined || !('cacheControl' in anthropic || 'cache_control' in anthropic)) {
    return options;
  }
  const { cacheControl: _a, cache_control: _b, ...rest } = anthropic;
  const { anthropic: _c, ...others } = options as ProviderOptions;
  const out: ProviderOptions =
    Object.keys(rest).length > 0 ? { ...others, anthropic: rest } : others;
  return Object.keys(out).length > 0 ? out : undefined;
}

function withMarker(options: ProviderOptions | undefined, control: CacheControl): ProviderOptions {
  return { ...options, anthropic: { ...options?.anthropic, cacheControl: control } };
}

/** Sets or removes `providerOptions` on a copy of `target`, keeping `target` when unchanged. */
function setOptions<T extends { providerOptions?: ProviderOptions }>(
  target: T,
  options: ProviderOptions | undefined,
): T {
  if (options === target.providerOptions) return target;
  if (options === undefined) {
    const { providerOptions: _p, ...rest } = target;
    return rest as T;
  }
  return { ...target, providerOptions: options };
}

/** A message with every Anthropic cache marker (message- and part-level) removed. */
export function unmarked(message: ModelMessage): ModelMessage {
  let out = setOptions(message, withoutMarker(message.providerOptions));
  if (typeof out.content !== 'string') {
    const content = out.content as Array<{ providerOptions?: ProviderOptions }>;
    let changed = false;
    const parts = content.map((part) => {
      const next = setOptions(part, withoutMarker(part.providerOptions));
      if (next !== part) changed = true;
      return next;
    });
    if (changed) out = { ...out, content: parts } as ModelMessage;
  }
  return out;
}

/** Whether Anthropic would send a content block for this user or tool message to carry a marker. */
export function markable(message: ModelMessage): boolean {
  if (message.role === 'user') {
    if (typeof message.content === 'string') return message.content !== '';
    return message.content.some((part) => part.type !== 'text' || part.text !== '');
  }
  if (message.role === 'tool') return message.content.some((part) => part.type === 'tool-result');
  return false;
}

/** A user or tool message carrying a breakpoint on the block Anthropic sends last for it. */
export function marked(message: ModelMessage, control: CacheControl): ModelMessage {
  if (message.role === 'tool') {
    const content = [...message.content];
    for (let i = content.length - 1; i >= 0; i--) {
      const part = content[i] as ToolPart;
      if (part.type === 'tool-result') {
        content[i] = { ...part, providerOptions: withMarker(part.providerOptions, control) };
        break;
      }
    }
    return { ...message, content };
  }
  // User and system messages: a message-level marker goes on the message's last block.
  return {
    ...message,
    providerOptions: withMarker(message.providerOptions, control),
  } as ModelMessage;
}
