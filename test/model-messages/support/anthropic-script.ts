// Scripted Anthropic Messages API responses served through the real @ai-sdk/anthropic provider by
// a custom `fetch`, which also records every request body the provider sends.
import { createAnthropic } from '@ai-sdk/anthropic';
import type { LanguageModel } from 'ai';
import { afterEach, beforeEach } from 'vitest';

/** One content block of a scripted response. */
export type ScriptedBlock =
  | { readonly type: 'thinking'; readonly text: string; readonly signature: string }
  | { readonly type: 'redacted_thinking'; readonly data: string }
  | { readonly type: 'text'; readonly text: string }
  | {
      readonly type: 'tool_use';
      readonly id: string;
      readonly name: string;
      readonly input: unknown;
    };

/** The server-sent events of one response holding `blocks`. */
export function anthropicStream(blocks: readonly ScriptedBlock[], model = 'claude-test-1'): string {
  const events: object[] = [
    {
      type: 'message_start',
      message: {
        id: `msg_${Math.abs(hash(JSON.stringify(blocks)))}`,
        type: 'message',
        role: 'assistant',
        model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: 10, output_tokens: 1 },
      },
    },
  ];
  blocks.forEach((block, index) => {
    switch (block.type) {
      case 'thinking':
        events.push(
          {
            type: 'content_block_start',
            index,
            content_block: { type: 'thinking', thinking: '', signature: '' },
          },
          {
            type: 'content_block_delta',
            index,
            delta: { type: 'thinking_delta', thinking: block.text },
          },
          {
            type: 'content_block_delta',
            index,
            delta: { type: 'signature_delta', signature: block.signature },
          },
        );
        break;
      case 'redacted_thinking':
        events.push({
          type: 'content_block_start',
          index,
          content_block: { type: 'redacted_thinking', data: block.data },
        });
        break;
      case 'text':
        events.push(
          { type: 'content_block_start', index, content_block: { type: 'text', text: '' } },
          { type: 'content_block_delta', index, delta: { type: 'text_delta', text: block.text } },
        );
        break;
      case 'tool_use':
        events.push(
          {
            type: 'content_block_start',
            index,
            content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} },
          },
          {
            type: 'content_block_delta',
            index,
            delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) },
          },
        );
        break;
    }
    events.push({ type: 'content_block_stop', index });
  });
  const stop = blocks.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn';
  events.push(
    {
      type: 'message_delta',
      delta: { stop_reason: stop, stop_sequence: null },
      usage: { output_tokens: 5 },
    },
    { type: 'message_stop' },
  );
  return events
    .map((e) => `event: ${(e as { type: string }).type}\ndata: ${JSON.stringify(e)}\n\n`)
    .join('');
}

function hash(text: string): number {
  let h = 0;
  for (let i = 0; i < text.length; i++) h = (h * 31 + text.charCodeAt(i)) | 0;
  return h;
}

/** A recording fetch: answers call n with `responses[n]` (SSE text) and keeps each request body. */
export interface RecordingFetch {
  readonly fetch: typeof fetch;
  /** The parsed JSON body of every request, in order. */
  readonly bodies: Array<Record<string, unknown>>;
  /** The raw body text of every request, in order. */
  readonly rawBodies: string[];
}

export function recordingFetch(responses: readonly string[]): RecordingFetch {
  const bodies: Array<Record<string, unknown>> = [];
  const rawBodies: string[] = [];
  const fetchImpl = async (_url: unknown, init?: RequestInit): Promise<Response> => {
    const raw = String(init?.body ?? '');
    rawBodies.push(raw);
    bodies.push(JSON.parse(raw) as Record<string, unknown>);
    const sse = responses[bodies.length - 1];
    if (sse === undefined) throw new Error(`no scripted response for call ${bodies.length}`);
    return new Response(sse, { status: 200, headers: { 'content-type': 'text/event-stream' } });
  };
  return { fetch: fetchImpl as typeof fetch, bodies, rawBodies };
}

/** An Anthropic model whose calls are answered by `recorder`. */
export function scriptedAnthropic(
  recorder: RecordingFetch,
  modelId = 'claude-test-1',
): LanguageModel {
  return createAnthropic({ apiKey: 'test-key', fetch: recorder.fetch })(modelId);
}

/** A content block of an Anthropic request (`messages[i].content[j]`). */
type Block = Record<string, unknown>;

/**
 * The request in Anthropic's cache order, cut into segments: a header (tools, system and every
 * other parameter except `messages`), then one segment per content block (tagged with its
 * message's index and role). The cached prefix up to a breakpoint is the concatenation of the
 * segments up to the block that carries it.
 */
export function cacheSegments(body: Record<string, unknown>): {
  header: string;
  blocks: string[];
  marked: number[];
  systemMarks: number;
  toolMarks: number;
} {
  const { messages, ...rest } = body as {
    messages: Array<{ role: string; content: Block[] | string }>;
  } & Record<string, unknown>;
  const header = JSON.stringify(rest);
  const blocks: string[] = [];
  const marked: number[] = [];
  messages.forEach((message, m) => {
    const content =
      typeof message.content === 'string'
        ? [{ type: 'text', text: message.content }]
        : message.content;
    for (const block of content) {
      if (block.cache_control !== undefined) marked.push(blocks.length);
      blocks.push(`${m}:${message.role}:${JSON.stringify(block)}`);
    }
  });
  const count = (v: unknown) =>
    Array.isArray(v) ? v.filter((b) => (b as Block)?.cache_control !== undefined).length : 0;
  return { header, blocks, marked, systemMarks: count(rest.system), toolMarks: count(rest.tools) };
}

/** The prefix of the request up to and including block `index`. */
export function prefixUpTo(segments: { header: string; blocks: string[] }, index: number): string {
  return `${segments.header}\n${segments.blocks.slice(0, index + 1).join('\n')}`;
}

/** The same text with every `cache_control` member removed. */
export function withoutCacheControl(text: string): string {
  return text.replace(/,?"cache_control":\{[^{}]*\}/g, '').replace(/\{,/g, '{');
}

/**
 * Collects the AI SDK's warnings (through its `AI_SDK_LOG_WARNINGS` hook) for each test of the
 * calling file: returns the array, emptied before each test; the hook is removed after it.
 */
export function captureSdkWarnings(): unknown[] {
  const warnings: unknown[] = [];
  const hook = globalThis as { AI_SDK_LOG_WARNINGS?: unknown };
  beforeEach(() => {
    warnings.length = 0;
    hook.AI_SDK_LOG_WARNINGS = (o: { warnings: unknown[] }) => warnings.push(...o.warnings);
  });
  afterEach(() => {
    hook.AI_SDK_LOG_WARNINGS = undefined;
  });
  return warnings;
}
