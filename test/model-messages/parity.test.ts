// Parity with the AI SDK: the prompt the model receives at each step of a real multi-step
// streamText run equals the prompt it receives when the history is rebuilt from the run's chunks
// (folded by the reducer, exploded to rows, stored as JSON, grouped) by toModelMessages.
import type { LanguageModelV4CallOptions } from '@ai-sdk/provider';
import {
  experimental_createSteering,
  jsonSchema,
  type ModelMessage,
  stepCountIs,
  streamText,
  tool,
} from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import {
  type Chunk,
  type ChunkRow,
  explodeTurn,
  foldStream,
  groupRowsToMessages,
  toModelMessages,
} from '../../src/index.js';
import { partStream, type Scripted, streamParts } from './support/mock-stream.js';

const SYSTEM = 'You are a careful agent.';
const USER = 'Compare a.ts and b.ts.';

const steps: Scripted[][] = [
  [
    { type: 'thinking', text: 'I need both files.', signature: 'sig-0a' },
    { type: 'text', text: 'Reading them.' },
    { type: 'redacted', data: 'REDACTED-0' },
    { type: 'thinking', text: 'In parallel.', signature: 'sig-0b' },
    { type: 'call', id: 'call-a', name: 'read', input: { path: 'a.ts' } },
    { type: 'call', id: 'call-b', name: 'read', input: { path: 'b.ts' } },
  ],
  [
    { type: 'thinking', text: 'The user also wants c.ts.', signature: 'sig-1' },
    { type: 'call', id: 'call-c', name: 'read', input: { path: 'c.ts' } },
    { type: 'call', id: 'call-x', name: 'fail', input: {} },
  ],
  [
    { type: 'thinking', text: 'Now list the folder.', signature: 'sig-2' },
    { type: 'call', id: 'call-l', name: 'list', input: {} },
  ],
  [
    { type: 'thinking', text: 'I can answer.', signature: 'sig-3' },
    { type: 'text', text: 'a.ts and b.ts differ; c.ts is empty.' },
  ],
];

/** JSON-normalised (undefined members dropped), as the request would be serialised. */
const normal = (prompt: LanguageModelV4CallOptions['prompt']) =>
  JSON.parse(JSON.stringify(prompt)) as unknown;

function replayModel(script: Scripted[][]): MockLanguageModelV4 {
  let call = 0;
  return new MockLanguageModelV4({
    doStream: async () => {
      const n = call++;
      return {
        stream: partStream(streamParts(script[n] ?? [{ type: 'text', text: 'extra' }], `msg-${n}`)),
      };
    },
  });
}

/** What a store would hand back: rows with seq, through JSON. */
function storeAndGroup(turnId: string, user: Chunk[], assistant: Chunk[]) {
  const drafts = [
    ...explodeTurn(turnId, user, { role: 'user' }),
    ...explodeTurn(turnId, assistant, { role: 'assistant' }),
  ];
  const rows = drafts.map((d, i) => ({ ...d, threadId: 'thread', seq: i + 1 }) as ChunkRow);
  return groupRowsToMessages(JSON.parse(JSON.stringify(rows)) as ChunkRow[]);
}

describe('parity with the AI SDK', () => {
  it('rebuilds, from the chunks, the prompt the model got at every step of a multi-step run', async () => {
    const steering = experimental_createSteering();
    const tools = {
      read: tool({
        inputSchema: jsonSchema<{ path: string }>({
          type: 'object',
          properties: { path: { type: 'string' } },
          required: ['path'],
        }),
        execute: async ({ path }) => {
          if (path === 'a.ts') void steering.steer('Also check c.ts please.');
          return path === 'c.ts' ? '' : `// contents of ${path}`;
        },
      }),
      list: tool({
        inputSchema: jsonSchema<Record<string, never>>({ type: 'object', properties: {} }),
        execute: async () => ({ files: ['a.ts', 'b.ts', 'c.ts'], count: 3 }),
      }),
      fail: tool({
        inputSchema: jsonSchema<Record<string, never>>({ type: 'object', properties: {} }),
        execute: async (): Promise<string> => {
          throw new Error('disk on fire');
        },
      }),
    };
    const model = replayModel(steps);
    const result = streamText({
      model,
      system: SYSTEM,
      messages: [{ role: 'user', content: USER }],
      tools,
      stopWhen: stepCountIs(10),
      experimental_steering: steering,
    });
    const state = await foldStream(result.stream);
    expect(model.doStreamCalls).toHaveLength(4);

    const chunks = state.chunks;
    expect(chunks.some((c) => c.type === 'steering')).toBe(true);
    const user: Chunk[] = [{ type: 'text', step: 0, text: USER }];

    for (let k = 1; k < model.doStreamCalls.length; k++) {
      // The history as it stood when step k was called: everything of the earlier steps, and the
      // steering message delivered with step k.
      const before = chunks.filter((c) => c.step < k || (c.type === 'steering' && c.step === k));
      const messages: ModelMessage[] = toModelMessages(storeAndGroup('turn-1', user, before));
      const replay = replayModel([[{ type: 'text', text: 'ok' }]]);
      await streamText({ model: replay, system: SYSTEM, messages, tools }).consumeStream();
      expect(normal(replay.doStreamCalls[0]?.prompt ?? [])).toStrictEqual(
        normal(model.doStreamCalls[k]?.prompt ?? []),
      );
    }

    // The whole run, for the next turn, is the AI SDK's own response messages, plus the steering
    // message where the loop inserted it (response messages leave steering out).
    const whole = JSON.parse(
      JSON.stringify(toModelMessages(storeAndGroup('turn-1', user, [...chunks]))),
    ) as ModelMessage[];
    const steer = whole.findIndex(
      (m) => m.role === 'user' && m.content === 'Also check c.ts please.',
    );
    expect(whole.slice(steer - 2, steer + 1).map((m) => m.role)).toEqual([
      'assistant',
      'tool',
      'user',
    ]);
    expect(whole.filter((_, i) => i !== steer)).toStrictEqual(
      JSON.parse(
        JSON.stringify([
          { role: 'user', content: [{ type: 'text', text: USER }] },
          ...(await result.responseMessages),
        ]),
      ),
    );
  });
});
