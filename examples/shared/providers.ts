// The models the examples talk to: a real provider when its API key is set (CHUNKLOG_MODEL picks
// the model), else the example's scripted models.
import { anthropic } from '@ai-sdk/anthropic';
import { openai } from '@ai-sdk/openai';
import type { LanguageModelV4 } from '@ai-sdk/provider';
import type { JSONValue } from 'chunklog';

export interface AgentModels {
  readonly model: LanguageModelV4;
  /** Where the session moves a call on a rate limit or an overload. */
  /** v4 model objects (provider packages made for ai@7): what a session's fallbacks take. */
  readonly fallbackModels: LanguageModelV4[];
  readonly providerOptions?: Record<string, Record<string, JSONValue>>;
  /** The AI SDK's retries of a failed call (0 for scripted models: nothing to wait for). */
  readonly maxRetries?: number;
  readonly description: string;
  readonly scripted: boolean;
}

/** Anthropic with ANTHROPIC_API_KEY, OpenAI with OPENAI_API_KEY, else undefined. */
export function providerModels(env: NodeJS.ProcessEnv = process.env): AgentModels | undefined {
  if (env.ANTHROPIC_API_KEY) {
    return {
      model: anthropic(env.CHUNKLOG_MODEL ?? 'claude-sonnet-4-5'),
      fallbackModels: [anthropic('claude-haiku-4-5')],
      providerOptions: { anthropic: { thinking: { type: 'enabled', budgetTokens: 1024 } } },
      description: 'Anthropic (ANTHROPIC_API_KEY is set), falling back to claude-haiku-4-5',
      scripted: false,
    };
  }
  if (env.OPENAI_API_KEY) {
    return {
      model: openai(env.CHUNKLOG_MODEL ?? 'gpt-5-mini'),
      fallbackModels: [openai('gpt-5-nano')],
      providerOptions: { openai: { reasoningSummary: 'auto', reasoningEffort: 'low' } },
      description: 'OpenAI (OPENAI_API_KEY is set), falling back to gpt-5-nano',
      scripted: false,
    };
  }
  return undefined;
}

/** The options of `createAgentSession` that come from the models. */
export function sessionModelOptions(models: AgentModels) {
  return {
    model: models.model,
    fallbackModels: models.fallbackModels,
    ...(models.maxRetries !== undefined ? { maxRetries: models.maxRetries } : {}),
    ...(models.providerOptions ? { providerOptions: models.providerOptions } : {}),
  };
}
