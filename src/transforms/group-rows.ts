import { type ChatMessage, type ChatRole, messageId } from '../schema/chat-message.js';
import { checkList } from '../schema/check-list.js';
import type { Chunk } from '../schema/chunk.js';
import type { ToolCallRowData, ToolResultRowData } from '../schema/chunk-row.js';
import {
  addCall,
  addDeferred,
  addPlaceholder,
  answer,
  type BatchBuilder,
  createBatch,
} from './batch-builder.js';
import { isExactRow } from './exact-row.js';
import { type GroupableRow, groupableRowMini } from './row-input.js';
import { chatRoleOf, toChunk } from './row-to-chunk.js';

/** A message being rebuilt: the final message object, and the batch its chunks end with. */
interface MessageBuilder {
  readonly message: {
    readonly id: string;
    readonly turnId: string;
    readonly role: ChatRole;
    readonly chunks: Chunk[];
  };
  /** The tool-batch that is the message's last chunk, when it is one. */
  openBatch: BatchBuilder | undefined;
}

/** What grouping knows of a turn: its messages by role, and its batches in order. */
interface TurnRecord {
  readonly turnId: string;
  user: MessageBuilder | undefined;
  assistant: MessageBuilder | undefined;
  system: MessageBuilder | undefined;
  readonly batches: BatchBuilder[];
}

function newBatch(
  turn: TurnRecord,
  builder: MessageBuilder,
  step: number,
  deferred = false,
): BatchBuilder {
  const batch = createBatch(step, deferred);
  builder.message.chunks.push(batch.chunk);
  builder.openBatch = batch;
  turn.batches.push(batch);
  return batch;
}

/** Builds messages from rows; one instance per call of {@link groupRowsToMessages}. */
class Grouper {
  private readonly builders: MessageBuilder[] = [];
  private readonly turns = new Map<string, TurnRecord>();
  // Rows of one turn come together, so the previous row's turn is usually this row's.
  private lastTurn: TurnRecord | undefined;

  add(row: GroupableRow): void {
    const turn = this.turn(row.turnId);
    switch (row.type) {
      case 'tool_call':
        this.addCall(turn, row.step, this.builder(turn, chatRoleOf(row)), row.data);
        return;
      case 'tool_result':
        if (row.data.deferred === true) this.addDeferredResult(turn, row.step, row.data);
        else this.addResult(turn, row.step, row.data);
        return;
      default: {
        const builder = this.builder(turn, chatRoleOf(row));
        builder.message.chunks.push(toChunk(row));
        builder.openBatch = undefined;
      }
    }
  }

  finish(): ChatMessage[] {
    return this.builders.map((b) => b.message);
  }

  private turn(turnId: string): TurnRecord {
    const last = this.lastTurn;
    if (last !== undefined && last.turnId === turnId) return last;
    let turn = this.turns.get(turnId);
    if (turn === undefined) {
      turn = { turnId, user: undefined, assistant: undefined, system: undefined, batches: [] };
      this.turns.set(turnId, turn);
    }
    this.lastTurn = turn;
    return turn;
  }

  /** The turn's message of `role`, created (a system one coalesced into a trailing system message). */
  private builder(turn: TurnRecord, role: ChatRole): MessageBuilder {
    const known = turn[role];
    if (known !== undefined) return known;
    const last = this.builders[this.builders.length - 1];
    if (role === 'system' && last !== undefined && last.message.role === 'system') {
      turn.system = last;
      return last;
    }
    const created: MessageBuilder = {
      message: { id: messageId(turn.turnId, role), turnId: turn.turnId, role, chunks: [] },
      openBatch: undefined,
    };
    this.builders.push(created);
    turn[role] = created;
    return created;
  }

  private addCall(
    turn: TurnRecord,
    step: number,
    builder: MessageBuilder,
    data: ToolCallRowData,
  ): void {
    const open = builder.openBatch;
    const batch =
      open !== undefined &&
      open.chunk.step === step &&
      data.index > 0 &&
      data.index === open.lastIndex + 1
        ? open
        : newBatch(turn, builder, step);
    addCall(batch, data);
  }

  /** A result joins the newest batch of its turn with an unanswered call of that id. */
  private addResult(turn: TurnRecord, step: number, data: ToolResultRowData): void {
    const { batches } = turn;
    for (let b = batches.length - 1; b >= 0; b--) {
      if (answer(batches[b] as BatchBuilder, data)) return;
    }
    this.addOrphanResult(turn, step, data);
  }

  /** A result whose call row is not here (an older page): a placeholder entry marked `orphan`. */
  private addOrphanResult(turn: TurnRecord, step: number, data: ToolResultRowData): void {
    const builder = this.builder(turn, 'assistant');
    const open = builder.openBatch;
    const batch =
      open !== undefined && open.chunk.step === step && !open.deferred
        ? open
        : newBatch(turn, builder, step);
    addPlaceholder(batch, data);
  }

  /**
   * A deferred result stays where it arrived: in the batch of deferred results the assistant
   * message ends with (same step), or a new one. It is never merged into its call.
   */
  private addDeferredResult(turn: TurnRecord, step: number, data: ToolResultRowData): void {
    const builder = this.builder(turn, 'assistant');
    const open = builder.openBatch;
    const batch =
      open !== undefined && open.chunk.step === step && open.deferred
        ? open
        : newBatch(turn, builder, step, true);
    addDeferred(batch, data);
  }
}

/**
 * Groups rows back into chat messages: the inverse of {@link explodeTurn}. Rows are taken in the
 * given order (sort pages with {@link mergeRowsBySeq} first); a row whose `seq` was already seen
 * is dropped, rows without a `seq` (drafts, live entries) are all kept.
 *
 * - One message per turn and role, in order of first appearance, with the stable id
 *   `${turnId}:${role}`. Consecutive system-only turns coalesce into one system message that
 *   keeps the first turn's id.
 * - `tool_call` rows rebuild their tool-batch (`data.index` 0 starts a new batch); a
 *   `tool_result` row joins its call in the same turn, wherever that call is; a result whose call
 *   row is absent (on an older page) becomes a placeholder entry with `orphan: true` in the
 *   assistant message, replaced by the real call once the older page is merged in.
 * - A `steering` row (role `user`) joins the assistant message in place.
 *
 * `rows` are validated first (a page may come from outside: an HTTP response, a file), so a
 * malformed row is reported by position; on schema-valid rows it never throws. See
 * `docs/rows.md`.
 *
 * @param rows - rows of one thread: stored rows, drafts or live entries
 * @returns the messages, oldest first
 * @throws {ChunklogError} `invalid-row` when `rows` is not an array of valid rows (`path` starts
 *   with the index)
 *
 * @example
 * ```ts
 * const page = await store.getChunks(threadId, { limit: 50 });
 * const messages = groupRowsToMessages(page.chunks);
 * // messages[i].id is `${turnId}:${role}`: a stable React/Svelte key
 * ```
 */
export function groupRowsToMessages(rows: readonly GroupableRow[]): ChatMessage[] {
  // Rows checked by hand as valid are grouped as they are; zod checks the others (and words the
  // error), without its intersection merging on every row of a valid page.
  if (Array.isArray(rows) && rows.every(isExactRow)) return groupRows(rows);
  return groupRows(
    checkList<GroupableRow>(rows, {
      schema: groupableRowMini,
      code: 'invalid-row',
      where: 'groupRowsToMessages',
      argument: 'rows',
      what: 'row',
    }),
  );
}

/** The numeric seqs of `rows` before index `end`. */
function seqsBefore(rows: readonly GroupableRow[], end: number): Set<number> {
  const seqs = new Set<number>();
  for (let i = 0; i < end; i++) {
    const seq = (rows[i] as GroupableRow).seq;
    if (typeof seq === 'number') seqs.add(seq);
  }
  return seqs;
}

/**
 * {@link groupRowsToMessages} without its checks, for rows chunklog validated or made itself (the
 * store's decoded rows, the window's log) on paths where a check per call would cost.
 */
export function groupRows(rows: readonly GroupableRow[]): ChatMessage[] {
  const grouper = new Grouper();
  // Rows usually come in ascending seq: then a seq above every one seen is new. Only when one
  // comes out of order is a set of the seqs seen so far built (from the rows before it) and
  // consulted from then on.
  let highest = -Infinity;
  let seen: Set<number> | undefined;
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i] as GroupableRow;
    const seq = row.seq;
    if (typeof seq === 'number') {
      if (seen === undefined && seq > highest) {
        highest = seq;
      } else {
        seen ??= seqsBefore(rows, i);
        if (seen.has(seq)) continue;
        seen.add(seq);
      }
    }
    grouper.add(row);
  }
  return grouper.finish();
}
