import { type ChatMessage, type ChatRole, messageId } from '../schema/chat-message.js';
import type { Chunk, ToolBatchChunk, ToolCallEntry } from '../schema/chunk.js';
import type { ToolCallRowData, ToolResultRowData } from '../schema/chunk-row.js';
import type { GroupableRow } from './row-input.js';
import { chatRoleOf, toChunk } from './row-to-chunk.js';

type Mutable<T> = { -readonly [K in keyof T]: T[K] };
type MessageBody = Mutable<ChatMessage> & { chunks: Chunk[] };
type BatchBody = ToolBatchChunk & { calls: ToolCallEntry[] };

/** A tool-batch being rebuilt: where its chunk is, and what pairing results needs of it. */
export interface FoldBatchState {
  /** The message and chunk index of the batch. */
  readonly m: number;
  readonly c: number;
  /** `data.index` of the last call row that joined, -1 when only orphan results did. */
  last: number;
  /** Per call: whether a result row has been merged into it (or it is a placeholder). */
  answered: boolean[];
  /** Whether the batch holds deferred results (kept where they arrived) rather than calls. */
  readonly deferred: boolean;
}

/** What grouping knows of a turn: its message of each role, and its batches in order. */
export interface FoldTurnState {
  user?: number;
  assistant?: number;
  system?: number;
  /** Indices into {@link MessageFoldState.batches}. */
  readonly batches: number[];
}

/** The stored row a fold ended with: a reader checks the store still holds it. */
export interface FoldedRowMark {
  readonly seq: number;
  readonly turnId: string;
  readonly createdAt: string;
}

/**
 * Grouping a thread's rows into messages, as a value: the messages so far and what pairing later
 * rows needs (each turn's messages and tool batches). It is plain JSON, so a history snapshot is
 * this state at a seq, and a reader folds the rows after that seq into it (see
 * {@link MessageFold}).
 */
export interface MessageFoldState {
  /** The state's format; another is not read. */
  readonly format: 1;
  readonly messages: readonly ChatMessage[];
  readonly turns: Readonly<Record<string, Readonly<FoldTurnState>>>;
  readonly batches: ReadonlyArray<Readonly<FoldBatchState>>;
  /** Per message: the batch its chunks end with (its index in `batches`), or -1. */
  readonly open: readonly number[];
  /** The highest seq folded, 0 for none. */
  readonly seq: number;
  /** The last stored row folded (with a seq and a creation time), if any. */
  readonly last: FoldedRowMark | null;
}

/** The version of {@link MessageFoldState} this module writes and reads. */
export const MESSAGE_FOLD_FORMAT = 1;

/**
 * Groups rows into chat messages incrementally: {@link MessageFold.add} takes rows one by one (a
 * thread's rows in seq order, or a page's), {@link MessageFold.messages} gives the messages so far,
 * and {@link MessageFold.state} the whole fold as JSON, from which {@link MessageFold.from} goes
 * on. Folding rows in any number of steps gives what grouping them at once gives.
 *
 * Messages are never changed once handed out: a row that changes a message (a result that joins
 * its call, a chunk appended) replaces it in the next {@link MessageFold.messages}, so an array
 * kept by a caller (and anything cached by message) stays valid.
 *
 * @example
 * ```ts
 * const fold = new MessageFold();
 * for (const row of await store.getRows(threadId)) fold.add(row);
 * const saved = JSON.stringify(fold.state()); // later: MessageFold.from(JSON.parse(saved))
 * const messages = fold.messages();
 * ```
 */
export class MessageFold {
  readonly #messages: MessageBody[];
  readonly #turns: Map<string, FoldTurnState>;
  readonly #batches: FoldBatchState[];
  readonly #open: number[];
  /**
   * What this fold may change in place: a message or batch whose entry here is the current
   * generation was made (or copied) since the last hand-out; a batch's calls from
   * `#sharedCalls[b]` on were added since then too.
   */
  #generation = 1;
  readonly #messageGeneration: number[] = [];
  readonly #batchGeneration: number[] = [];
  readonly #sharedCalls: number[] = [];
  #seq: number;
  #last: FoldedRowMark | null;
  /** The last stored row folded since the mark was last made (its mark is made when asked for). */
  #lastRow: GroupableRow | undefined;
  /** Rows of one turn come together: the previous row's turn is usually this row's. */
  #lastTurnId: string | undefined;
  #lastTurn: FoldTurnState | undefined;

  /** An empty fold. */
  constructor() {
    this.#messages = [];
    this.#turns = new Map();
    this.#batches = [];
    this.#open = [];
    this.#seq = 0;
    this.#last = null;
  }

  /**
   * Goes on from a state (a history snapshot, or {@link MessageFold.state} of another fold). The
   * state is not changed.
   *
   * @param state - the state, as {@link MessageFold.state} gave it (or parsed from its JSON)
   * @returns the fold
   *
   * @example
   * ```ts
   * const fold = MessageFold.from(JSON.parse(saved) as MessageFoldState);
   * ```
   */
  static from(state: MessageFoldState): MessageFold {
    const fold = new MessageFold();
    for (const message of state.messages) fold.#messages.push(message as MessageBody);
    for (const [turnId, turn] of Object.entries(state.turns)) {
      fold.#turns.set(turnId, { ...turn, batches: [...turn.batches] });
    }
    for (const batch of state.batches) fold.#batches.push(batch as FoldBatchState);
    for (const open of state.open) fold.#open.push(open);
    fold.#seq = state.seq;
    fold.#last = state.last;
    return fold;
  }

  /** The highest seq folded, 0 for none. */
  get seq(): number {
    return this.#seq;
  }

  /** The last stored row folded, if any. */
  get last(): FoldedRowMark | null {
    const row = this.#lastRow;
    if (row !== undefined) {
      this.#lastRow = undefined;
      this.#last = {
        seq: row.seq as number,
        turnId: row.turnId,
        createdAt: (row as unknown as { readonly createdAt: string }).createdAt,
      };
    }
    return this.#last;
  }

  /** How many messages the fold holds. */
  get size(): number {
    return this.#messages.length;
  }

  /**
   * The messages so far, oldest first: a new array; its messages never change afterwards.
   *
   * @returns the messages
   *
   * @example
   * ```ts
   * const messages = fold.messages();
   * ```
   */
  messages(): ChatMessage[] {
    this.#handOut();
    return this.#messages.slice();
  }

  /**
   * The fold as plain JSON (a history snapshot's content).
   *
   * @returns the state
   *
   * @example
   * ```ts
   * const json = JSON.stringify(fold.state());
   * ```
   */
  state(): MessageFoldState {
    this.#handOut();
    const turns: Record<string, FoldTurnState> = {};
    for (const [turnId, turn] of this.#turns)
      turns[turnId] = { ...turn, batches: [...turn.batches] };
    return {
      format: MESSAGE_FOLD_FORMAT,
      messages: this.#messages.slice(),
      turns,
      batches: this.#batches.map((b) => ({ ...b, answered: [...b.answered] })),
      open: this.#open.slice(),
      seq: this.#seq,
      last: this.last,
    };
  }

  /** Everything made so far is shared from now on: a later change copies it first. */
  #handOut(): void {
    this.#generation++;
  }

  /**
   * Folds one row in. Rows are taken in the order given; a stored row (with a numeric seq and a
   * creation time) becomes the fold's {@link MessageFold.last}.
   *
   * @param row - a stored row, a draft or a live entry
   *
   * @example
   * ```ts
   * for (const row of newer) fold.add(row);
   * ```
   */
  add(row: GroupableRow): void {
    const turn = this.#turn(row.turnId);
    switch (row.type) {
      case 'tool_call':
        this.#addCall(turn, row.step, this.#message(turn, row.turnId, chatRoleOf(row)), row.data);
        break;
      case 'tool_result':
        if (row.data.deferred === true) this.#addDeferred(turn, row.turnId, row.step, row.data);
        else this.#addResult(turn, row.turnId, row.step, row.data);
        break;
      default: {
        const m = this.#message(turn, row.turnId, chatRoleOf(row));
        this.#own(m).chunks.push(toChunk(row));
        this.#open[m] = -1;
      }
    }
    const seq = row.seq;
    if (typeof seq === 'number') {
      if (seq > this.#seq) this.#seq = seq;
      if (typeof (row as { readonly createdAt?: unknown }).createdAt === 'string') {
        this.#lastRow = row;
      }
    }
  }

  #turn(turnId: string): FoldTurnState {
    if (this.#lastTurnId === turnId) return this.#lastTurn as FoldTurnState;
    let turn = this.#turns.get(turnId);
    if (turn === undefined) {
      turn = { batches: [] };
      this.#turns.set(turnId, turn);
    }
    this.#lastTurnId = turnId;
    this.#lastTurn = turn;
    return turn;
  }

  /** The turn's message of `role`, created (a system one coalesced into a trailing system message). */
  #message(turn: FoldTurnState, turnId: string, role: ChatRole): number {
    const known = turn[role];
    if (known !== undefined) return known;
    const lastIndex = this.#messages.length - 1;
    if (role === 'system' && this.#messages[lastIndex]?.role === 'system') {
      turn.system = lastIndex;
      return lastIndex;
    }
    const m = this.#messages.length;
    this.#messages.push({ id: messageId(turnId, role), turnId, role, chunks: [] });
    this.#open.push(-1);
    this.#messageGeneration[m] = this.#generation;
    turn[role] = m;
    return m;
  }

  /** The message at `m`, copied first when it was handed out. */
  #own(m: number): MessageBody {
    const message = this.#messages[m] as MessageBody;
    if (this.#messageGeneration[m] === this.#generation) return message;
    const copy: MessageBody = { ...message, chunks: message.chunks.slice() };
    this.#messages[m] = copy;
    this.#messageGeneration[m] = this.#generation;
    return copy;
  }

  /** Batch `b` and its chunk, both copied first when they were handed out. */
  #ownBatch(b: number): { readonly batch: FoldBatchState; readonly chunk: BatchBody } {
    let batch = this.#batches[b] as FoldBatchState;
    const message = this.#own(batch.m);
    if (this.#batchGeneration[b] === this.#generation) {
      return { batch, chunk: message.chunks[batch.c] as BatchBody };
    }
    batch = { ...batch, answered: batch.answered.slice() };
    this.#batches[b] = batch;
    const old = message.chunks[batch.c] as BatchBody;
    const chunk: BatchBody = { ...old, calls: old.calls.slice() };
    message.chunks[batch.c] = chunk;
    this.#batchGeneration[b] = this.#generation;
    this.#sharedCalls[b] = chunk.calls.length;
    return { batch, chunk };
  }

  #newBatch(turn: FoldTurnState, m: number, step: number, deferred: boolean): number {
    const message = this.#own(m);
    const chunk: BatchBody = { type: 'tool-batch', step, calls: [] };
    message.chunks.push(chunk);
    const b = this.#batches.length;
    this.#batches.push({ m, c: message.chunks.length - 1, last: -1, answered: [], deferred });
    this.#batchGeneration[b] = this.#generation;
    this.#sharedCalls[b] = 0;
    turn.batches.push(b);
    this.#open[m] = b;
    return b;
  }

  /** The batch message `m` ends with, when its step is `step` and it holds calls (or deferred results). */
  #openBatch(m: number, step: number, deferred: boolean): number | undefined {
    const b = this.#open[m] as number;
    if (b < 0) return undefined;
    const batch = this.#batches[b] as FoldBatchState;
    const chunk = (this.#messages[batch.m] as MessageBody).chunks[batch.c] as BatchBody;
    return chunk.step === step && batch.deferred === deferred ? b : undefined;
  }

  #addCall(turn: FoldTurnState, step: number, m: number, data: ToolCallRowData): void {
    const open = this.#openBatch(m, step, false);
    const joins =
      open !== undefined &&
      data.index > 0 &&
      data.index === (this.#batches[open] as FoldBatchState).last + 1;
    const { batch, chunk } = this.#ownBatch(joins ? open : this.#newBatch(turn, m, step, false));
    const { index, ...entry } = data;
    chunk.calls.push(entry);
    batch.answered.push(false);
    batch.last = index;
  }

  /** A result joins the newest batch of its turn with an unanswered call of that id. */
  #addResult(turn: FoldTurnState, turnId: string, step: number, data: ToolResultRowData): void {
    const { batches } = turn;
    for (let k = batches.length - 1; k >= 0; k--) {
      const b = batches[k] as number;
      const at = this.#unanswered(b, data.callId);
      if (at === -1) continue;
      const { batch, chunk } = this.#ownBatch(b);
      batch.answered[at] = true;
      const entry = chunk.calls[at] as ToolCallEntry;
      // A call added since the last hand-out is this fold's own: merged in place.
      if (at >= (this.#sharedCalls[b] as number)) mergeResult(entry, data);
      else chunk.calls[at] = mergeResult({ ...entry }, data);
      return;
    }
    // A result whose call row is not here (an older page): a placeholder entry marked `orphan`.
    const m = this.#message(turn, turnId, 'assistant');
    const open = this.#open[m] as number;
    const joins =
      open >= 0 &&
      !(this.#batches[open] as FoldBatchState).deferred &&
      (
        (this.#messages[m] as MessageBody).chunks[
          (this.#batches[open] as FoldBatchState).c
        ] as BatchBody
      ).step === step;
    const { batch, chunk } = this.#ownBatch(joins ? open : this.#newBatch(turn, m, step, false));
    chunk.calls.push(mergeResult({ id: data.callId, name: data.name, orphan: true }, data));
    batch.answered.push(true);
  }

  /** The index of the first unanswered call of `callId` in batch `b`, or -1. */
  #unanswered(b: number, callId: string): number {
    const batch = this.#batches[b] as FoldBatchState;
    const calls = ((this.#messages[batch.m] as MessageBody).chunks[batch.c] as BatchBody).calls;
    for (let i = 0; i < calls.length; i++) {
      if ((calls[i] as ToolCallEntry).id === callId && batch.answered[i] === false) return i;
    }
    return -1;
  }

  /**
   * A deferred result stays where it arrived: in the batch of deferred results the assistant
   * message ends with (same step), or a new one. It is never merged into its call.
   */
  #addDeferred(turn: FoldTurnState, turnId: string, step: number, data: ToolResultRowData): void {
    const m = this.#message(turn, turnId, 'assistant');
    const open = this.#openBatch(m, step, true);
    const { batch, chunk } = this.#ownBatch(open ?? this.#newBatch(turn, m, step, true));
    chunk.calls.push(mergeResult({ id: data.callId, name: data.name }, data));
    batch.answered.push(true);
  }
}

/** Merges a result row into a call entry of the fold's own (changed in place), and returns it. */
function mergeResult(entry: ToolCallEntry, data: ToolResultRowData): ToolCallEntry {
  const merged = entry as Mutable<ToolCallEntry>;
  if (data.result !== undefined) merged.result = data.result;
  if (data.isError !== undefined) merged.isError = data.isError;
  if (data.denied !== undefined) merged.denied = data.denied;
  if (data.progress !== undefined) merged.progress = data.progress;
  if (data.preliminary !== undefined) merged.preliminary = data.preliminary;
  if (data.resultProviderMetadata !== undefined)
    merged.resultProviderMetadata = data.resultProviderMetadata;
  if (data.deferred === true) merged.deferred = true;
  return merged;
}
