import { type ChatMessage, type ChatRole, messageId } from '../schema/chat-message.js';
import type { Chunk, ToolCallEntry } from '../schema/chunk.js';
import type { ToolCallRowData, ToolResultRowData } from '../schema/chunk-row.js';
import type { GroupableRow } from './row-input.js';

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** A tool-batch being rebuilt; turned into a `tool-batch` chunk at the end. */
interface BatchBuilder {
  readonly kind: 'batch';
  readonly step: number;
  readonly calls: Mutable<ToolCallEntry>[];
  /** `data.index` of the last call row that joined, -1 when only orphan results did. */
  lastIndex: number;
  /** Per call in `calls`: whether a result row has been merged into it (or it is a placeholder). */
  readonly answered: boolean[];
}

interface MessageBuilder {
  readonly id: string;
  readonly turnId: string;
  readonly role: ChatRole;
  readonly items: Array<Chunk | BatchBuilder>;
}

interface CallLocation {
  readonly batch: BatchBuilder;
  readonly message: MessageBuilder;
}

interface TurnIndex {
  /** Batches holding a call of a given id, in the order they were opened. */
  readonly calls: Map<string, CallLocation[]>;
}

function isBatch(item: Chunk | BatchBuilder | undefined): item is BatchBuilder {
  return item !== undefined && (item as BatchBuilder).kind === 'batch';
}

function callEntry(data: ToolCallRowData): Mutable<ToolCallEntry> {
  const { index: _index, ...entry } = data;
  return { ...entry };
}

function mergeResult(entry: Mutable<ToolCallEntry>, data: ToolResultRowData): void {
  if (data.result !== undefined) entry.result = data.result;
  if (data.isError !== undefined) entry.isError = data.isError;
  if (data.denied !== undefined) entry.denied = data.denied;
  if (data.progress !== undefined) entry.progress = data.progress;
  if (data.preliminary !== undefined) entry.preliminary = data.preliminary;
}

function finishItems(items: ReadonlyArray<Chunk | BatchBuilder>): Chunk[] {
  const chunks: Chunk[] = new Array(items.length);
  for (let i = 0; i < items.length; i++) {
    const item = items[i] as Chunk | BatchBuilder;
    chunks[i] = isBatch(item) ? { type: 'tool-batch', step: item.step, calls: item.calls } : item;
  }
  return chunks;
}

/** Builds messages from rows; one instance per call of {@link groupRowsToMessages}. */
class Grouper {
  private readonly messages: MessageBuilder[] = [];
  private readonly byKey = new Map<string, MessageBuilder>();
  private readonly turns = new Map<string, TurnIndex>();

  add(row: GroupableRow): void {
    switch (row.type) {
      case 'tool_call':
        this.addCall(row.turnId, row.step, this.message(row.turnId, chatRoleOf(row)), row.data);
        return;
      case 'tool_result':
        this.addResult(row.turnId, row.step, row.data);
        return;
      default:
        this.message(row.turnId, chatRoleOf(row)).items.push(toChunk(row));
    }
  }

  finish(): ChatMessage[] {
    return this.messages.map((m) => ({
      id: m.id,
      turnId: m.turnId,
      role: m.role,
      chunks: finishItems(m.items),
    }));
  }

  /** The message of `turnId` and `role`, created (or coalesced into a trailing system message). */
  private message(turnId: string, role: ChatRole): MessageBuilder {
    const key = messageId(turnId, role);
    const known = this.byKey.get(key);
    if (known !== undefined) return known;
    const last = this.messages[this.messages.length - 1];
    if (role === 'system' && last !== undefined && last.role === 'system') {
      this.byKey.set(key, last);
      return last;
    }
    const created: MessageBuilder = { id: key, turnId, role, items: [] };
    this.messages.push(created);
    this.byKey.set(key, created);
    return created;
  }

  private turn(turnId: string): TurnIndex {
    let index = this.turns.get(turnId);
    if (index === undefined) {
      index = { calls: new Map() };
      this.turns.set(turnId, index);
    }
    return index;
  }

  private addCall(
    turnId: string,
    step: number,
    message: MessageBuilder,
    data: ToolCallRowData,
  ): void {
    const last = message.items[message.items.length - 1];
    let batch: BatchBuilder;
    if (
      isBatch(last) &&
      last.step === step &&
      data.index > 0 &&
      data.index === last.lastIndex + 1
    ) {
      batch = last;
    } else {
      batch = { kind: 'batch', step, calls: [], lastIndex: -1, answered: [] };
      message.items.push(batch);
    }
    batch.calls.push(callEntry(data));
    batch.answered.push(false);
    batch.lastIndex = data.index;
    const calls = this.turn(turnId).calls;
    const at = calls.get(data.id);
    const location: CallLocation = { batch, message };
    if (at === undefined) calls.set(data.id, [location]);
    else if (at[at.length - 1]?.batch !== batch) at.push(location);
  }

  private addResult(turnId: string, step: number, data: ToolResultRowData): void {
    const locations = this.turn(turnId).calls.get(data.callId);
    // The newest batch holding the call first; in it, the first call of that id not yet answered.
    if (locations !== undefined) {
      for (let l = locations.length - 1; l >= 0; l--) {
        const { batch } = locations[l] as CallLocation;
        for (let i = 0; i < batch.calls.length; i++) {
          const entry = batch.calls[i] as Mutable<ToolCallEntry>;
          if (entry.id === data.callId && batch.answered[i] === false) {
            batch.answered[i] = true;
            mergeResult(entry, data);
            return;
          }
        }
      }
    }
    this.addOrphanResult(turnId, step, data);
  }

  /** A result whose call row is not here (an older page): a placeholder entry marked `orphan`. */
  private addOrphanResult(turnId: string, step: number, data: ToolResultRowData): void {
    const message = this.message(turnId, 'assistant');
    const last = message.items[message.items.length - 1];
    let batch: BatchBuilder;
    if (isBatch(last) && last.step === step) {
      batch = last;
    } else {
      batch = { kind: 'batch', step, calls: [], lastIndex: -1, answered: [] };
      message.items.push(batch);
    }
    const entry: Mutable<ToolCallEntry> = { id: data.callId, name: data.name, orphan: true };
    mergeResult(entry, data);
    batch.calls.push(entry);
    batch.answered.push(true);
  }
}

/** Which message a non-result row joins: steering and tool rows join the assistant message. */
function chatRoleOf(row: GroupableRow): ChatRole {
  switch (row.role) {
    case 'user':
      return row.type === 'steering' ? 'assistant' : 'user';
    case 'system':
      return 'system';
    default:
      return 'assistant';
  }
}

function toChunk(row: Exclude<GroupableRow, { type: 'tool_call' | 'tool_result' }>): Chunk {
  const step = row.step;
  switch (row.type) {
    case 'text':
      return { type: 'text', step, ...row.data };
    case 'thinking':
      return { type: 'thinking', step, ...row.data };
    case 'error':
      return { type: 'error', step, ...row.data };
    case 'system':
      return { type: 'system', step, ...row.data };
    case 'source':
      return { type: 'source', step, ...row.data };
    case 'file':
      return { type: 'file', step, ...row.data };
    case 'custom':
      return { type: 'custom', step, ...row.data };
    case 'steering':
      return { type: 'steering', step, ...row.data };
    default: {
      const never: never = row;
      return never;
    }
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
 * Never throws on schema-valid rows; see `docs/rows.md`.
 *
 * @param rows - rows of one thread: stored rows, drafts or live entries
 * @returns the messages, oldest first
 *
 * @example
 * ```ts
 * const page = await store.getChunks(threadId, { limit: 50 });
 * const messages = groupRowsToMessages(page.chunks);
 * // messages[i].id is `${turnId}:${role}`: a stable React/Svelte key
 * ```
 */
export function groupRowsToMessages(rows: readonly GroupableRow[]): ChatMessage[] {
  const grouper = new Grouper();
  const seen = new Set<number>();
  for (const row of rows) {
    const seq = row.seq;
    if (typeof seq === 'number') {
      if (seen.has(seq)) continue;
      seen.add(seq);
    }
    grouper.add(row);
  }
  return grouper.finish();
}
