// Which models the demo talks to: a real provider when its key is set, else scripted models.
import { createScriptedModel, type ScriptedStep } from 'chunklog/testing';
import { type AgentModels, providerModels } from '../shared/providers.js';

/** The demo's models: a real provider when its key is set, else two scripted models. */
export function pickModels(env: NodeJS.ProcessEnv = process.env): AgentModels {
  const real = providerModels(env);
  if (real) return real;
  const delayMs = Number(env.CHUNKLOG_SCRIPTED_DELAY_MS ?? 18);
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
      'scripted, offline (set ANTHROPIC_API_KEY or OPENAI_API_KEY to use a real provider)',
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
        text: 'Sunny and 21°C, and river swimming is in the news: an afternoon by the river fits.',
        signature: 'sig-sonnet-1',
      },
      {
        type: 'text',
        text: "It's 21°C and sunny in Paris with a light westerly wind. In the news: Paris opens its river for swimming, and a new metro line opens. A good afternoon for a swim — and the new metro to get back.",
      },
    ],
    usage: { input: 610, output: 58 },
  },
  { fail: { statusCode: 503, message: 'Overloaded, try again later' } },
];
