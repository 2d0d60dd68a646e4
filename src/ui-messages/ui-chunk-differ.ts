import type { UIMessageChunk } from 'ai';
import { invalidOption } from '../errors/invalid-option.js';
import type { Chunk, TextChunk, ThinkingChunk, ToolApproval } from '../schema/index.js';
import { droppable, grownFrom } from './chunk-growth.js';
import { UI_MESSAGE_ENVELOPE } from './envelope.js';
import { initialStep, stepBefore } from './steps.js';
import {
  callUpdates,
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

type Block = TextChunk | ThinkingChunk;

/** What the client has of one chunk. */
type Sent =
  | {
      readonly kind: 'block';
      readonly uiId: string;
      length: number;
      metadata: string | undefined;
      open: boolean;
    }
  | { readonly kind: 'batch'; readonly calls: Map<string, SentCall> }
  | { readonly kind: 'whole' };

/** A chunk the client has a part for: its latest version, and what was sent of it. */
interface Slot {
  chunk: Chunk;
  /** Its index in the latest list. */
  index: number;
  sent: Sent;
  /** The step of the client's message its part is in (the last `step-start` before it). */
  uiStep: number;
  /** Whether its part is still to be sent. */
  fresh: boolean;
}

const json = (value: unknown): string | undefined =>
  value === undefined ? undefined : JSON.stringify(value);

/**
 * Turns successive states of one assistant message's chunks (the reducer's state after each
 * event) into the AI SDK UI message stream chunks that make a `useChat` client build the same
 * message: after the last state, the client's message equals `toUIMessage` of the chunks (see
 * `notes/0011-ui-message-interop.md` for the few live-only differences).
 *
 * A state may change the previous one only the way the reducer does: chunks are appended, open
 * text and thinking chunks grow, tool calls gain input, approvals, progress and results, and an
 * empty block is dropped when it closes. An empty block is therefore not shown until it has text
 * or metadata. An update costs one comparison per unchanged chunk.
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
 *   for (const chunk of differ.update(state)) writer.write(chunk);
 * }
 * for (const chunk of differ.finish(state)) writer.write(chunk);
 * ```
 */
export class UIChunkDiffer {
  private slots: Slot[] = [];
  /** The approval of each call sent in this message so far, for its deferred result. */
  private readonly approvals = new Map<string, ToolApproval>();
  private step: number = initialStep('assistant');
  private stepOpen = false;
  private generated = 0;

  /**
   * The stream chunks that bring the client from the previous state to `list`.
   *
   * @param list - the message's chunks now
   * @returns the stream chunks, in order
   *
   * @example
   * ```ts
   * state = reduceTurn(state, event);
   * for (const chunk of differ.update(state)) writer.write(chunk);
   * ```
   */
  update(list: ChunkList): UIMessageChunk[] {
    const out: UIMessageChunk[] = [];
    const slots: Slot[] = [];
    const added: number[] = [];
    let rebuild = false;
    let j = 0;
    for (let index = 0; index < list.chunkCount; index++) {
      const chunk = list.chunkAt(index);
      if (chunk === undefined || droppable(chunk)) continue;
      const slot = this.slots[j];
      if (slot !== undefined && (slot.chunk === chunk || grownFrom(slot.chunk, chunk))) {
        if (slot.chunk !== chunk && this.extend(chunk, slot, out)) rebuild = true;
        slot.chunk = chunk;
        slot.index = index;
        slots.push(slot);
        j++;
      } else {
        // A chunk before others the client already has: only a rebuilt step can put it there.
        if (slot !== undefined) rebuild = true;
        added.push(slots.length);
        slots.push({ chunk, index, sent: { kind: 'whole' }, uiStep: this.step, fresh: true });
      }
    }
    this.slots = slots;
    const open = list.openIndex ?? list.chunkCount;
    if (rebuild && this.rebuildStep(open, out)) return out;
    // Blocks end before new ones start, so that a stream id is never open twice.
    this.closeBlocks(open, out);
    for (const at of added) this.start(slots[at] as Slot, out);
    if (added.length > 0) this.closeBlocks(open, out);
    return out;
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
    slot.sent = this.begin(slot.chunk, slot.index, out);
    slot.uiStep = this.step;
    slot.fresh = false;
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

  private closeBlocks(before: number, out: UIMessageChunk[]): void {
    for (const slot of this.slots) {
      if (slot.index >= before) break;
      const { sent, chunk } = slot;
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
        // open under this id is over.
        for (const slot of this.slots) {
          if (
            slot.sent.kind === 'block' &&
            slot.sent.open &&
            slot.sent.uiId === uiId &&
            slot.chunk.type === chunk.type
          ) {
            slot.sent.open = false;
            out.push(blockEnd(slot.chunk as Block, uiId));
          }
        }
        const sent: Sent = { kind: 'block', uiId, length: 0, metadata: undefined, open: true };
        out.push({ type: chunk.type === 'text' ? 'text-start' : 'reasoning-start', id: uiId });
        this.extendSent(chunk, sent, out, false);
        return sent;
      }
      case 'tool-batch': {
        const sent: Sent = { kind: 'batch', calls: new Map() };
        this.extendSent(chunk, sent, out, false);
        return sent;
      }
      default:
        out.push(wholeChunkToStream(chunk as WholeChunk));
        return { kind: 'whole' };
    }
  }

  /** Sends what changed in a slot's chunk; true when its step must be rebuilt instead. */
  private extend(chunk: Chunk, slot: Slot, out: UIMessageChunk[]): boolean {
    return this.extendSent(chunk, slot.sent, out, slot.uiStep === this.step);
  }

  private extendSent(
    chunk: Chunk,
    sent: Sent,
    out: UIMessageChunk[],
    canRebuild: boolean,
  ): boolean {
    if (sent.kind === 'block' && (chunk.type === 'text' || chunk.type === 'thinking')) {
      if (!sent.open) return false;
      const metadata = json(chunk.providerMetadata);
      const delta = chunk.text.slice(sent.length);
      if (delta === '' && metadata === sent.metadata) return false;
      out.push({
        type: chunk.type === 'text' ? 'text-delta' : 'reasoning-delta',
        id: sent.uiId,
        delta,
        ...(metadata === sent.metadata || chunk.providerMetadata === undefined
          ? {}
          : { providerMetadata: chunk.providerMetadata }),
      });
      sent.length = chunk.text.length;
      sent.metadata = metadata;
    } else if (sent.kind === 'batch' && chunk.type === 'tool-batch') {
      for (const call of chunk.calls) {
        let calls = sent.calls.get(call.id);
        if (calls === undefined) {
          calls = unsentCall();
          sent.calls.set(call.id, calls);
        }
        if (call.deferred === true) {
          deferredResultUpdates(call, calls, out, this.approvals.get(call.id));
          continue;
        }
        if (callUpdates(call, calls, out, canRebuild) === 'rebuild') return true;
        if (call.approval !== undefined) this.approvals.set(call.id, call.approval);
      }
    }
    return false;
  }
}
