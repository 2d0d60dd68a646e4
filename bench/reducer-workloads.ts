// Workloads for bench/reducer.bench.ts: AI SDK stream parts, the equivalent UI message chunks,
// chunk events, and a stream that hands out one item per pull.
import { type TextStreamPart, type ToolSet, toUIMessageChunk, type UIMessageChunk } from 'ai';
import type { ChunkEvent } from '../src/schema/index.js';

type Part = TextStreamPart<ToolSet>;

const usage = {
  inputTokens: 10,
  inputTokenDetails: { noCacheTokens: 10, cacheReadTokens: 0, cacheWriteTokens: 0 },
  outputTokens: 10,
  outputTokenDetails: { textTokens: 10, reasoningTokens: 0 },
  totalTokens: 20,
};

/**
 * `parts` AI SDK stream parts in `blocks` blocks (alternating reasoning and text, each a start,
 * deltas and an end), inside one step.
 */
export function streamParts(parts: number, blocks: number): Part[] {
  const perBlock = parts / blocks;
  const out: Part[] = [{ type: 'start' }, { type: 'start-step', request: {}, warnings: [] }];
  for (let b = 0; b < blocks; b++) {
    const id = `b${b}`;
    const reasoning = b % 2 === 0;
    out.push(reasoning ? { type: 'reasoning-start', id } : { type: 'text-start', id });
    for (let d = 0; d < perBlock - 2; d++) {
      const text = `word${d} `;
      out.push(
        reasoning ? { type: 'reasoning-delta', id, text } : { type: 'text-delta', id, text },
      );
    }
    out.push(reasoning ? { type: 'reasoning-end', id } : { type: 'text-end', id });
  }
  out.push({
    type: 'finish-step',
    response: { id: 'r', timestamp: new Date(0), modelId: 'm' },
    usage,
    performance: {} as never,
    finishReason: 'stop',
    rawFinishReason: 'stop',
    providerMetadata: undefined,
  });
  out.push({ type: 'finish', finishReason: 'stop', rawFinishReason: 'stop', totalUsage: usage });
  return out;
}

/** The UI message chunks the AI SDK itself makes of `parts` (what `toUIMessageStream` sends). */
export function uiChunks(parts: readonly Part[]): UIMessageChunk[] {
  return parts.flatMap((part) => {
    const chunk = toUIMessageChunk(part, { sendReasoning: true });
    return chunk === undefined ? [] : [chunk];
  });
}

/** `deltas` chunk events in `chunks` blocks (a start, deltas, an end each), in one step. */
export function deltaEvents(deltas: number, chunks: number): ChunkEvent[] {
  const perChunk = deltas / chunks;
  const out: ChunkEvent[] = [
    { type: 'turn-start', turnId: 't' },
    { type: 'step-start', step: 0 },
  ];
  for (let c = 0; c < chunks; c++) {
    const id = `b${c}`;
    const reasoning = c % 2 === 0;
    out.push({ type: reasoning ? 'reasoning-start' : 'text-start', id });
    for (let d = 0; d < perChunk; d++) {
      out.push({ type: reasoning ? 'reasoning-delta' : 'text-delta', id, text: `word${d} ` });
    }
    out.push({ type: reasoning ? 'reasoning-end' : 'text-end', id });
  }
  out.push({ type: 'turn-end', finishReason: 'stop' });
  return out;
}

/**
 * A `ReadableStream` that enqueues exactly one item per `pull` (unlike `convertArrayToReadableStream`
 * from `ai/test`, which is quadratic on Node 20 and would swamp the figures).
 */
export function pullStream<T>(items: readonly T[]): ReadableStream<T> {
  let i = 0;
  return new ReadableStream<T>({
    pull(controller) {
      if (i < items.length) controller.enqueue(items[i++] as T);
      else controller.close();
    },
  });
}

/** A deliberately simple mutable fold of block events: an array of objects, `+=` on strings. */
export function naiveFold(
  events: readonly ChunkEvent[],
): Array<{ type: string; id: string; text: string }> {
  const chunks: Array<{ type: string; id: string; text: string }> = [];
  const open = new Map<string, { type: string; id: string; text: string }>();
  for (const event of events) {
    switch (event.type) {
      case 'text-start':
      case 'reasoning-start': {
        const chunk = {
          type: event.type === 'text-start' ? 'text' : 'thinking',
          id: event.id ?? '',
          text: '',
        };
        chunks.push(chunk);
        open.set(chunk.id, chunk);
        break;
      }
      case 'text-delta':
      case 'reasoning-delta': {
        const chunk = open.get(event.id ?? '');
        if (chunk) chunk.text += event.text;
        break;
      }
      case 'text-end':
      case 'reasoning-end':
        open.delete(event.id ?? '');
        break;
      default:
        break;
    }
  }
  return chunks;
}
