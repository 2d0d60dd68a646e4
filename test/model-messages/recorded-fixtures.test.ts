// The recorded provider streams (copies of the Vercel AI SDK's own fixtures) replayed through the
// real @ai-sdk/anthropic and @ai-sdk/openai providers: the history rebuilt from the store (folded
// by the reducer, exploded to rows, stored as JSON, grouped, toModelMessages) makes the provider
// send the same request body as the AI SDK's own messages do, for every step of the recording and
// for the next call after it.

import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import type { JSONObject } from '@ai-sdk/provider';
import { type ModelMessage, streamText } from 'ai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type Chunk,
  type ChunkRow,
  explodeTurn,
  foldStream,
  groupRowsToMessages,
  toModelMessages,
} from '../../src/index.js';
import {
  fixtureProvider,
  fixtureTools,
  recordedFixtureNames,
  recordedFixturesAvailable,
  replayFetch,
  splitResponses,
  streamRecorded,
} from '../support/recorded-fixtures.js';

const PROMPT = 'Replay the recording.';

beforeEach(() => {
  (globalThis as { AI_SDK_LOG_WARNINGS?: unknown }).AI_SDK_LOG_WARNINGS = false;
});
afterEach(() => {
  (globalThis as { AI_SDK_LOG_WARNINGS?: unknown }).AI_SDK_LOG_WARNINGS = undefined;
});

/** Provider options that make the request carry everything the history holds. */
function providerOptions(name: string): Record<string, JSONObject> | undefined {
  return name.startsWith('openai-reasoning-encrypted')
    ? { openai: { store: false, include: ['reasoning.encrypted_content'] } }
    : undefined;
}

/** The request body the provider sends for `messages` (answered by the fixture's first response). */
async function requestBody(
  name: string,
  messages: ModelMessage[],
  options?: Record<string, JSONObject>,
): Promise<unknown> {
  const { fetch, requests } = replayFetch(splitResponses(name).slice(0, 1));
  const model =
    fixtureProvider(name) === 'openai'
      ? createOpenAI({ apiKey: 'test-key', fetch }).responses('gpt-5-test')
      : createAnthropic({ apiKey: 'test-key', fetch })('claude-test');
  await streamText({
    model,
    messages,
    tools: fixtureTools(name),
    ...(options ? { providerOptions: options } : {}),
  }).consumeStream();
  return requests[0];
}

/** What each recording's history must carry back to the provider (beyond matching the SDK). */
const SENT_BACK: Record<string, string[]> = {
  'anthropic-claude-sonnet-5-reasoning-summarized.chunks.txt': [
    '"type":"thinking"',
    '"signature":"EsECCokBCBAYAipA',
  ],
  'anthropic-fallback-mid-output.chunks.txt': [
    'SIG_FROM_OPUS_5_5',
    '"type":"fallback"',
    'SIG_FROM_OPUS_4_8',
    '"tool_use_id":"toolu_1"',
  ],
  'anthropic-web-search-tool.1.chunks.txt': [
    '"type":"server_tool_use"',
    '"type":"web_search_tool_result"',
    'encrypted_index',
  ],
  'anthropic-tool-no-args.chunks.txt': ['"name":"updateIssueList"', '"input":{}'],
  'openai-reasoning-encrypted-content.1.chunks.txt': [
    '"encrypted_content":"gAAAA',
    '"type":"function_call_output"',
    'The final result is **570**.',
  ],
  'openai-web-search-tool.1.chunks.txt': ['"type":"item_reference"'],
};

function rebuilt(chunks: readonly Chunk[]): ModelMessage[] {
  const drafts = [
    ...explodeTurn('turn', [{ type: 'text', step: 0, text: PROMPT }], { role: 'user' }),
    ...explodeTurn('turn', chunks, { role: 'assistant' }),
  ];
  const rows = drafts.map((d, i) => ({ ...d, threadId: 'thread', seq: i + 1 }) as ChunkRow);
  return toModelMessages(groupRowsToMessages(JSON.parse(JSON.stringify(rows)) as ChunkRow[]));
}

describe.runIf(recordedFixturesAvailable)(
  'recorded provider streams: the rebuilt history makes the provider send what the AI SDK sends',
  () => {
    for (const name of recordedFixtureNames()) {
      it(name, async () => {
        const { result, requests } = streamRecorded(name);
        const state = await foldStream(result.stream);
        const responseMessages = await result.responseMessages;
        const steps = splitResponses(name).length;
        expect(requests).toHaveLength(steps);

        // Every later step of the recording: the SDK's own request against the rebuilt history's.
        for (let k = 1; k < steps; k++) {
          const own = requests[k] as { input?: unknown; messages?: unknown };
          const mine = (await requestBody(
            name,
            rebuilt(state.chunks.filter((c) => c.step < k)),
          )) as typeof own;
          expect(mine.input ?? mine.messages).toStrictEqual(own.input ?? own.messages);
        }

        // The next call after the recording, with a new user message. (The encrypted-reasoning run
        // with `store: false`, so its reasoning goes back inline, summary and encrypted content.)
        const next: ModelMessage = { role: 'user', content: 'And then?' };
        const options = providerOptions(name);
        const sdkHistory: ModelMessage[] = [
          { role: 'user', content: PROMPT },
          ...responseMessages,
          next,
        ];
        const fromSdk = await requestBody(name, sdkHistory, options);
        const fromStore = await requestBody(name, [...rebuilt(state.chunks), next], options);
        expect(fromStore).toStrictEqual(fromSdk);
        for (const text of SENT_BACK[name] ?? []) expect(JSON.stringify(fromStore)).toContain(text);
      });
    }
  },
);
