// The scripted 5-step turn of the kill-point tests (thinking, parallel tool calls, text) and its
// tools. The model answers by where the turn is, not by how often it was called: step k is the
// one after k assistant steps in its input, and every id is fixed by (step, part). So a process
// that continues the turn from its stored steps (`recovery: 'continue'`) gets the very steps an
// uninterrupted run gets.
import type { LanguageModelV4Prompt } from '@ai-sdk/provider';
import { tool } from 'ai';
import { z } from 'zod';
import { createScriptedModel, type ScriptedStep } from '../../../src/testing/index.js';

const STEPS: readonly ScriptedStep[] = [
  {
    parts: [
      { type: 'reasoning', text: 'Two files to read.', signature: 'sig-A' },
      { type: 'text', text: 'Let me look.' },
      { type: 'tool-call', toolName: 'read_file', input: { path: 'a.ts' } },
      { type: 'tool-call', toolName: 'read_file', input: { path: 'b.ts' } },
    ],
  },
  {
    parts: [
      { type: 'reasoning', text: 'Now the list.', signature: 'sig-B' },
      { type: 'tool-call', toolName: 'list_files', input: { dir: '.' } },
    ],
  },
  { parts: [{ type: 'tool-call', toolName: 'read_file', input: { path: 'c.ts' } }] },
  {
    parts: [
      { type: 'text', text: 'Almost.' },
      { type: 'tool-call', toolName: 'list_files', input: { dir: 'src' } },
    ],
  },
  { parts: [{ type: 'text', text: 'All three export one function.' }] },
];

/** Step `k` of the script, every id fixed by `k` and the part's place. */
function stepWithIds(k: number): ScriptedStep {
  const step = STEPS[k];
  if (step === undefined) throw new Error(`the scripted turn has no step ${k}`);
  return {
    ...step,
    parts: (step.parts ?? []).map((part, j) =>
      part.type === 'tool-call'
        ? { ...part, toolCallId: `call-${k}-${j}` }
        : part.type === 'text' || part.type === 'reasoning'
          ? { ...part, id: `${k}-${j}` }
          : part,
    ),
  } as ScriptedStep;
}

/** How many assistant steps the prompt holds: the step the model answers next. */
export function stepOf(prompt: LanguageModelV4Prompt): number {
  return prompt.filter((message) => message.role === 'assistant').length;
}

/** The scripted 5-step turn: answers by the step its input has reached. */
export function durableScript() {
  return createScriptedModel((call) => stepWithIds(stepOf(call.prompt)));
}

/** The turn's tools; `pause` runs at the start of each execute (a kill point in the worker). */
export function durableTools(pause: (name: string) => Promise<void> = async () => {}) {
  return {
    read_file: tool({
      description: 'Read a file',
      inputSchema: z.object({ path: z.string() }),
      execute: async ({ path }) => {
        await pause(`in read_file ${path}`);
        return `// ${path}\nexport function f() {}`;
      },
    }),
    list_files: tool({
      description: 'List files',
      inputSchema: z.object({ dir: z.string() }),
      execute: async ({ dir }) => {
        await pause(`in list_files ${dir}`);
        return [`${dir}/a.ts`];
      },
    }),
  };
}
