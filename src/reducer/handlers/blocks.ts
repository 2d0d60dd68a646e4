import type { Chunk } from '../../schema/chunk.js';
import type { ProviderMetadata } from '../../schema/json.js';
import type { Citation } from '../../schema/source.js';
import {
  type BlockChunk,
  type BlockKind,
  extend,
  growAt,
  isEmpty,
  isEmptyBlock,
  newBlock,
  withCitations,
  withId,
} from '../block-chunks.js';
import { findOpen, NO_OPEN_BLOCKS, type OpenBlock, withoutOpen } from '../open-blocks.js';
import type { TurnStateImpl } from '../turn-state.js';

interface BlockPart {
  readonly id?: string | undefined;
  readonly providerMetadata?: ProviderMetadata | undefined;
}

/**
 * Whether `chunk` is a block of `kind` in the current step that a part with `id` may join: ids
 * conflict only when both are set and differ.
 */
function joinable(
  d: TurnStateImpl,
  chunk: Chunk | undefined,
  kind: BlockKind,
  id: string | undefined,
): chunk is BlockChunk {
  return (
    chunk !== undefined &&
    chunk.type === kind &&
    chunk.step === d.step &&
    (id === undefined || chunk.id === undefined || chunk.id === id)
  );
}

/** Closes an open block: forgets it and drops its chunk when it is empty and has no metadata. */
export function closeBlock(d: TurnStateImpl, block: OpenBlock): void {
  d.open = withoutOpen(d.open, block);
  const chunk = d.get(block.index);
  if (chunk !== undefined && isEmptyBlock(chunk)) d.remove(block.index);
}

/** `text-start` / `reasoning-start`: opens a new block (closing one still open with the same id). */
export function startBlock(d: TurnStateImpl, kind: BlockKind, part: BlockPart): void {
  const same = d.open.find((b) => b.kind === kind && b.id === part.id);
  if (same !== undefined) closeBlock(d, same);
  const index = d.append(newBlock(d, kind, part.id, '', part.providerMetadata));
  d.open = [...d.open, { kind, id: part.id, index }];
}

/** Whether the chunk at absolute index `at` is unclosed: an open block, or bare deltas not closed. */
function isUnclosed(d: TurnStateImpl, at: number): boolean {
  if (d.tailBare && d.isTail(at)) return true;
  return d.open.some((b) => b.kind !== 'tool' && b.index === at);
}

/**
 * `text-delta` / `reasoning-delta`: a delta with the id of an open block goes to that block,
 * wherever it is. Any other delta is bare: it appends to the last chunk when that is an unclosed
 * chunk of its kind in this step (with no conflicting id), and otherwise opens a chunk of bare
 * deltas.
 */
export function blockDelta(
  d: TurnStateImpl,
  kind: BlockKind,
  part: BlockPart & { readonly text: string },
): void {
  if (part.id !== undefined) {
    const block = findOpen(d.open, kind, part.id);
    if (block !== undefined) {
      growAt(d, block.index, part.text, part.providerMetadata, undefined);
      return;
    }
  }
  const lastAt = d.end() - 1;
  if (joinable(d, d.last(), kind, part.id) && isUnclosed(d, lastAt)) {
    growAt(d, lastAt, part.text, part.providerMetadata, part.id);
    return;
  }
  if (part.text === '' && part.providerMetadata === undefined) return;
  d.append(newBlock(d, kind, part.id, part.text, part.providerMetadata), true);
}

/**
 * `text-end` / `reasoning-end`: merges the end's metadata (and a text end's citations) into its
 * block and closes it. Its block is the open block with its id; for an end without one (or
 * whose id no open block has), the last chunk when that is an unclosed chunk of its kind, else
 * (no id) the latest open block of its kind. An end with no block to close keeps what it carries
 * as an empty block.
 */
export function endBlock(
  d: TurnStateImpl,
  kind: BlockKind,
  part: BlockPart & { readonly citations?: readonly Citation[] | undefined },
): void {
  let block = part.id === undefined ? undefined : findOpen(d.open, kind, part.id);
  if (block === undefined) {
    const lastAt = d.end() - 1;
    const last = d.last();
    if (joinable(d, last, kind, part.id)) {
      block = d.open.find((b) => b.kind === kind && b.index === lastAt);
      if (block === undefined && d.tailBare && d.isTail(lastAt)) {
        const next = withId(
          withCitations(extend(last, '', part.providerMetadata), part.citations),
          part.id,
        );
        if (next !== last) d.replace(lastAt, next, true);
        d.tailBare = false;
        return;
      }
    }
  }
  if (block === undefined && part.id === undefined) block = findOpen(d.open, kind, undefined);
  if (block !== undefined) {
    const chunk = d.get(block.index) as BlockChunk;
    const next = withCitations(extend(chunk, '', part.providerMetadata), part.citations);
    if (next !== chunk) d.replace(block.index, next);
    closeBlock(d, block);
    return;
  }
  const stray = withCitations(
    newBlock(d, kind, part.id, '', part.providerMetadata),
    part.citations,
  );
  if (!isEmpty(stray)) d.append(stray);
}

/** Closes every open block and bare chunk (a new step, the end of the turn). */
export function closeAll(d: TurnStateImpl): void {
  d.tailBare = false;
  if (d.open.length === 0) return;
  const empty: number[] = [];
  for (const block of d.open) {
    const chunk = d.get(block.index);
    if (block.kind !== 'tool' && chunk !== undefined && isEmptyBlock(chunk))
      empty.push(block.index);
  }
  d.open = NO_OPEN_BLOCKS;
  empty.sort((a, b) => b - a);
  for (const index of empty) d.remove(index);
}
