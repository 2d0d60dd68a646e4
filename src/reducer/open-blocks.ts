/** What kind of chunk an open block is. */
export type OpenKind = 'text' | 'thinking' | 'tool';

/**
 * A block that is open: a started, not yet ended text or thinking block (`id` is the block's id),
 * or a tool call whose input is still streaming (`id` is the call id). `index` is the absolute
 * index of its chunk in the turn.
 */
export interface OpenBlock {
  readonly kind: OpenKind;
  readonly id: string | undefined;
  readonly index: number;
}

/** The empty registry, shared. */
export const NO_OPEN_BLOCKS: readonly OpenBlock[] = Object.freeze([]);

/**
 * The latest open block of `kind` that a part with block id `id` belongs to: the one with the
 * same id, or, for a part without an id, the latest of that kind.
 */
export function findOpen(
  open: readonly OpenBlock[],
  kind: OpenKind,
  id: string | undefined,
): OpenBlock | undefined {
  for (let i = open.length - 1; i >= 0; i--) {
    const block = open[i] as OpenBlock;
    if (block.kind === kind && (id === undefined || block.id === id)) return block;
  }
  return undefined;
}

/** The registry without `block`. */
export function withoutOpen(open: readonly OpenBlock[], block: OpenBlock): readonly OpenBlock[] {
  if (open.length === 1 && open[0] === block) return NO_OPEN_BLOCKS;
  return open.filter((b) => b !== block);
}

/** The registry after the chunk at absolute index `removed` was taken out of the turn. */
export function shiftOpen(open: readonly OpenBlock[], removed: number): readonly OpenBlock[] {
  if (!open.some((b) => b.index > removed)) return open;
  return open.map((b) => (b.index > removed ? { ...b, index: b.index - 1 } : b));
}

/** The smallest chunk index of the registry, or undefined when it is empty. */
export function firstOpenIndex(open: readonly OpenBlock[]): number | undefined {
  let first: number | undefined;
  for (const block of open) if (first === undefined || block.index < first) first = block.index;
  return first;
}
