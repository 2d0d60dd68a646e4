// `npm run demo`: a scripted agent turn (the AI SDK's mock model, real tools), folded into
// chunks with chunklog and printed. Runs offline. A placeholder until the full demo exists.
import type { LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { stepCountIs, streamText, tool } from 'ai';
import { convertArrayToReadableStream, MockLanguageModelV4 } from 'ai/test';
import { type Chunk, foldStream } from 'chunklog';
import { z } from 'zod';

const usage = (input: number, output: number) => ({
  inputTokens: { total: input, noCache: input, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: output, text: output, reasoning: undefined },
});
const signed = (signature: string) => ({ anthropic: { signature } });

// What the model streams: interleaved thinking, text, two parallel tool calls; then a second step.
const step1: LanguageModelV4StreamPart[] = [
  { type: 'stream-start', warnings: [] },
  { type: 'response-metadata', id: 'msg_1', modelId: 'claude-demo', timestamp: new Date(0) },
  { type: 'reasoning-start', id: 'r1' },
  { type: 'reasoning-delta', id: 'r1', delta: 'The user asks about Paris. ' },
  { type: 'reasoning-delta', id: 'r1', delta: 'I need the weather and the news.' },
  { type: 'reasoning-delta', id: 'r1', delta: '', providerMetadata: signed('EqQBCkYIBxgCKkA…') },
  { type: 'reasoning-end', id: 'r1' },
  { type: 'text-start', id: 't1' },
  { type: 'text-delta', id: 't1', delta: 'Let me check both at once.' },
  { type: 'text-end', id: 't1' },
  { type: 'tool-input-start', id: 'call_1', toolName: 'weather' },
  { type: 'tool-input-delta', id: 'call_1', delta: '{"city":"Paris"}' },
  { type: 'tool-input-end', id: 'call_1' },
  { type: 'tool-call', toolCallId: 'call_1', toolName: 'weather', input: '{"city":"Paris"}' },
  { type: 'tool-call', toolCallId: 'call_2', toolName: 'news', input: '{"topic":"Paris"}' },
  {
    type: 'finish',
    finishReason: { unified: 'tool-calls', raw: 'tool_use' },
    usage: usage(120, 48),
  },
];
const step2: LanguageModelV4StreamPart[] = [
  { type: 'stream-start', warnings: [] },
  { type: 'response-metadata', id: 'msg_2', modelId: 'claude-demo', timestamp: new Date(0) },
  { type: 'reasoning-start', id: 'r2' },
  { type: 'reasoning-delta', id: 'r2', delta: 'Both tools answered.' },
  { type: 'reasoning-delta', id: 'r2', delta: '', providerMetadata: signed('EpMCCkYIBxgCKkB…') },
  { type: 'reasoning-end', id: 'r2' },
  { type: 'text-start', id: 't2' },
  { type: 'text-delta', id: 't2', delta: 'It is 21°C and sunny in Paris; ' },
  { type: 'text-delta', id: 't2', delta: 'the news: the Seine is open for swimming.' },
  { type: 'text-end', id: 't2' },
  { type: 'finish', finishReason: { unified: 'stop', raw: 'end_turn' }, usage: usage(260, 30) },
];

const result = streamText({
  model: new MockLanguageModelV4({
    doStream: [
      { stream: convertArrayToReadableStream(step1) },
      { stream: convertArrayToReadableStream(step2) },
    ],
  }),
  prompt: 'What is going on in Paris today?',
  stopWhen: stepCountIs(2),
  tools: {
    weather: tool({
      description: 'Current weather of a city',
      inputSchema: z.object({ city: z.string() }),
      execute: async ({ city }) => ({ city, celsius: 21, sky: 'sunny' }),
    }),
    news: tool({
      description: 'Headlines about a topic, streamed as they are found',
      inputSchema: z.object({ topic: z.string() }),
      async *execute({ topic }) {
        yield { topic, status: 'searching' };
        yield { topic, status: 'done', headlines: ['The Seine is open for swimming'] };
      },
    }),
  },
});

const state = await foldStream(result.stream);

const clip = (text: string, max = 70) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);
const json = (value: unknown) => clip(JSON.stringify(value), 60);

function describe(chunk: Chunk): string {
  switch (chunk.type) {
    case 'thinking': {
      const signature = chunk.providerMetadata?.anthropic?.signature;
      const notes = [chunk.modelId, signature ? 'signed' : 'unsigned'].filter(Boolean).join(', ');
      return `thinking (${notes}): ${clip(JSON.stringify(chunk.text))}`;
    }
    case 'text':
      return `text: ${clip(JSON.stringify(chunk.text))}`;
    case 'tool-batch':
      return [
        `tool-batch, ${chunk.calls.length} call(s):`,
        ...chunk.calls.map(
          (call) =>
            `      ${call.name}(${json(call.input)}) → ${call.result === undefined ? '…' : json(call.result)}` +
            (call.preliminary === undefined
              ? ''
              : `\n        (last preliminary: ${json(call.preliminary)})`),
        ),
      ].join('\n');
    case 'error':
      return `error${chunk.statusCode ? ` ${chunk.statusCode}` : ''}: ${chunk.message}`;
    case 'system':
      return `system (${chunk.kind}): ${chunk.text}`;
    case 'steering':
      return `steering (user): ${clip(JSON.stringify(chunk.text))}`;
    case 'source':
      return `source: ${chunk.source.sourceType === 'url' ? chunk.source.url : chunk.source.title}`;
    case 'file':
      return `file: ${chunk.mediaType}${chunk.reasoning ? ' (reasoning)' : ''}`;
    case 'custom':
      return `custom: ${chunk.kind}`;
    case 'data':
      return `data (${chunk.name}): ${json(chunk.data)}`;
  }
}

console.log(`A turn of ${state.steps.length} steps, folded into ${state.chunkCount} chunks:\n`);
state.chunks.forEach((chunk, i) => {
  console.log(`  ${String(i).padStart(2)}  [step ${chunk.step}] ${describe(chunk)}`);
});
console.log(
  `\nFinished: ${state.finishReason}; ${state.usage?.totalTokens ?? '?'} tokens; ` +
    `steps: ${state.steps.map((s) => `${s.step}=${s.finishReason}`).join(', ')}`,
);
