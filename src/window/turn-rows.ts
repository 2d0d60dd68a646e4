import { messageId } from '../schema/chat-message.js';
import type { Chunk } from '../schema/chunk.js';
import type { ChunkRowDraft } from '../schema/chunk-row.js';
import { explodeChunks } from '../transforms/explode-turn.js';
import { groupRows } from '../transforms/group-rows.js';
import { type LiveEntry, liveEntry } from './log-entry.js';

interface PlacedEntries {
  readonly offset: number;
  readonly entries: readonly LiveEntry[];
}

/**
 * The rows of one live turn, exploded chunk by chunk and cached by chunk identity: the reducer
 * shares unchanged chunks between states, so a delta re-explodes only the chunk it changed.
 * Entries are cached with the row offset their ids were made for. Caches are weak: a chunk the
 * reducer evicted takes its rows with it.
 */
export class TurnRows {
  /** The turn id the rows carry. */
  readonly turnId: string;
  private readonly rows = new WeakMap<Chunk, readonly ChunkRowDraft[]>();
  private readonly entries = new WeakMap<Chunk, PlacedEntries>();
  private readonly grouped = new WeakMap<Chunk, readonly Chunk[] | null>();
  /**
   * Tool call id → absolute indices of the batch chunks holding an entry of it, for the chunks
   * held: the call's own batch and any later batch with a deferred result of it.
   */
  readonly calls: Map<string, Set<number>> = new Map();

  /** The role of the turn's message: `system` for a system event outside a turn. */
  readonly role: 'assistant' | 'system';

  /**
   * @param turnId - the turn id the rows carry
   * @param role - the role of the turn's message (its `turn-start` says), `assistant` by default
   */
  constructor(turnId: string, role: 'assistant' | 'system' = 'assistant') {
    this.turnId = turnId;
    this.role = role;
  }

  /**
   * The rows of one chunk, as `explodeTurn` gives them.
   *
   * @param chunk - a chunk of the turn
   * @returns its rows
   */
  rowsOf(chunk: Chunk): readonly ChunkRowDraft[] {
    let rows = this.rows.get(chunk);
    if (rows === undefined) {
      rows = explodeChunks(this.turnId, [chunk], this.role);
      this.rows.set(chunk, rows);
    }
    return rows;
  }

  /**
   * How many rows a chunk explodes to (0 for no chunk).
   *
   * @param chunk - a chunk of the turn, or undefined
   * @returns its row count
   */
  countOf(chunk: Chunk | undefined): number {
    return chunk === undefined ? 0 : this.rowsOf(chunk).length;
  }

  /**
   * The log entries of one chunk whose first row is row `offset` of the turn.
   *
   * @param chunk - a chunk of the turn
   * @param offset - the position of its first row among all the turn's rows
   * @returns its entries, ids `${turnId}:${offset + i}`
   */
  entriesOf(chunk: Chunk, offset: number): readonly LiveEntry[] {
    const placed = this.entries.get(chunk);
    if (placed !== undefined && placed.offset === offset) return placed.entries;
    const entries = this.rowsOf(chunk).map((row, i) =>
      liveEntry(row, `${this.turnId}:${offset + i}`, false),
    );
    this.entries.set(chunk, { offset, entries });
    return entries;
  }

  /**
   * The chunks one chunk's rows group back to in the turn's assistant message
   * (`groupRowsToMessages(rowsOf(chunk))`), or null when they group into any other message.
   *
   * @param chunk - a chunk of the turn
   * @returns the grouped chunks, or null
   */
  groupedOf(chunk: Chunk): readonly Chunk[] | null {
    let grouped = this.grouped.get(chunk);
    if (grouped === undefined) {
      const messages = groupRows(this.rowsOf(chunk));
      const only = messages[0];
      grouped =
        messages.length === 0
          ? []
          : messages.length === 1 && only?.id === messageId(this.turnId, 'assistant')
            ? only.chunks
            : null;
      this.grouped.set(chunk, grouped);
    }
    return grouped;
  }

  /**
   * Records where a tool batch's calls are.
   *
   * @param chunk - a chunk of the turn
   * @param at - its absolute index in the turn
   */
  indexCalls(chunk: Chunk, at: number): void {
    if (chunk.type !== 'tool-batch') return;
    for (const call of chunk.calls) {
      const where = this.calls.get(call.id);
      if (where === undefined) this.calls.set(call.id, new Set([at]));
      else where.add(at);
    }
  }

  /**
   * Forgets the calls of an evicted tool batch.
   *
   * @param chunk - the evicted chunk
   * @param at - its absolute index in the turn
   */
  forgetCalls(chunk: Chunk, at: number): void {
    if (chunk.type !== 'tool-batch') return;
    for (const call of chunk.calls) {
      const where = this.calls.get(call.id);
      if (where === undefined) continue;
      where.delete(at);
      if (where.size === 0) this.calls.delete(call.id);
    }
  }
}
