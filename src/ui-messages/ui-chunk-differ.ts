import type { UIMessageChunk } from 'ai';
import type {
  Chunk,
  SourceChunk,
  TextChunk,
  ThinkingChunk,
  ToolCallEntry,
} from '../schema/index.js';
import { toUICitation } from './citations.js';
import { CHUNKLOG_DATA_PARTS } from './data-parts.js';
import { UI_MESSAGE_ENVELOPE } from './envelope.js';
import { fileUrl } from './file-url.js';
import { initialStep, stepBefore } from './steps.js';

/** What has been sent of a text or thinking chunk. */
interface SentBlock {
  readonly kind: 'block';
  readonly uiId: string;
  length: number;
  metadata: string | undefined;
  open: boolean;
}

/** What has been sent of one tool call. */
interface SentCall {
  inputText: number;
  input: boolean;
  approval: 'none' | 'requested' | 'answered';
  preliminary: string | undefined;
  result: boolean;
  progress: number | undefined;
}

/** What has been sent of a tool-batch chunk. */
interface SentBatch {
  readonly kind: 'batch';
  readonly calls: Map<string, SentCall>;
}

type Sent = SentBlock | SentBatch | { readonly kind: 'whole' };

const json = (value: unknown): string | undefined =>
  value === undefined ? undefined : JSON.stringify(value);

function sourceChunk(chunk: SourceChunk): UIMessageChunk {
  const { sourceType, id, ...rest } = chunk.source;
  return sourceType === 'url'
    ? ({ type: 'source-url', sourceId: id, ...rest } as UIMessageChunk)
    : ({ type: 'source-document', sourceId: id, ...rest } as UIMessageChunk);
}

/**
 * The chunks of one assistant message at some point of its turn, as the reducer's `TurnState`
 * exposes them (it satisfies this interface).
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
 * @example
 * ```ts
 * differ.update(chunkList(state.chunks, state.openIndex));
 * ```
 */
export function chunkList(chunks: readonly Chunk[], openIndex: number | null = null): ChunkList {
  return { chunkCount: chunks.length, chunkAt: (index) => chunks[index], openIndex };
}

/**
 * Turns successive states of one assistant message's chunks (the reducer's state after each
 * event) into the AI SDK UI message stream chunks that make a `useChat` client build the same
 * message: after the last state, the client's message equals `toUIMessage` of the chunks (see
 * `notes/0009-ui-message-interop.md` for the few live-only differences).
 *
 * A state may extend the previous one only the way the reducer does: chunks are appended, open
 * text and thinking chunks grow, tool calls gain input, approvals, progress and results. A chunk
 * the same object as before is skipped, so an update costs one comparison per unchanged chunk.
 * `toUIMessageStream` uses it; use it directly to feed a UI message stream from your own transport
 * (a WebSocket, say).
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
  private readonly sent: Sent[] = [];
  private readonly seen: Chunk[] = [];
  private readonly openBlocks = new Set<number>();
  private step: number = initialStep('assistant');
  private stepOpen = false;

  /**
   * The stream chunks that bring the client from the previous state to `list`.
   *
   * @param list - the message's chunks now
   */
  update(list: ChunkList): UIMessageChunk[] {
    const out: UIMessageChunk[] = [];
    for (let index = 0; index < list.chunkCount; index++) {
      const chunk = list.chunkAt(index);
      if (chunk === undefined || this.seen[index] === chunk) continue;
      this.seen[index] = chunk;
      const sent = this.sent[index];
      if (sent === undefined) this.begin(chunk, index, out);
      else this.extend(chunk, sent, out);
    }
    this.closeBlocks(list.openIndex ?? list.chunkCount, out);
    return out;
  }

  /**
   * The stream chunks that end the message: the last changes, the end of every open text and
   * reasoning block, and the end of the step.
   *
   * @param list - the message's final chunks
   */
  finish(list: ChunkList): UIMessageChunk[] {
    const out = this.update(list);
    this.closeBlocks(Number.POSITIVE_INFINITY, out);
    if (this.stepOpen) out.push({ type: 'finish-step' });
    this.stepOpen = false;
    return out;
  }

  private closeBlocks(before: number, out: UIMessageChunk[]): void {
    for (const index of [...this.openBlocks].sort((a, b) => a - b)) {
      if (index >= before) break;
      this.openBlocks.delete(index);
      const sent = this.sent[index];
      const chunk = this.seen[index];
      if (sent?.kind !== 'block') continue;
      sent.open = false;
      if (chunk?.type === 'text') {
        out.push({
          type: 'text-end',
          id: sent.uiId,
          ...(chunk.providerMetadata === undefined
            ? {}
            : { providerMetadata: chunk.providerMetadata }),
          ...(chunk.citations === undefined
            ? {}
            : { citations: chunk.citations.map(toUICitation) }),
        });
      } else if (chunk?.type === 'thinking') {
        out.push({
          type: 'reasoning-end',
          id: sent.uiId,
          ...(chunk.providerMetadata === undefined
            ? {}
            : { providerMetadata: chunk.providerMetadata }),
        });
      }
    }
  }

  private begin(chunk: Chunk, index: number, out: UIMessageChunk[]): void {
    if (index === 0 && chunk.type === 'data' && chunk.name === UI_MESSAGE_ENVELOPE) {
      this.sent[index] = { kind: 'whole' };
      return;
    }
    for (const target = stepBefore(chunk); this.step < target; this.step++) {
      if (this.stepOpen) out.push({ type: 'finish-step' });
      out.push({ type: 'start-step' });
      this.stepOpen = true;
    }
    switch (chunk.type) {
      case 'text':
      case 'thinking': {
        const block: SentBlock = {
          kind: 'block',
          uiId: chunk.id ?? `${chunk.type}-${index}`,
          length: 0,
          metadata: undefined,
          open: true,
        };
        this.sent[index] = block;
        this.openBlocks.add(index);
        const start = chunk.type === 'text' ? 'text-start' : 'reasoning-start';
        out.push({ type: start, id: block.uiId });
        this.extend(chunk, block, out);
        return;
      }
      case 'tool-batch': {
        const batch: SentBatch = { kind: 'batch', calls: new Map() };
        this.sent[index] = batch;
        this.extend(chunk, batch, out);
        return;
      }
      default:
        this.sent[index] = { kind: 'whole' };
        out.push(this.whole(chunk));
    }
  }

  private whole(
    chunk: Exclude<Chunk, TextChunk | ThinkingChunk | { type: 'tool-batch' }>,
  ): UIMessageChunk {
    const metadata =
      'providerMetadata' in chunk && chunk.providerMetadata !== undefined
        ? { providerMetadata: chunk.providerMetadata }
        : {};
    switch (chunk.type) {
      case 'error':
        return {
          type: CHUNKLOG_DATA_PARTS.error,
          data: {
            message: chunk.message,
            ...(chunk.statusCode === undefined ? {} : { statusCode: chunk.statusCode }),
          },
        };
      case 'system':
        return { type: CHUNKLOG_DATA_PARTS.system, data: { kind: chunk.kind, text: chunk.text } };
      case 'steering':
        return {
          type: 'steering-message',
          id: chunk.id,
          parts: [{ type: 'text', text: chunk.text }],
        };
      case 'source':
        return sourceChunk(chunk);
      case 'file':
        return {
          type: chunk.reasoning === true ? 'reasoning-file' : 'file',
          mediaType: chunk.mediaType,
          url: fileUrl(chunk.mediaType, chunk),
          ...metadata,
        };
      case 'custom':
        return { type: 'custom', kind: chunk.kind as `${string}.${string}`, ...metadata };
      case 'data':
        return {
          type: `data-${chunk.name}`,
          ...(chunk.id === undefined ? {} : { id: chunk.id }),
          data: chunk.data,
        };
      default: {
        const unknown: never = chunk;
        throw new Error(`unknown chunk type ${(unknown as { type: string }).type}`);
      }
    }
  }

  private extend(chunk: Chunk, sent: Sent, out: UIMessageChunk[]): void {
    if (sent.kind === 'block' && (chunk.type === 'text' || chunk.type === 'thinking')) {
      if (!sent.open) return;
      const metadata = json(chunk.providerMetadata);
      const delta = chunk.text.slice(sent.length);
      if (delta === '' && metadata === sent.metadata) return;
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
      for (const call of chunk.calls) this.extendCall(call, sent, out);
    }
  }

  private extendCall(call: ToolCallEntry, batch: SentBatch, out: UIMessageChunk[]): void {
    const head = {
      toolCallId: call.id,
      toolName: call.name,
      ...(call.providerExecuted === undefined ? {} : { providerExecuted: call.providerExecuted }),
      ...(call.providerMetadata === undefined ? {} : { providerMetadata: call.providerMetadata }),
      ...(call.dynamic === true ? { dynamic: true } : {}),
      ...(call.title === undefined ? {} : { title: call.title }),
    };
    let sent = batch.calls.get(call.id);
    if (sent === undefined) {
      sent = {
        inputText: 0,
        input: false,
        approval: 'none',
        preliminary: undefined,
        result: false,
        progress: undefined,
      };
      batch.calls.set(call.id, sent);
      if (call.input === undefined) out.push({ type: 'tool-input-start', ...head });
    }
    if (
      call.input === undefined &&
      call.inputText !== undefined &&
      call.inputText.length > sent.inputText
    ) {
      out.push({
        type: 'tool-input-delta',
        toolCallId: call.id,
        inputTextDelta: call.inputText.slice(sent.inputText),
      });
      sent.inputText = call.inputText.length;
    }
    if (call.input !== undefined && !sent.input) {
      out.push({ type: 'tool-input-available', ...head, input: call.input });
      sent.input = true;
    }
    const approval = call.approval;
    if (approval !== undefined && sent.approval === 'none') {
      const signature = (approval as { signature?: unknown }).signature;
      out.push({
        type: 'tool-approval-request',
        approvalId: approval.id,
        toolCallId: call.id,
        ...(approval.approved === undefined && approval.reason !== undefined
          ? { reason: approval.reason }
          : {}),
        ...(approval.isAutomatic === undefined ? {} : { isAutomatic: approval.isAutomatic }),
        ...(typeof signature === 'string' ? { signature } : {}),
      });
      sent.approval = 'requested';
    }
    if (approval?.approved !== undefined && sent.approval !== 'answered') {
      out.push({
        type: 'tool-approval-response',
        approvalId: approval.id,
        approved: approval.approved,
        ...(approval.reason === undefined ? {} : { reason: approval.reason }),
      });
      sent.approval = 'answered';
    }
    if (call.result === undefined && call.preliminary !== undefined) {
      const preliminary = json(call.preliminary);
      if (preliminary !== sent.preliminary) {
        out.push({
          type: 'tool-output-available',
          toolCallId: call.id,
          output: call.preliminary,
          preliminary: true,
        });
        sent.preliminary = preliminary;
      }
    }
    if (call.result !== undefined && !sent.result) {
      const executed =
        call.providerExecuted === undefined ? {} : { providerExecuted: call.providerExecuted };
      if (call.denied === true && approval !== undefined) {
        out.push({ type: 'tool-output-denied', toolCallId: call.id });
      } else if (call.isError === true) {
        out.push({
          type: 'tool-output-error',
          toolCallId: call.id,
          errorText: typeof call.result === 'string' ? call.result : JSON.stringify(call.result),
          ...executed,
        });
      } else {
        out.push({
          type: 'tool-output-available',
          toolCallId: call.id,
          output: call.result,
          ...executed,
        });
      }
      sent.result = true;
    }
    if (call.progress !== undefined && call.progress.length !== sent.progress) {
      out.push({
        type: CHUNKLOG_DATA_PARTS.toolProgress,
        id: call.id,
        data: { toolCallId: call.id, text: call.progress },
      });
      sent.progress = call.progress.length;
    }
  }
}
