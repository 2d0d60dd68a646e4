import type { UIMessageChunk } from 'ai';
import { invalidOption } from '../errors/invalid-option.js';
import type { Chunk, ChunkEvent, ToolCallEntry } from '../schema/index.js';
import { droppable, grownFrom } from './chunk-growth.js';
import { CHUNKLOG_DATA_PARTS } from './data-parts.js';
import { UI_MESSAGE_ENVELOPE } from './envelope.js';
import { sharedPrefix } from './shared-prefix.js';
import { initialStep, stepBefore } from './steps.js';
import {
  type Appended,
  appendedBy,
  type Block,
  blockUpdates,
  grownByDelta,
  type SentBlock,
  sentBlock,
} from './ui-stream-blocks.js';
import {
  callUpdates,
  deferredResultAgain,
  deferredResultUpdates,
  type SentCall,
  unsentCall,
} from './ui-stream-calls.js';
import { blockEnd, type WholeChunk, wholeChunkToStream } from './ui-stream-chunks.js';

/**
 * The chunks of one assistant message at some point of its turn, as the reducer's `TurnState`
 * exposes them (it satisfies this interface).
 *
 * @example
 * ```ts
 * const list: ChunkList = reduceTurn(state, event); // a TurnState is a ChunkList
 * ```
 */
export interface ChunkList {
  /** How many chunks there are. */
  readonly chunkCount: number;
  /** The chunk at `index`. */
  chunkAt(index: number): Chunk | undefined;
  /**
   * The first chunk still receiving deltas: every text or thinking chunk before it is complete.
   * Null when none is.
   */
  readonly openIndex: number | null;
}

/**
 * A {@link ChunkList} over an array.
 *
 * @param chunks - the chunks
 * @param openIndex - the first chunk still receiving deltas (default: none)
 * @returns the list
 * @throws {ChunklogError} `invalid-option` when `chunks` is not an array or `openIndex` is not
 *   null or an index (the chunks themselves are trusted, as the differ trusts them: it runs once
 *   per event)
 * @example
 * ```ts
 * differ.update(chunkList(state.chunks, state.openIndex));
 * ```
 */
export function chunkList(chunks: readonly Chunk[], openIndex: number | null = null): ChunkList {
  if (!Array.isArray(chunks)) {
    invalidOption('chunkList', 'chunks', '`chunks` must be an array of chunks', chunks);
  }
  if (openIndex !== null && !(Number.isSafeInteger(openIndex) && openIndex >= 0)) {
    invalidOption('chunkList', 'openIndex', '`openIndex` must be null or an index', openIndex);
  }
  return { chunkCount: chunks.length, chunkAt: (index) => chunks[index], openIndex };
}

/** What the client has of one chunk. */
type Sent = SentBlock | { readonly kind: 'batch'; readonly calls: Map<string, SentCall> } | Whole;
type Whole = { readonly kind: 'whole' };

/** A chunk the client has a part for: its latest version, and what was sent of it. */
interface Slot {
  chunk: Chunk;
  /** Its index in the latest list. */
  index: number;
  /** Its position in the differ's slots. */
  pos: number;
  sent: Sent;
  /** The step of the client's message its part is in (the last `step-start` before it). */
  uiStep: number;
  /** Whether its part is still to be sent. */
  fresh: boolean;
}

const isOpenBlock = (slot: Slot): boolean => slot.sent.kind === 'block' && slot.sent.open;

/**
 * Turns successive states of one assistant message's chunks (the reducer's state after each
 * event) into the AI SDK UI message stream chunks that make a `useChat` client build the same
 * message: after the last state, the client's message equals `toUIMessage` of the chunks (see
 * `notes/0011-ui-message-interop.md` for the few live-only differences).
 *
 * A state may change the previous one only the way the reducer does: chunks are appended, open
 * text and thinking chunks grow, tool calls gain input, approvals, progress and results, and an
 * empty block is dropped when it closes. An empty block is therefore not shown until it has text
 * or metadata.
 *
 * What an update costs: given the reducer's states, only the chunks a state did not share with
 * the one before are compared (as a rule the last one or two: O(1) per event, or what the reducer
 * itself spent copying), and given the event that was folded too, a delta is sent as the event's
 * own text, never sliced back out of the block (O(1) however long the block is). Given other
 * lists ({@link chunkList}), an update compares every chunk once.
 *
 * `toUIMessageStream` uses it; use it directly to feed a UI message stream from your own
 * transport (a WebSocket, say).
 *
 * @example
 * ```ts
 * const differ = new UIChunkDiffer();
 * let state = createTurnState();
 * for await (const event of events) {
 *   state = reduceTurn(state, event);
 *   for (const chunk of differ.update(state, event)) writer.write(chunk);
 * }
 * for (const chunk of differ.finish(state)) writer.write(chunk);
 * ```
 */
export class UIChunkDiffer {
  private slots: Slot[] = [];
  /** Each call sent in this message so far, as last sent, for its deferred result. */
  private readonly calls = new Map<string, ToolCallEntry>();
  /** The deferred result of each call sent in this message so far, and what was sent of it. */
  private readonly deferredSent = new Map<string, { entry: ToolCallEntry; sent: SentCall }>();
  private step: number = initialStep('assistant');
  private stepOpen = false;
  private generated = 0;
  /** The list of the previous update. */
  private previous: ChunkList | undefined = undefined;
  /** No slot before this position is an open block. */
  private closedUpTo = 0;
  /** The slot of the block last started under each stream id, by chunk type. */
  private readonly blocks = { text: new Map<string, Slot>(), thinking: new Map<string, Slot>() };

  /**
   * The stream chunks that bring the client from the previous state to `list`.
   *
   * @param list - the message's chunks now
   * @param event - the event folded into the previous state to make `list`, when it was exactly
   *   one (omit it otherwise): a text, reasoning or tool input delta is then sent as the event's
   *   own text instead of being sliced out of the block's whole text
   * @returns the stream chunks, in order
   *
   * @example
   * ```ts
   * state = reduceTurn(state, event);
   * for (const chunk of differ.update(state, event)) writer.write(chunk);
   * ```
   */
  update(list: ChunkList, event?: ChunkEvent | undefined): UIMessageChunk[] {
    const out: UIMessageChunk[] = [];
    const appended = appendedBy(event);
    // The chunks before `from` are the previous list's, unchanged, and so are their slots.
    const from = sharedPrefix(this.previous, list);
    this.previous = list;
    let kept = this.slots.length;
    while (kept > 0 && (this.slots[kept - 1] as Slot).index >= from) kept--;
    const old = this.slots.splice(kept);
    this.closedUpTo = Math.min(this.closedUpTo, kept);
    const added: Slot[] = [];
    let rebuild = false;
    let j = 0;
    for (let index = from; index < list.chunkCount; index++) {
      const chunk = list.chunkAt(index);
      if (chunk === undefined || droppable(chunk)) continue;
      const slot = old[j];
      if (slot !== undefined && (slot.chunk === chunk || grown(slot.chunk, chunk, appended))) {
        if (slot.chunk !== chunk && this.extend(chunk, slot, out, appended)) rebuild = true;
        slot.chunk = chunk;
        slot.index = index;
        this.push(slot);
        j++;
      } else {
        // A chunk before others the client already has: only a rebuilt step can put it there.
        if (slot !== undefined) rebuild = true;
        const fresh: Slot = {
          chunk,
          index,
          pos: 0,
          sent: { kind: 'whole' },
          uiStep: this.step,
          fresh: true,
        };
        this.push(fresh);
        added.push(fresh);
      }
    }
    const open = list.openIndex ?? list.chunkCount;
    if (rebuild && this.rebuildStep(open, out)) return out;
    // Blocks end before new ones start, so that a stream id is never open twice, and a complete
    // block ends before the next chunk starts (a whole turn at once reads as a live one would).
    this.closeBlocks(open, out);
    for (const slot of added) {
      this.closeBlocks(Math.min(slot.index, open), out);
      this.start(slot, out);
    }
    if (added.length > 0) this.closeBlocks(open, out);
    return out;
  }

  private push(slot: Slot): void {
    slot.pos = this.slots.length;
    this.slots.push(slot);
  }

  /**
   * Sends the current step again, in chunk order, after the AI SDK's `reset-step` (which makes
   * the client drop the step's parts): for a chunk that appeared before parts the client already
   * has (an empty block that got its first text late), or a tool part that changed kind.
   *
   * @returns false when the change is not in the current step (nothing sent)
   */
  private rebuildStep(open: number, out: UIMessageChunk[]): boolean {
    const step = this.step;
    const first = this.slots.findIndex((slot) => slot.uiStep === step);
    if (first < 0 || this.slots.slice(first).some((slot) => slot.uiStep !== step)) return false;
    if (this.slots.slice(0, first).some((slot) => slot.fresh)) return false;
    // `reset-step` forgets every open block: end them all first.
    this.closeBlocks(Number.POSITIVE_INFINITY, out);
    out.push({ type: 'reset-step' });
    for (const slot of this.slots.slice(first)) this.start(slot, out);
    this.closeBlocks(open, out);
    return true;
  }

  private start(slot: Slot, out: UIMessageChunk[]): void {
    const sent = this.begin(slot.chunk, slot.index, out);
    slot.sent = sent;
    slot.uiStep = this.step;
    slot.fresh = false;
    if (sent.kind === 'block') {
      this.blocks[(slot.chunk as Block).type].set(sent.uiId, slot);
      this.closedUpTo = Math.min(this.closedUpTo, slot.pos);
    }
  }

  /**
   * The stream chunks that end the message: the last changes, the end of every open text and
   * reasoning block, and the end of the step.
   *
   * @param list - the message's final chunks
   * @returns the stream chunks, in order
   *
   * @example
   * ```ts
   * for (const chunk of differ.finish(state)) writer.write(chunk);
   * writer.write({ type: 'finish' });
   * ```
   */
  finish(list: ChunkList): UIMessageChunk[] {
    const out = this.update(list);
    this.closeBlocks(Number.POSITIVE_INFINITY, out);
    if (this.stepOpen) out.push({ type: 'finish-step' });
    this.stepOpen = false;
    return out;
  }

  /** Ends the open blocks of the chunks before index `before`. */
  private closeBlocks(before: number, out: UIMessageChunk[]): void {
    const slots = this.slots;
    let pos = this.closedUpTo;
    while (pos < slots.length && !isOpenBlock(slots[pos] as Slot)) pos++;
    this.closedUpTo = pos;
    for (; pos < slots.length; pos++) {
      const { sent, chunk, index } = slots[pos] as Slot;
      if (index >= before) break;
      if (sent.kind !== 'block' || !sent.open) continue;
      sent.open = false;
      out.push(blockEnd(chunk as Block, sent.uiId));
    }
  }

  private begin(chunk: Chunk, index: number, out: UIMessageChunk[]): Sent {
    if (index === 0 && chunk.type === 'data' && chunk.name === UI_MESSAGE_ENVELOPE) {
      return { kind: 'whole' };
    }
    for (const target = stepBefore(chunk); this.step < target; this.step++) {
      if (this.stepOpen) out.push({ type: 'finish-step' });
      out.push({ type: 'start-step' });
      this.stepOpen = true;
    }
    switch (chunk.type) {
      case 'text':
      case 'thinking': {
        const uiId = chunk.id ?? `chunklog-${chunk.type}-${this.generated++}`;
        // The reducer never has two blocks of a kind open with one id: one the client still has
        // open under this id is over (only the block last started under it can be open).
        const same = this.blocks[chunk.type].get(uiId);
        if (same !== undefined && this.slots[same.pos] === same) {
          const { sent } = same;
          if (sent.kind === 'block' && sent.open && sent.uiId === uiId) {
            sent.open = false;
            out.push(blockEnd(same.chunk as Block, uiId));
          }
        }
        const sent = sentBlock(uiId);
        out.push({ type: chunk.type === 'text' ? 'text-start' : 'reasoning-start', id: uiId });
        blockUpdates(chunk, sent, out, undefined);
        return sent;
      }
      case 'tool-batch': {
        const sent: Sent = { kind: 'batch', calls: new Map() };
        this.extendSent(chunk, sent, out, false, undefined);
        return sent;
      }
      default:
        out.push(wholeChunkToStream(chunk as WholeChunk));
        return { kind: 'whole' };
    }
  }

  /** Sends what changed in a slot's chunk; true when its step must be rebuilt instead. */
  private extend(
    chunk: Chunk,
    slot: Slot,
    out: UIMessageChunk[],
    appended: Appended | undefined,
  ): boolean {
    return this.extendSent(chunk, slot.sent, out, slot.uiStep === this.step, appended);
  }

  private extendSent(
    chunk: Chunk,
    sent: Sent,
    out: UIMessageChunk[],
    canRebuild: boolean,
    appended: Appended | undefined,
  ): boolean {
    if (sent.kind === 'block' && (chunk.type === 'text' || chunk.type === 'thinking')) {
      blockUpdates(chunk, sent, out, appended);
    } else if (sent.kind === 'batch' && chunk.type === 'tool-batch') {
      for (const call of chunk.calls) {
        let calls = sent.calls.get(call.id);
        if (calls === undefined) {
          calls = unsentCall();
          sent.calls.set(call.id, calls);
        }
        if (call.deferred === true) {
          deferredResultUpdates(call, calls, out, this.calls.get(call.id));
          if (calls.result) this.deferredSent.set(call.id, { entry: call, sent: calls });
          continue;
        }
        const input =
          appended?.to === 'tool-input' && appended.toolCallId === call.id
            ? appended.text
            : undefined;
        const before = out.length;
        if (callUpdates(call, calls, out, canRebuild, input) === 'rebuild') return true;
        this.calls.set(call.id, call);
        const result = this.deferredSent.get(call.id);
        if (result !== undefined && resetsPart(out, before)) {
          // The client's part took a new state after its deferred result: the result goes again.
          deferredResultAgain(result.entry, result.sent, out, call);
        }
      }
    }
    return false;
  }
}

/** Whether a stream chunk from `from` on sets a tool part's state (all but its progress do). */
function resetsPart(out: readonly UIMessageChunk[], from: number): boolean {
  for (let i = from; i < out.length; i++) {
    if ((out[i] as UIMessageChunk).type !== CHUNKLOG_DATA_PARTS.toolProgress) return true;
  }
  return false;
}

/** Whether `next` is `previous` grown, from the delta's length alone when it made `next`. */
function grown(previous: Chunk, next: Chunk, appended: Appended | undefined): boolean {
  if (
    appended !== undefined &&
    (next.type === 'text' || next.type === 'thinking') &&
    (previous.type === 'text' || previous.type === 'thinking') &&
    grownByDelta(previous, next, appended)
  ) {
    return true;
  }
  return grownFrom(previous, next);
}
