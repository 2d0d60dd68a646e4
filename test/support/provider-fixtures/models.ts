// The real provider of each fixture run, answering through a replaying `fetch`: the model the
// AI SDK's own test of that fixture uses (chat completions, responses, interactions…) and the
// wire framing its recording needs.
import { createAlibaba } from '@ai-sdk/alibaba';
import { createAmazonBedrock } from '@ai-sdk/amazon-bedrock';
import { createAnthropic } from '@ai-sdk/anthropic';
import { createAzure } from '@ai-sdk/azure';
import { createCohere } from '@ai-sdk/cohere';
import { createDeepSeek } from '@ai-sdk/deepseek';
import { createGoogle } from '@ai-sdk/google';
import { createGroq } from '@ai-sdk/groq';
import { createMistral } from '@ai-sdk/mistral';
import { createMoonshotAI } from '@ai-sdk/moonshotai';
import { createOpenResponses } from '@ai-sdk/open-responses';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { createPerplexity } from '@ai-sdk/perplexity';
import { createXai } from '@ai-sdk/xai';
import { createXai as createXaiWithChat } from '@ai-sdk/xai-v4';
import type { LanguageModel } from 'ai';
import type { FixtureRun } from './runs.js';
import type { Framing } from './wire.js';

type Fetch = typeof globalThis.fetch;

/** How a run's responses are framed on the wire. */
export function framingOf(run: FixtureRun): Framing {
  const file = run.files[0] as string;
  if (file.endsWith('.sse')) return 'sse';
  switch (run.provider) {
    case 'amazon-bedrock':
      return 'aws-event-stream';
    case 'anthropic':
    case 'cohere':
      return 'event';
    case 'google':
      return 'data';
    case 'openai':
    case 'azure':
      return file.includes('/chat/') || file.includes('/completion/') || isAzureChat(file)
        ? 'data-done'
        : 'event';
    default:
      return 'data-done';
  }
}

function isAzureChat(file: string): boolean {
  return file === 'azure/azure-deepseek-reasoning.1.chunks.txt';
}

/** The model of a run's provider, its HTTP calls answered by `fetch`. */
export function modelFor(run: FixtureRun, fetch: Fetch): LanguageModel {
  const file = run.files[0] as string;
  const apiKey = 'test-key';
  switch (run.provider) {
    case 'alibaba':
      return createAlibaba({ apiKey, fetch })('qwen3-max');
    case 'amazon-bedrock':
      return createAmazonBedrock({
        region: 'us-east-1',
        accessKeyId: 'test-access-key',
        secretAccessKey: 'test-secret-key',
        fetch,
      })('anthropic.claude-sonnet-4-5-20250929-v1:0');
    case 'anthropic':
      return createAnthropic({ apiKey, fetch })('claude-sonnet-4-5');
    case 'azure': {
      const azure = createAzure({ resourceName: 'test-resource', apiKey, fetch });
      return isAzureChat(file)
        ? azure.deepseek('deepseek-v4-pro')
        : azure.responses('test-deployment');
    }
    case 'cohere':
      return createCohere({ apiKey, fetch })('command-a-reasoning-08-2025');
    case 'deepseek':
      return createDeepSeek({ apiKey, fetch })('deepseek-reasoner');
    case 'google': {
      const google = createGoogle({ apiKey, fetch });
      return file.includes('/interactions/')
        ? google.interactions('gemini-2.5-flash')
        : google('gemini-2.5-flash');
    }
    case 'groq':
      return createGroq({ apiKey, fetch })('llama-3.3-70b-versatile');
    case 'mistral':
      return createMistral({ apiKey, fetch })('mistral-small-latest');
    case 'moonshotai':
      return createMoonshotAI({ apiKey, fetch })('kimi-k2.5');
    case 'open-responses':
      return createOpenResponses({
        url: 'http://localhost:1234/v1/responses',
        name: 'lmstudio',
        fetch,
      })('test-model');
    case 'openai': {
      const openai = createOpenAI({ apiKey, fetch });
      if (file.includes('/chat/')) return openai.chat('gpt-4o');
      if (file.includes('/completion/')) return openai.completion('gpt-3.5-turbo-instruct');
      return openai.responses('gpt-5');
    }
    case 'openai-compatible':
      return createOpenAICompatible({
        name: 'test-provider',
        baseURL: 'https://example.test/v1',
        apiKey,
        fetch,
      })('test-model');
    case 'perplexity':
      return createPerplexity({ apiKey, fetch })('sonar');
    case 'xai':
      return file.includes('/responses/')
        ? createXai({ apiKey, fetch }).responses('grok-4-fast-reasoning')
        : createXaiWithChat({ apiKey, fetch }).chat('grok-3-mini');
    default:
      throw new Error(`no model for the provider folder ${run.provider}`);
  }
}
