// Replays the recorded provider streams of ../shared/fixtures/ai-sdk-recorded/ (copies of the
// Vercel AI SDK's own fixtures, read where they lie; see the README there) through the real @ai-sdk/anthropic and
// @ai-sdk/openai providers: a custom `fetch` answers each model call with the next recorded
// response as a `text/event-stream` body. Shared by every suite that needs real provider output.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { anthropic, createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI, openai } from '@ai-sdk/openai';
import { jsonSchema, type LanguageModel, stepCountIs, streamText, type ToolSet, tool } from 'ai';
import { SHARED_FIXTURES_DIR, sharedFixturesAvailable } from './shared-fixtures.js';

// The AI SDK prints warnings through process.emitWarning; the replays need none of them.
(globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;

/** Where the recorded streams are: ../shared/fixtures/ai-sdk-recorded beside the repository. */
export const RECORDED_FIXTURES_DIR: string = join(SHARED_FIXTURES_DIR, 'ai-sdk-recorded');

/**
 * Whether the recorded streams are there. Without them the suites that replay them skip (and say
 * so on stderr); with CHUNKLOG_REQUIRE_SERVICES=1 their absence fails the run.
 */
export const recordedFixturesAvailable: boolean = sharedFixturesAvailable('ai-sdk-recorded');

/** The name of every recorded stream (`*.chunks.txt`), sorted; none when they are not there. */
export function recordedFixtureNames(): string[] {
  if (!recordedFixturesAvailable) return [];
  return readdirSync(RECORDED_FIXTURES_DIR)
    .filter((f) => f.endsWith('.chunks.txt'))
    .sort();
}

/** The raw bytes of a fixture. */
export function readFixtureBytes(name: string): Buffer {
  return readFileSync(join(RECORDED_FIXTURES_DIR, name));
}

/** `git hash-object` of a fixture, to check a copy against the README's upstream blob ids. */
export function fixtureBlobId(name: string): string {
  const bytes = readFixtureBytes(name);
  return createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
}

/** The non-blank lines of a fixture: each the `data` of one server-sent event, as recorded. */
export function readFixtureLines(name: string): string[] {
  return readFixtureBytes(name)
    .toString('utf8')
    .split('\n')
    .filter((line) => line.trim() !== '');
}

/** Which provider API a fixture was recorded from. */
export type FixtureProvider = 'anthropic' | 'openai';

/** The provider of a fixture, from its name. */
export function fixtureProvider(name: string): FixtureProvider {
  return name.startsWith('openai') ? 'openai' : 'anthropic';
}

/**
 * Splits a fixture into the responses of successive model calls (an OpenAI file may hold
 * several Responses API streams of one multi-step run, each beginning with `response.created`;
 * an Anthropic file each message with `message_start`).
 */
export function splitResponses(name: string): string[][] {
  const first = fixtureProvider(name) === 'openai' ? 'response.created' : 'message_start';
  const responses: string[][] = [];
  for (const line of readFixtureLines(name)) {
    const type = (JSON.parse(line) as { type?: unknown }).type;
    if (type === first || responses.length === 0) responses.push([]);
    responses.at(-1)?.push(line);
  }
  return responses;
}

/**
 * A `text/event-stream` response whose events are `lines`. `framing: 'data'` writes each line as
 * `data: <line>` (as the AI SDK's own tests do); `'event'` adds the `event: <type>` line the real
 * APIs send.
 */
export function sseResponse(
  lines: readonly string[],
  framing: 'data' | 'event' = 'data',
): Response {
  const body = lines
    .map((line) => {
      if (framing === 'data') return `data: ${line}\n\n`;
      const type = (JSON.parse(line) as { type?: unknown }).type;
      return `event: ${String(type)}\ndata: ${line}\n\n`;
    })
    .join('');
  return new Response(body, {
    status: 200,
    headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' },
  });
}

/** A `fetch` that answers call n with response n, and remembers the JSON request bodies. */
export interface ReplayFetch {
  readonly fetch: typeof globalThis.fetch;
  /** The parsed JSON body of every request made, in order. */
  readonly requests: unknown[];
}

/** A replaying `fetch` over the given responses (each a list of SSE data lines). */
export function replayFetch(
  responses: readonly (readonly string[])[],
  framing: 'data' | 'event' = 'data',
): ReplayFetch {
  const requests: unknown[] = [];
  let call = 0;
  const fetch = async (_input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    if (typeof init?.body === 'string') requests.push(JSON.parse(init.body));
    const lines = responses[call++];
    if (lines === undefined) {
      return new Response(JSON.stringify({ error: { message: 'no more recorded responses' } }), {
        status: 500,
        headers: { 'content-type': 'application/json' },
      });
    }
    return sseResponse(lines, framing);
  };
  return { fetch: fetch as typeof globalThis.fetch, requests };
}

/** A model of the fixture's provider whose HTTP calls are answered by the fixture. */
export function recordedModel(
  name: string,
  framing: 'data' | 'event' = 'data',
): { model: LanguageModel; responses: number; requests: unknown[] } {
  const responses = splitResponses(name);
  const { fetch, requests } = replayFetch(responses, framing);
  const model =
    fixtureProvider(name) === 'openai'
      ? createOpenAI({ apiKey: 'test-key', fetch }).responses('gpt-5')
      : createAnthropic({ apiKey: 'test-key', fetch })('claude-sonnet-4-5');
  return { model, responses: responses.length, requests };
}

const anyObject = jsonSchema<Record<string, unknown>>({ type: 'object' });

/** The tools the recorded runs called, with deterministic local implementations. */
export function fixtureTools(name: string): ToolSet {
  const tools: ToolSet = {
    lookup: tool({ inputSchema: anyObject, execute: async () => 'looked up' }),
    updateIssueList: tool({ inputSchema: anyObject, execute: async () => 'updated' }),
    calculator: tool({
      inputSchema: jsonSchema<{ a: number; b: number; op: string }>({ type: 'object' }),
      execute: async ({ a, b, op }) =>
        op === 'add' ? a + b : op === 'subtract' ? a - b : op === 'multiply' ? a * b : a / b,
    }),
  };
  if (name.includes('web-search')) {
    tools.web_search =
      fixtureProvider(name) === 'openai'
        ? openai.tools.webSearch({})
        : anthropic.tools.webSearch_20250305({ maxUses: 1 });
  }
  return tools;
}

/**
 * Runs `streamText` over a recorded fixture with its tools, for as many steps as the fixture
 * holds responses.
 */
export function streamRecorded(
  name: string,
  framing: 'data' | 'event' = 'data',
): { result: ReturnType<typeof streamText>; requests: unknown[] } {
  const { model, responses, requests } = recordedModel(name, framing);
  const result = streamText({
    model,
    prompt: 'Replay the recording.',
    tools: fixtureTools(name),
    stopWhen: stepCountIs(responses),
  });
  return { result, requests };
}
