// One fixture run through `streamText` with its real provider, and the request body a provider
// sends for a given history (answered by the run's first recorded response).
import { type ModelMessage, stepCountIs, streamText, type TextStreamPart, type ToolSet } from 'ai';
import { framingOf, modelFor } from './models.js';
import type { FixtureRun } from './runs.js';
import { replayFetch } from './wire.js';

/** The prompt every run starts from. */
export const PROMPT = 'Replay the recording.';

/** What the AI SDK itself did in a run: its stream parts, request bodies and response messages. */
export interface RecordedRun {
  readonly parts: TextStreamPart<ToolSet>[];
  /** The JSON body of each model call the loop made, in order. */
  readonly requests: unknown[];
  readonly responseMessages: ModelMessage[];
}

/** Streams a run for as many steps as it holds responses. */
export async function streamRun(run: FixtureRun, tools: ToolSet): Promise<RecordedRun> {
  const { fetch, requests } = replayFetch(run.responses, framingOf(run));
  const result = streamText({
    model: modelFor(run, fetch),
    prompt: PROMPT,
    tools,
    stopWhen: stepCountIs(run.responses.length),
    onError: () => {},
  });
  const parts: TextStreamPart<ToolSet>[] = [];
  for await (const part of result.stream) parts.push(part);
  // A run whose first model call fails has no response messages: the AI SDK rejects them.
  const responseMessages = await Promise.resolve(result.responseMessages).catch(() => []);
  return { parts, requests, responseMessages };
}

/** The request body the run's provider sends for `messages` (one model call, no tool runs). */
export async function requestBody(
  run: FixtureRun,
  tools: ToolSet,
  messages: ModelMessage[],
): Promise<unknown> {
  const { fetch, requests } = replayFetch(run.responses.slice(0, 1), framingOf(run));
  const passive: ToolSet = {};
  for (const [name, t] of Object.entries(tools)) {
    const { execute: _execute, ...rest } = t;
    passive[name] = rest as ToolSet[string];
  }
  await streamText({
    model: modelFor(run, fetch),
    messages,
    tools: passive,
    onError: () => {},
  }).consumeStream();
  return requests[0];
}
