import type { UIMessageChunk } from 'ai';
import type { ChunkEvent, ProviderMetadata, TextChunk, ThinkingChunk } from '../schema/index.js';

/** A text or thinking chunk: a block the stream sends as start, deltas and end. */
export type Block = TextChunk | ThinkingChunk;

/** What has been sent of one text or reasoning block. */
export interface SentBlock {
  readonly kind: 'block';
  /** The block's id in the stream. */
  readonly uiId: string;
  /** How much of its text was sent. */
  length: number;
  /** Its provider metadata as sent, as JSON. */
  metadata: string | undefined;
  /** The metadata object `metadata` is the JSON of (the same object needs no new JSON). */
  metadataOf: Block['providerMetadata'];
  /** Whether the block is still open in the stream. */
  open: boolean;
}

/** Nothing sent of a block yet but its start. */
export function sentBlock(uiId: string): SentBlock {
  return { kind: 'block', uiId, length: 0, metadata: undefined, metadataOf: undefined, open: true };
}

/**
 * What one event appended to a chunk's text: a delta's own text, so that the differ sends it as
 * it came instead of slicing it back out of the block's whole text (which costs the length of the
 * text: a string built by concatenation is flattened to be sliced).
 */
export type Appended =
  | { readonly to: 'text' | 'thinking'; readonly text: string }
  | { readonly to: 'tool-input'; readonly toolCallId: string; readonly text: string };

/**
 * The text `event` appends, when it is a text, reasoning or tool input delta.
 *
 * @param event - the event folded into the list being diffed, if known
 */
export function appendedBy(event: ChunkEvent | undefined): Appended | undefined {
  if (typeof event !== 'object' || event === null) return undefined;
  switch (event.type) {
    case 'text-delta':
      return typeof event.text === 'string' ? { to: 'text', text: event.text } : undefined;
    case 'reasoning-delta':
      return typeof event.text === 'string' ? { to: 'thinking', text: event.text } : undefined;
    case 'tool-input-delta':
      return typeof event.delta === 'string' && typeof event.toolCallId === 'string'
        ? { to: 'tool-input', toolCallId: event.toolCallId, text: event.delta }
        : undefined;
    default:
      return undefined;
  }
}

/**
 * Whether `next` is the block `previous` with `appended` added to its text (and perhaps new
 * metadata): the growth a delta makes, known from lengths alone.
 */
export function grownByDelta(
  previous: Block,
  next: Block,
  appended: Appended | undefined,
): boolean {
  return (
    appended?.to === next.type &&
    previous.type === next.type &&
    previous.id === next.id &&
    next.text.length === previous.text.length + appended.text.length
  );
}

const json = (value: ProviderMetadata | undefined): string | undefined =>
  value === undefined ? undefined : JSON.stringify(value);

/**
 * Sends what changed in an open block: the text after what was sent, and its metadata when that
 * changed. `appended` is taken as that text when the lengths say it is (the delta that made
 * `chunk`); otherwise the text is sliced from the chunk.
 *
 * @param chunk - the block now
 * @param sent - what was sent of it (updated)
 * @param out - where the stream chunks go
 * @param appended - the text the last event appended to the block, if known
 */
export function blockUpdates(
  chunk: Block,
  sent: SentBlock,
  out: UIMessageChunk[],
  appended: Appended | undefined,
): void {
  if (!sent.open) return;
  const metadata =
    chunk.providerMetadata === sent.metadataOf ? sent.metadata : json(chunk.providerMetadata);
  sent.metadataOf = chunk.providerMetadata;
  const length = chunk.text.length;
  let delta: string;
  if (length === sent.length) delta = '';
  else if (appended?.to === chunk.type && length === sent.length + appended.text.length) {
    delta = appended.text;
  } else delta = chunk.text.slice(sent.length);
  if (delta === '' && metadata === sent.metadata) return;
  out.push({
    type: chunk.type === 'text' ? 'text-delta' : 'reasoning-delta',
    id: sent.uiId,
    delta,
    ...(metadata === sent.metadata || chunk.providerMetadata === undefined
      ? {}
      : { providerMetadata: chunk.providerMetadata }),
  });
  sent.length = length;
  sent.metadata = metadata;
}
