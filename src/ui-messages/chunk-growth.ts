import type { Chunk, TextChunk, ThinkingChunk } from '../schema/index.js';

type Block = TextChunk | ThinkingChunk;

/** An empty text or thinking block (no metadata, no citations): the reducer drops it when it closes. */
export function droppable(chunk: Chunk): boolean {
  return (
    (chunk.type === 'text' || chunk.type === 'thinking') &&
    chunk.text === '' &&
    chunk.providerMetadata === undefined &&
    (chunk.type !== 'text' || chunk.citations === undefined)
  );
}

/** Whether `next` is `previous` grown (the reducer replaces a chunk it extends). */
export function grownFrom(previous: Chunk, next: Chunk): boolean {
  if (previous.type !== next.type) return false;
  switch (next.type) {
    case 'text':
    case 'thinking': {
      const before = previous as Block;
      // Equal lengths: the same text, which is most often the same string (no need to scan it).
      return (
        before.id === next.id &&
        (next.text.length === before.text.length
          ? next.text === before.text
          : next.text.startsWith(before.text))
      );
    }
    case 'tool-batch': {
      const before = previous as typeof next;
      return before.calls.every((call, i) => next.calls[i]?.id === call.id);
    }
    default:
      return JSON.stringify(previous) === JSON.stringify(next);
  }
}
