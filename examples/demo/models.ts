// Which models the demo talks to: a real provider when its key is set, else scripted models.
import { anthropic } from '@ai-sdk/anthropic';
import { openai } from '@ai-sdk/openai';
import type { LanguageModel } from 'ai';
import type { JSONValue } from 'chunklog';
import { createScriptedModel, type ScriptedStep } from 'chunklog/testing';

export interface DemoModels {
  readonly model: LanguageModel;
  readonly fallbackModels: LanguageModel[];
  readonly providerOptions?: Record<string, Record<string, JSONValue>>;
  /** The AI SDK's retries of a failed call (0 for the scripted models: nothing to wait for). */
  readonly maxRetries?: number;
  readonly description: string;
  /** Whether the models are scripted (the demo then also shows a turn failing). */
  readonly scripted: boolean;
}

export function pickModels(env: NodeJS.ProcessEnv = process.env): DemoModels {
  if (env.ANTHROPIC_API_KEY) {
    return {
      model: anthropic(env.CHUNKLOG_DEMO_MODEL ?? 'claude-sonnet-4-5'),
      fallbackModels: [anthropic('claude-haiku-4-5')],
      providerOptions: { anthropic: { thinking: { type: 'enabled', budgetTokens: 1024 } } },
      description: 'model: Anthropic (ANTHROPIC_API_KEY is set), falling back to claude-haiku-4-5',
      scripted: false,
    };
  }
  if (env.OPENAI_API_KEY) {
    return {
      model: openai(env.CHUNKLOG_DEMO_MODEL ?? 'gpt-5-mini'),
      fallbackModels: [openai('gpt-5-nano')],
      providerOptions: { openai: { reasoningSummary: 'auto', reasoningEffort: 'low' } },
      description: 'model: OpenAI (OPENAI_API_KEY is set), falling back to gpt-5-nano',
      scripted: false,
    };
  }
  const delayMs = Number(env.CHUNKLOG_DEMO_DELAY_MS ?? 18);
  return {
    model: createScriptedModel(primaryScript, {
      provider: 'anthropic.messages',
      modelId: 'claude-opus-demo',
      delayMs,
    }),
    fallbackModels: [
      createScriptedModel(fallbackScript, {
        provider: 'anthropic.messages',
        modelId: 'claude-sonnet-demo',
        delayMs,
      }),
    ],
    description:
      'model: scripted, offline (set ANTHROPIC_API_KEY or OPENAI_API_KEY to use a real provider)',
    scripted: true,
    maxRetries: 0,
  };
}

// The primary model: thinks, answers, calls both tools at once; its next call is rate limited.
// In the second turn it is down (503), and so is the fallback.
const primaryScript: ScriptedStep[] = [
  {
    parts: [
      {
        type: 'reasoning',
        text: 'The user wants the weather and the news for Paris. Both are independent, so I can ask for them at once.',
        signature: 'sig-opus-1',
      },
      { type: 'text', text: 'Let me check the weather and the headlines together.' },
      { type: 'tool-call', toolName: 'weather', input: { city: 'Paris' } },
      { type: 'tool-call', toolName: 'headlines', input: { city: 'Paris' } },
    ],
    usage: { input: 420, output: 64 },
  },
  { fail: { statusCode: 429, message: 'Rate limited: too many requests' } },
  { fail: { statusCode: 503, message: 'Service unavailable' } },
];

// The fallback model: takes over the same call, thinks again, answers.
const fallbackScript: ScriptedStep[] = [
  {
    parts: [
      {
        type: 'reasoning',
        text: 'Sunny and 21°C, and swimming in the Seine is in the news: an afternoon by the river fits.',
        signature: 'sig-sonnet-1',
      },
      {
        type: 'text',
        text: "It's 21°C and sunny in Paris with a light westerly wind. In the news: the Seine is open for swimming, and metro line 14 now reaches the airport. A good afternoon for a swim — take the metro back.",
      },
    ],
    usage: { input: 610, output: 58 },
  },
  { fail: { statusCode: 503, message: 'Overloaded, try again later' } },
];
