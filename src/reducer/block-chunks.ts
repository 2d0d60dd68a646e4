// Text and thinking chunks: how a block chunk is made and grown.
import type { Chunk, TextChunk, ThinkingChunk } from '../schema/chunk.js';
import type { ProviderMetadata } from '../schema/json.js';
import type { Citation } from '../schema/source.js';
import { mergeProviderMetadata } from './metadata.js';
import type { TurnStateImpl } from './turn-state.js';

/** A text or thinking chunk: the two kinds of provider block with start, deltas and end. */
export type BlockChunk = TextChunk | ThinkingChunk;
/** The chunk type of a block. */
export type BlockKind = BlockChunk['type'];

/** A new text or thinking chunk in the current step (thinking gets the step's model). */
export function newBlock(
  d: TurnStateImpl,
  kind: BlockKind,
  id: string | undefined,
  text: string,
  providerMetadata: ProviderMetadata | undefined,
): BlockChunk {
  // One object literal per shape rather than conditional spreads: a few stable hidden classes,
  // and no spread helper call per chunk.
  const step = d.step;
  if (kind === 'text') {
    if (id === undefined) {
      return providerMetadata === undefined
        ? { type: 'text', step, text }
        : { type: 'text', step, text, providerMetadata };
    }
    return providerMetadata === undefined
      ? { type: 'text', step, text, id }
      : { type: 'text', step, text, id, providerMetadata };
  }
  const thinking: ThinkingChunk =
    id === undefined
      ? providerMetadata === undefined
        ? { type: 'thinking', step, text }
        : { type: 'thinking', step, text, providerMetadata }
      : providerMetadata === undefined
        ? { type: 'thinking', step, text, id }
        : { type: 'thinking', step, text, id, providerMetadata };
  return d.stepModelId === undefined ? thinking : { ...thinking, modelId: d.stepModelId };
}

/** The block with `text` appended and `metadata` merged in. */
export function extend(
  chunk: BlockChunk,
  text: string,
  metadata: ProviderMetadata | undefined,
): BlockChunk {
  const providerMetadata = mergeProviderMetadata(chunk.providerMetadata, metadata);
  if (text === '' && providerMetadata === chunk.providerMetadata) return chunk;
  return providerMetadata === undefined
    ? { ...chunk, text: chunk.text + text }
    : { ...chunk, text: chunk.text + text, providerMetadata };
}

/**
 * Grows the tail block by a delta: in place when the draft owns the tail (a fold of many deltas
 * allocates nothing per delta), otherwise as a new object. A chunk of bare deltas takes the
 * first block id it is given (`id`).
 */
export function growTail(
  d: TurnStateImpl,
  text: string,
  metadata: ProviderMetadata | undefined,
  id: string | undefined,
): void {
  const chunk = d.tail as BlockChunk;
  if (d.tailOwned) {
    const mutable = chunk as { -readonly [K in keyof TextChunk]: TextChunk[K] };
    if (text !== '') mutable.text = chunk.text + text;
    if (metadata !== undefined) {
      const providerMetadata = mergeProviderMetadata(chunk.providerMetadata, metadata);
      if (providerMetadata !== chunk.providerMetadata) mutable.providerMetadata = providerMetadata;
    }
    if (id !== undefined && chunk.id === undefined) mutable.id = id;
    return;
  }
  const next = withId(extend(chunk, text, metadata), id);
  if (next !== chunk) {
    d.tail = next;
    d.tailOwned = true;
  }
}

/** A chunk of bare deltas takes the first block id it is given. */
export function withId(chunk: BlockChunk, id: string | undefined): BlockChunk {
  return id === undefined || chunk.id !== undefined ? chunk : { ...chunk, id };
}

/** The text chunk with `citations` added (a thinking chunk has none). */
export function withCitations(
  chunk: BlockChunk,
  citations: readonly Citation[] | undefined,
): BlockChunk {
  if (citations === undefined || citations.length === 0 || chunk.type !== 'text') return chunk;
  return { ...chunk, citations: chunk.citations ? [...chunk.citations, ...citations] : citations };
}

/** Whether a block holds nothing: no text, no metadata, no citations. */
export function isEmpty(chunk: BlockChunk): boolean {
  return (
    chunk.text === '' &&
    chunk.providerMetadata === undefined &&
    (chunk.type !== 'text' || chunk.citations === undefined)
  );
}

/** Whether `chunk` is an empty text or thinking block. */
export function isEmptyBlock(chunk: Chunk): boolean {
  return (chunk.type === 'text' || chunk.type === 'thinking') && isEmpty(chunk);
}

/** Appends a delta to the block chunk at absolute index `at` (see {@link growTail}). */
export function growAt(
  d: TurnStateImpl,
  at: number,
  text: string,
  metadata: ProviderMetadata | undefined,
  id: string | undefined,
): void {
  if (d.isTail(at)) {
    growTail(d, text, metadata, id);
    return;
  }
  const chunk = d.get(at) as BlockChunk;
  const next = withId(extend(chunk, text, metadata), id);
  if (next !== chunk) d.replace(at, next, true);
}
