// The tools of a fixture run, as an app would declare them: every tool the recording calls for
// the app to run (a function tool, an OpenAI shell or patch tool, a custom tool) gets a local
// implementation with a deterministic result, so that a multi-step run goes on step by step as
// it did when it was recorded. Provider-executed tools need no declaration (the providers report
// their calls and results, and `streamText` keeps them as dynamic calls), except where the
// provider only executes a tool it was given: OpenAI's shell in a hosted container.
import { openai } from '@ai-sdk/openai';
import { jsonSchema, stepCountIs, streamText, type ToolSet, tool } from 'ai';
import { framingOf, modelFor } from './models.js';
import type { FixtureRun } from './runs.js';
import { replayFetch } from './wire.js';

const anyInput = jsonSchema<unknown>({});

/** The provider tools a run was recorded with, where the provider needs the declaration. */
export function providerTools(run: FixtureRun): ToolSet {
  if (run.provider === 'openai' && /openai-shell-(container|skills)\./.test(run.name)) {
    return { shell: openai.tools.shell({ environment: { type: 'containerAuto' } }) };
  }
  return {};
}

/** The tools of a run: its provider tools, and a local implementation of every other it calls. */
export async function fixtureTools(run: FixtureRun): Promise<ToolSet> {
  const declared = providerTools(run);
  const names = (await localToolNames(run, declared)).filter((name) => !(name in declared));
  return { ...localTools(names), ...declared };
}

/** The names of the tools a run calls for the app to execute, found by streaming it once. */
export async function localToolNames(run: FixtureRun, tools: ToolSet = {}): Promise<string[]> {
  const { fetch } = replayFetch(run.responses, framingOf(run));
  const names = new Set<string>();
  const result = streamText({
    model: modelFor(run, fetch),
    prompt: 'Scan the recording.',
    tools,
    stopWhen: stepCountIs(run.responses.length),
    onError: () => {},
  });
  for await (const part of result.stream) {
    if (part.type === 'tool-call' && part.providerExecuted !== true) names.add(part.toolName);
  }
  return [...names].sort();
}

/** A tool set with a local implementation for each name: its result names the tool and call. */
export function localTools(names: readonly string[]): ToolSet {
  const tools: ToolSet = {};
  for (const name of names) {
    tools[name] = tool({
      inputSchema: anyInput,
      execute: async (_input, { toolCallId }) => ({ tool: name, call: toolCallId, ok: true }),
    });
  }
  return tools;
}
