// Scripted LanguageModelV4 streams for MockLanguageModelV4, shaped like what @ai-sdk/anthropic
// emits (a custom message_start part, signatures on an empty reasoning delta, redacted thinking as
// metadata on reasoning-start).
import type { LanguageModelV4StreamPart } from '@ai-sdk/provider';

/** One piece of scripted model output. */
export type Scripted =
  | { readonly type: 'thinking'; readonly text: string; readonly signature: string }
  | { readonly type: 'redacted'; readonly data: string }
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'call'; readonly id: string; readonly name: string; readonly input: unknown };

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 5, text: 5, reasoning: 0 },
};

/** The stream parts of one model call producing `script`. */
export function streamParts(
  script: readonly Scripted[],
  messageId: string,
): LanguageModelV4StreamPart[] {
  const parts: LanguageModelV4StreamPart[] = [
    { type: 'stream-start', warnings: [] },
    { type: 'response-metadata', id: messageId, modelId: 'mock-model' },
    {
      type: 'custom',
      kind: 'anthropic.message_start',
      providerMetadata: { anthropic: { id: messageId } },
    },
  ];
  script.forEach((piece, i) => {
    const id = `${messageId}-${i}`;
    switch (piece.type) {
      case 'thinking':
        parts.push(
          { type: 'reasoning-start', id },
          { type: 'reasoning-delta', id, delta: piece.text },
          {
            type: 'reasoning-delta',
            id,
            delta: '',
            providerMetadata: { anthropic: { signature: piece.signature } },
          },
          { type: 'reasoning-end', id },
        );
        break;
      case 'redacted':
        parts.push(
          {
            type: 'reasoning-start',
            id,
            providerMetadata: { anthropic: { redactedData: piece.data } },
          },
          { type: 'reasoning-end', id },
        );
        break;
      case 'text':
        parts.push(
          { type: 'text-start', id },
          { type: 'text-delta', id, delta: piece.text },
          { type: 'text-end', id },
        );
        break;
      case 'call':
        parts.push(
          { type: 'tool-input-start', id: piece.id, toolName: piece.name },
          { type: 'tool-input-delta', id: piece.id, delta: JSON.stringify(piece.input) },
          { type: 'tool-input-end', id: piece.id },
          {
            type: 'tool-call',
            toolCallId: piece.id,
            toolName: piece.name,
            input: JSON.stringify(piece.input),
          },
        );
        break;
    }
  });
  const calls = script.some((p) => p.type === 'call');
  parts.push({
    type: 'finish',
    finishReason: calls
      ? { unified: 'tool-calls', raw: 'tool_use' }
      : { unified: 'stop', raw: 'end_turn' },
    usage,
  });
  return parts;
}

/** A ReadableStream of the parts. */
export function partStream(
  parts: readonly LanguageModelV4StreamPart[],
): ReadableStream<LanguageModelV4StreamPart> {
  return new ReadableStream({
    start(controller) {
      for (const part of parts) controller.enqueue(part);
      controller.close();
    },
  });
}
