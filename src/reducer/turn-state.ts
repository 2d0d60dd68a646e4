import { ChunklogError } from '../errors/chunklog-error.js';
import type { Chunk } from '../schema/chunk.js';
import type { FinishReason, TokenUsage } from '../schema/usage.js';
import { firstOpenIndex, NO_OPEN_BLOCKS, type OpenBlock, shiftOpen } from './open-blocks.js';
import type { StepSummary, TurnState, TurnStateInit } from './types.js';

const materialized = new WeakMap<TurnStateImpl, readonly Chunk[]>();
const NO_STEPS: readonly StepSummary[] = Object.freeze([]);

/**
 * The reducer's state. Chunks are stored as a live region `buf[start, len)` of a buffer shared
 * with older and newer states, plus the last chunk (`tail`) held apart, so that a delta to the
 * last chunk replaces one object and a new chunk is pushed onto the buffer in place (only when
 * no other state has pushed past `len`, and the buffer is not frozen; otherwise it is copied
 * first). No state ever sees a change to the part of a buffer it holds.
 *
 * A published state is never modified. The reducer works on a fresh copy (a draft, see
 * {@link draftOf}) that nobody else has seen, then {@link seal}s it.
 */
export class TurnStateImpl implements TurnState {
  buf: Chunk[] = [];
  start = 0;
  len = 0;
  /** Whether this draft created `buf` itself, so it may write below `len` in place. */
  ownsBuf = false;
  tail: Chunk | undefined = undefined;
  /**
   * Whether this draft created the tail object itself (so nobody else holds it), and may grow it
   * in place: a fold of many deltas then costs no copy per delta. Never true on a published state.
   */
  tailOwned = false;
  /** Whether the tail is a chunk of bare deltas (no block start) that is not closed yet. */
  tailBare = false;
  open: readonly OpenBlock[] = NO_OPEN_BLOCKS;
  evicted = 0;
  turnId: string | null = null;
  assistantId: string | null = null;
  step = 0;
  /** Whether a `step-start` was seen (the first one without a number is step 0). */
  stepStarted = false;
  /** The model of the current step, when its `step-start` named one. */
  stepModelId: string | undefined = undefined;
  ended = false;
  finishReason: FinishReason | undefined = undefined;
  usage: TokenUsage | undefined = undefined;
  steps: readonly StepSummary[] = NO_STEPS;
  chunkCount = 0;
  openIndex: number | null = null;

  /** Keeps this class's settled hidden class alive (see the end of this file). */
  static shapeKeeper: TurnStateImpl | undefined;

  get chunks(): readonly Chunk[] {
    let list = materialized.get(this);
    if (list === undefined) {
      const out = this.buf.slice(this.start, this.len);
      if (this.tail !== undefined) out.push(this.tail);
      list = Object.freeze(out);
      materialized.set(this, list);
    }
    return list;
  }

  /** A plain snapshot of the public fields (the chunk list included), for `JSON.stringify`. */
  toJSON(): Omit<TurnState, 'chunkAt'> {
    return {
      chunks: this.chunks,
      chunkCount: this.chunkCount,
      openIndex: this.openIndex,
      evicted: this.evicted,
      turnId: this.turnId,
      assistantId: this.assistantId,
      step: this.step,
      ended: this.ended,
      finishReason: this.finishReason,
      usage: this.usage,
      steps: this.steps,
    };
  }

  chunkAt(index: number): Chunk | undefined {
    if (!Number.isInteger(index) || index < 0) return undefined;
    const committed = this.len - this.start;
    if (index < committed) return this.buf[this.start + index];
    return index === committed ? this.tail : undefined;
  }

  // ---- Absolute indexes (the chunk's position in the whole turn, eviction included) ----

  /** The absolute index one past the last chunk. */
  end(): number {
    return this.evicted + this.len - this.start + (this.tail === undefined ? 0 : 1);
  }

  /** The chunk at absolute index `at`. */
  get(at: number): Chunk | undefined {
    return this.chunkAt(at - this.evicted);
  }

  /** The last chunk, or undefined. */
  last(): Chunk | undefined {
    if (this.tail !== undefined) return this.tail;
    return this.len > this.start ? this.buf[this.len - 1] : undefined;
  }

  /** Whether absolute index `at` is the tail's. */
  isTail(at: number): boolean {
    return this.tail !== undefined && at === this.end() - 1;
  }

  // ---- Draft operations (only on an unpublished draft) ----

  /**
   * Appends `chunk`, a fresh object nobody else holds, as the new last chunk (`bare`: opened by a
   * bare delta). Returns its index.
   */
  append(chunk: Chunk, bare = false): number {
    if (this.tail !== undefined) {
      if (this.buf.length !== this.len || Object.isFrozen(this.buf)) this.takeBuffer();
      this.buf.push(this.tail);
      this.len++;
    }
    this.tail = chunk;
    this.tailOwned = true;
    this.tailBare = bare;
    return this.end() - 1;
  }

  /** Replaces the chunk at absolute index `at` (`owned`: `chunk` is a fresh object). */
  replace(at: number, chunk: Chunk, owned = false): void {
    if (this.isTail(at)) {
      if (chunk !== this.tail) {
        this.tail = chunk;
        this.tailOwned = owned;
      }
      return;
    }
    const rel = at - this.evicted;
    if (rel < 0 || rel >= this.len - this.start) return;
    if (!this.ownsBuf || Object.isFrozen(this.buf)) this.takeBuffer();
    this.buf[this.start + rel] = chunk;
  }

  /** Removes the chunk at absolute index `at` (an empty block dropped at its end). */
  remove(at: number): void {
    if (this.isTail(at)) {
      this.tail = undefined;
      this.tailOwned = false;
      this.tailBare = false;
    } else {
      const rel = at - this.evicted;
      if (rel < 0 || rel >= this.len - this.start) return;
      const next = this.buf.slice(this.start, this.len);
      next.splice(rel, 1);
      this.buf = next;
      this.start = 0;
      this.len = next.length;
      this.ownsBuf = true;
    }
    this.open = shiftOpen(this.open, at);
  }

  /** Copies the live region into a buffer this draft owns. */
  private takeBuffer(): void {
    this.buf = this.buf.slice(this.start, this.len);
    this.len -= this.start;
    this.start = 0;
    this.ownsBuf = true;
  }
}

/** An instance whose every field has held each kind of value it can hold. */
function generalizedShape(): TurnStateImpl {
  const shape = new TurnStateImpl();
  shape.buf = [{ type: 'text', step: 0, text: '' }];
  shape.tail = { type: 'thinking', step: 0, text: '' };
  shape.open = [{ kind: 'text', id: 'a', index: 0 }];
  shape.evicted = 1;
  shape.turnId = 't';
  shape.assistantId = 'a';
  shape.step = 1;
  shape.stepModelId = 'm';
  shape.finishReason = 'stop';
  shape.usage = {};
  shape.steps = [{ step: 0, finishReason: 'stop' }];
  shape.chunkCount = 2;
  shape.openIndex = 1;
  shape.openIndex = null;
  shape.tail = undefined;
  shape.stepModelId = undefined;
  return shape;
}

/**
 * A fresh, unpublished copy of `state` that the reducer may change.
 *
 * @param state - a state made by this module, or any {@link TurnState} (adopted: its chunks
 *   become the committed list, nothing is open)
 * @returns the draft
 */
export function draftOf(state: TurnState): TurnStateImpl {
  const draft = new TurnStateImpl();
  if (!(state instanceof TurnStateImpl)) return adopt(state, draft);
  draft.buf = state.buf;
  draft.start = state.start;
  draft.len = state.len;
  draft.tail = state.tail;
  draft.tailBare = state.tailBare;
  draft.open = state.open;
  draft.evicted = state.evicted;
  draft.turnId = state.turnId;
  draft.assistantId = state.assistantId;
  draft.step = state.step;
  draft.stepStarted = state.stepStarted;
  draft.stepModelId = state.stepModelId;
  draft.ended = state.ended;
  draft.finishReason = state.finishReason;
  draft.usage = state.usage;
  draft.steps = state.steps;
  return draft;
}

function adopt(state: TurnState, draft: TurnStateImpl): TurnStateImpl {
  draft.buf = [...state.chunks];
  draft.len = draft.buf.length;
  draft.ownsBuf = true;
  draft.evicted = state.evicted;
  draft.turnId = state.turnId;
  draft.assistantId = state.assistantId;
  draft.step = state.step;
  draft.stepStarted = state.steps.length > 0 || state.step > 0;
  draft.ended = state.ended;
  draft.finishReason = state.finishReason;
  draft.usage = state.usage;
  draft.steps = state.steps;
  return draft;
}

/**
 * Publishes a draft: computes its derived fields. The draft must not be changed afterwards.
 *
 * @param draft - the draft
 * @returns the same object, as a state
 */
export function seal(draft: TurnStateImpl): TurnStateImpl {
  draft.ownsBuf = false;
  draft.tailOwned = false;
  draft.chunkCount = draft.len - draft.start + (draft.tail === undefined ? 0 : 1);
  let first = firstOpenIndex(draft.open);
  if (draft.tailBare && draft.tail !== undefined) {
    const tailAt = draft.end() - 1;
    if (first === undefined || tailAt < first) first = tailAt;
  }
  draft.openIndex = first === undefined ? null : first - draft.evicted;
  return draft;
}

/**
 * Creates the state of a turn that has not started yet: no chunks, step 0.
 *
 * @param init - the turn's ids, when known before its `turn-start`
 * @returns an empty state
 * @throws {ChunklogError} `invalid-option` when `init` is not an object or an id is not a
 *   non-empty string
 *
 * @example
 * ```ts
 * const state = createTurnState({ turnId: 't1' });
 * state.chunks; // []
 * ```
 */
export function createTurnState(init?: TurnStateInit): TurnState {
  if (init !== undefined && (typeof init !== 'object' || init === null)) {
    throw new ChunklogError('invalid-option', 'createTurnState: `init` must be an object', {
      option: 'init',
      value: init,
    });
  }
  const draft = new TurnStateImpl();
  draft.turnId = initId(init?.turnId, 'turnId');
  draft.assistantId = initId(init?.assistantId, 'assistantId');
  return seal(draft);
}

function initId(value: unknown, option: string): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string' || value === '') {
    throw new ChunklogError(
      'invalid-option',
      `createTurnState: \`${option}\` must be a non-empty string`,
      { option, value },
    );
  }
  return value;
}

/**
 * One instance holding a value of every kind in every field, alive as long as this module.
 * V8 gives an object whose field changes kind (`null`, then a number) a new hidden class; if no
 * object of that class survives a garbage collection, the class dies and the optimized reducer
 * code that checks for it is thrown away: every fold after a collection would start cold
 * (measured: 4-5× slower). Keeping one such instance alive keeps the class alive. It is made
 * last, once every module-level value its fields start with exists, and hangs off the class
 * (an unused module variable could be dropped by a bundler or by V8).
 */
TurnStateImpl.shapeKeeper = generalizedShape();
