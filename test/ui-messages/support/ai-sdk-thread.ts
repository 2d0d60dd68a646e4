// A thread persisted the AI SDK way: the UI messages of multi-step tool runs, built by
// `streamText(...).toUIMessageStream()` and `readUIMessageStream`, as the persistence guide does.
import { readUIMessageStream, stepCountIs, streamText, tool, type UIMessage } from 'ai';
import type { MockLanguageModelV4 } from 'ai/test';
import { z } from 'zod';
import { reasoning, type ScriptedStep, scriptedModel, text, toolCall } from './model-script.js';

/** The tools of the thread: one that answers, one that throws. */
export const tools = {
  weather: tool({
    description: 'The weather in a city',
    inputSchema: z.object({ city: z.string() }),
    execute: async ({ city }: { city: string }) => ({ city, celsius: city.length }),
  }),
  deleteFile: tool({
    description: 'Deletes a file, once the user approves',
    inputSchema: z.object({ path: z.string() }),
    needsApproval: true,
    execute: async ({ path }: { path: string }) => `deleted ${path}`,
  }),
  explode: tool({
    description: 'Always fails',
    inputSchema: z.object({}),
    execute: async (): Promise<string> => {
      throw new Error('boom');
    },
  }),
};

/** The two assistant turns of the thread, one model call per step. */
export const turns: ReadonlyArray<{
  readonly user: string;
  readonly steps: ScriptedStep[];
  /** How the user answers the approval request the turn ends with, if it does. */
  readonly approve?: boolean;
}> = [
  {
    user: 'Weather in Oslo and Rome?',
    steps: [
      {
        parts: [
          ...reasoning('r1', 'Two cities: two calls.', 'sig-1'),
          ...text('t1', 'Let me check.'),
          toolCall('call-1', 'weather', { city: 'Oslo' }),
          toolCall('call-2', 'weather', { city: 'Rome' }),
        ],
        finish: 'tool-calls',
      },
      { parts: [...text('t2', 'Oslo is colder than Rome.')] },
    ],
  },
  {
    user: 'Now break something.',
    steps: [
      { parts: [toolCall('call-3', 'explode', {})], finish: 'tool-calls' },
      {
        parts: [...reasoning('r2', 'It failed.', 'sig-2'), ...text('t3', 'The tool failed: boom.')],
      },
    ],
  },
  {
    user: 'Delete tmp.txt',
    approve: true,
    steps: [
      { parts: [toolCall('call-4', 'deleteFile', { path: 'tmp.txt' })], finish: 'tool-calls' },
      { parts: [...text('t4', 'Deleted.')] },
    ],
  },
  {
    user: 'Delete everything',
    approve: false,
    steps: [
      { parts: [toolCall('call-5', 'deleteFile', { path: '/' })], finish: 'tool-calls' },
      { parts: [...text('t5', 'Understood, I will not.')] },
    ],
  },
];

/** The tool parts of `message` waiting for approval, answered. */
function answer(message: UIMessage, approved: boolean): UIMessage {
  return {
    ...message,
    parts: message.parts.map((part) =>
      'approval' in part && part.state === 'approval-requested'
        ? ({
            ...part,
            state: 'approval-responded',
            approval: { ...part.approval, approved, ...(approved ? {} : { reason: 'no' }) },
          } as unknown as typeof part)
        : part,
    ),
  };
}

/** The mock model of each turn of the last {@link persistedThread} run (its calls are recorded). */
export const models: MockLanguageModelV4[] = [];

/**
 * Runs every turn of {@link turns} with `streamText`, keeping the conversation as `UIMessage`s
 * the way an app on `useChat` does.
 *
 * @returns the thread's UI messages, as JSON storage keeps them
 */
export async function persistedThread(): Promise<UIMessage[]> {
  const { convertToModelMessages } = await import('ai');
  const messages: UIMessage[] = [];
  let n = 0;
  for (const turn of turns) {
    messages.push({ id: `user-${n}`, role: 'user', parts: [{ type: 'text', text: turn.user }] });
    const model = scriptedModel(turn.steps);
    models[n] = model;
    let continued: UIMessage | undefined;
    for (let request = 0; request < 2; request++) {
      const result = streamText({
        model,
        messages: await convertToModelMessages(messages, { tools }),
        tools,
        stopWhen: stepCountIs(5),
      });
      const stream = result.toUIMessageStream({
        sendSources: true,
        originalMessages: messages,
        generateMessageId: () => `assistant-${n}`,
      });
      let last: UIMessage | undefined = continued;
      for await (const message of readUIMessageStream({
        stream,
        ...(continued === undefined ? {} : { message: continued }),
      })) {
        last = message;
      }
      if (last === undefined) break;
      if (continued === undefined) messages.push(last);
      else messages[messages.length - 1] = last;
      if (turn.approve === undefined || request > 0) break;
      continued = answer(last, turn.approve);
      messages[messages.length - 1] = continued;
    }
    n++;
  }
  return JSON.parse(JSON.stringify(messages)) as UIMessage[];
}
