// The offline "agent" the chat examples talk to when no API key is set: chunklog's scripted
// model, answering from the last message it is sent. A few words make it do the things a real
// agent does, so every kind of chunk can be seen without a network:
//
//   help            what it understands
//   weather <city>  thinks, then calls two tools at once; they stream progress text
//   slow [s]        calls a tool that takes s seconds, 3 by default (steer or queue meanwhile)
//   long [n]        a long turn of n thinking and text blocks (default 60)
//   ratelimit       the main model is rate limited (429): the session switches to the fallback
//   error           both models are down (503): the turn ends with an error
//   xss             answers with HTML in its text, thinking and tool input (shown as text)
//   markdown        answers in Markdown (a heading, a list, code, links: one of them unsafe)
//   anything else   thinks briefly and answers
//
// With `markRepeats`, asked the same again (a regenerated answer) it says which time it is:
// "(Answer 2 to this.)".

import type { LanguageModelV4CallOptions } from '@ai-sdk/provider';
import { UNANSWERED_TOOL_CALL_TEXT } from 'chunklog';
import {
  createScriptedModel,
  type ScriptedModel,
  type ScriptedPart,
  type ScriptedStep,
} from 'chunklog/testing';
import { type AgentModels, providerModels } from './providers.js';

export const HELP = [
  'help — this list',
  'weather <city> — two tools at once, with progress',
  'slow — a slow tool: steer or queue a message while it runs',
  'long [n] — a long turn of n chunks',
  'ratelimit — the model is rate limited and the fallback takes over',
  'error — the provider is down: an error card',
  'xss — HTML in the answer, shown as text',
  'markdown — a formatted answer (rendered safely where the page renders Markdown)',
].join('\n');

const MARKDOWN = [
  '## A formatted answer',
  '',
  '- **bold**, *italic* and `inline code`',
  '- a [safe link](https://www.npmjs.com/package/chunklog) and an [unsafe one](javascript:alert(3))',
  '',
  '```ts',
  "const greeting = 'hello';",
  '```',
  '',
  'Raw HTML stays text: <img src=x onerror=alert(4)>',
].join('\n');

const XSS = '<img src=x onerror=alert(1)>';

type Prompt = LanguageModelV4CallOptions['prompt'];

function textOf(message: Prompt[number] | undefined): string {
  if (message === undefined || typeof message.content === 'string') return '';
  return message.content
    .map((part) => (part.type === 'text' ? part.text : ''))
    .join('')
    .trim();
}

/** What the scripted model does for one call. */
function answer(prompt: Prompt, role: 'primary' | 'fallback'): ScriptedStep {
  const last = prompt.at(-1);
  if (last?.role === 'tool') {
    const results = last.content
      .map((part) =>
        part.type === 'tool-result' && 'value' in part.output
          ? `${part.toolName}: ${JSON.stringify(part.output.value)}`
          : '',
      )
      .join('; ');
    return {
      parts: [
        { type: 'reasoning', text: 'The tools answered; time to sum up.' },
        { type: 'text', text: `Here is what the tools found: ${results.slice(0, 300)}` },
      ],
    };
  }
  // A steering message arrives as a user message right after the tool results (those of a
  // cancelled turn say so: then it is a new message, not steering).
  const before = prompt.at(-2);
  const interrupted =
    before?.role === 'tool' &&
    before.content.some(
      (part) =>
        part.type === 'tool-result' &&
        part.output.type === 'error-text' &&
        part.output.value === UNANSWERED_TOOL_CALL_TEXT,
    );
  if (last?.role === 'user' && before?.role === 'tool' && !interrupted) {
    return {
      parts: [
        { type: 'reasoning', text: 'The user added something while I worked.' },
        { type: 'text', text: `Noted, while I was working you said: “${textOf(last)}”.` },
      ],
    };
  }
  const said = textOf(last);
  const [word = '', ...rest] = said.split(/\s+/);
  switch (word.toLowerCase()) {
    case 'help':
      return { parts: [{ type: 'text', text: `I understand:\n${HELP}` }] };
    case 'weather': {
      const city = rest.join(' ') || 'Paris';
      return {
        parts: [
          { type: 'reasoning', text: `Weather and headlines for ${city}: both at once.` },
          { type: 'tool-call', toolName: 'weather', input: { city } },
          { type: 'tool-call', toolName: 'headlines', input: { city } },
        ],
      };
    }
    case 'slow':
      return {
        parts: [
          { type: 'reasoning', text: 'This needs the slow tool.' },
          { type: 'text', text: 'Starting a slow job; write to me meanwhile.' },
          {
            type: 'tool-call',
            toolName: 'slow_job',
            input: { seconds: Math.max(1, Math.min(Number(rest[0]) || 3, 30)) },
          },
        ],
      };
    case 'long': {
      const n = Math.max(2, Math.min(Number(rest[0]) || 60, 2000));
      const parts: ScriptedPart[] = [];
      for (let i = 1; i <= n; i++) {
        parts.push(
          i % 2 === 1
            ? { type: 'reasoning', text: `Thinking, chunk ${i} of ${n}.` }
            : {
                type: 'text',
                text: `Chunk ${i} of ${n}: a paragraph of the long answer, long enough to wrap onto a second line in the page, so that a window of a few dozen chunks is taller than the screen.`,
              },
        );
      }
      return { parts, delayMs: 4 };
    }
    case 'ratelimit':
      if (role === 'primary') return { fail: { statusCode: 429, message: 'Rate limited' } };
      return {
        parts: [
          { type: 'reasoning', text: 'I am the fallback model, taking over.' },
          { type: 'text', text: 'The main model was rate limited, so I answered instead.' },
        ],
      };
    case 'markdown':
      return {
        parts: [
          { type: 'reasoning', text: 'The user wants formatting.' },
          { type: 'text', text: MARKDOWN },
        ],
      };
    case 'error':
      return { fail: { statusCode: 503, message: `Service unavailable (${role} model)` } };
    case 'xss':
      return {
        parts: [
          { type: 'reasoning', text: `Thinking about ${XSS} and <b>bold</b>.` },
          { type: 'text', text: `Here is some HTML: ${XSS} <script>alert(2)</script>` },
          { type: 'tool-call', toolName: 'weather', input: { city: XSS } },
        ],
      };
    default:
      return {
        parts: [
          { type: 'reasoning', text: `The user said “${said.slice(0, 80)}”. I should answer.` },
          { type: 'text', text: `You said: “${said}”. (Offline scripted model; type help.)` },
        ],
      };
  }
}

/**
 * The same prompt asked again (a regenerated answer, an edit back to the same text) says which
 * time it is, so that the versions of a turn can be told apart.
 */
function again(answers: Map<string, number>, prompt: Prompt, step: ScriptedStep): ScriptedStep {
  const key = JSON.stringify(prompt);
  const times = (answers.get(key) ?? 0) + 1;
  if (answers.size > 1000) answers.clear(); // a long-running chat: forget, do not grow
  answers.set(key, times);
  if (times === 1 || step.parts === undefined) return step;
  return { ...step, parts: [...step.parts, { type: 'text', text: `(Answer ${times} to this.)` }] };
}

/** A scripted model that answers every call with {@link answer} (it keeps its last 100 calls). */
function scripted(
  role: 'primary' | 'fallback',
  modelId: string,
  delayMs: number,
  markRepeats: boolean,
): ScriptedModel {
  const answers = new Map<string, number>();
  const respond = (prompt: Prompt) => {
    const step = answer(prompt, role);
    return markRepeats ? again(answers, prompt, step) : step;
  };
  // A function script answers any number of calls: the chat can run for as long as it likes.
  return createScriptedModel((call) => respond(call.prompt), {
    provider: 'anthropic.messages',
    modelId,
    delayMs,
  });
}

/** Options of {@link chatModels}. */
export interface ChatModelsOptions {
  /** The scripted models number an answer to a prompt they were asked before (a regenerate). */
  readonly markRepeats?: boolean | undefined;
}

/** A real provider when its key is set, else the scripted models. */
export function chatModels(
  env: NodeJS.ProcessEnv = process.env,
  options: ChatModelsOptions = {},
): AgentModels {
  const real = providerModels(env);
  if (real) return real;
  const delayMs = Number(env.CHUNKLOG_SCRIPTED_DELAY_MS ?? 15);
  const marks = options.markRepeats === true;
  return {
    model: scripted('primary', 'claude-opus-scripted', delayMs, marks),
    fallbackModels: [scripted('fallback', 'claude-sonnet-scripted', delayMs, marks)],
    maxRetries: 0,
    description: 'a scripted model, offline (type help; set ANTHROPIC_API_KEY or OPENAI_API_KEY)',
    scripted: true,
  };
}
