import type { UIMessage } from 'ai';
import type { ChatRole, Chunk, ProviderMetadata, Source, ToolCallEntry } from '../schema/index.js';
import type { AnyUIPart } from './chunk-to-parts.js';
import { fromUICitation } from './citations.js';
import { dataPartToChunk, deferredResultData, toolProgressData } from './data-part-to-chunk.js';
import { CHUNKLOG_DATA_PARTS } from './data-parts.js';
import { takeDeferredOutcome } from './deferred-outcomes.js';
import { fileLocation } from './file-url.js';
import { invalidUIMessage, type UIMessageLocation } from './invalid-ui-message.js';
import { initialStep } from './steps.js';
import type { AnyToolUIPart } from './tool-call-to-part.js';
import { type ReportUnsupported, toolPartToCall } from './tool-part-to-call.js';

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

function metadataOf(part: { providerMetadata?: unknown }): { providerMetadata?: ProviderMetadata } {
  return part.providerMetadata === undefined
    ? {}
    : { providerMetadata: part.providerMetadata as ProviderMetadata };
}

/**
 * Whether a UI message is a chunklog system message, as {@link toUIMessages} renders one: an
 * assistant message whose parts are all `data-chunklog-system` parts, or whose id is
 * `${turnId}:system`.
 *
 * @param message - a UI message
 * @param idRole - the role its id names, when it is a chunklog id
 */
export function isSystemUIMessage(message: UIMessage, idRole: ChatRole | undefined): boolean {
  if (message.role === 'system' || idRole === 'system') return true;
  return (
    message.role === 'assistant' &&
    idRole !== 'assistant' &&
    message.parts.length > 0 &&
    message.parts.every((part) => part.type === CHUNKLOG_DATA_PARTS.system)
  );
}

/**
 * The chunks a UI message's parts record, in order: each `step-start` part begins the next step,
 * consecutive tool parts of a step form one tool-batch (with the progress text of their
 * `data-chunklog-tool-progress` parts), chunklog's data parts become the system, error and tool
 * progress they came from, and the app's data parts become `data` chunks. A `system` UI message's
 * text becomes system notices.
 *
 * @param message - a validated UI message, JSON only
 * @param index - its index, for errors
 * @param role - its chunklog role
 * @param unsupported - called for each field chunklog cannot keep
 * @returns the message's chunks (without its envelope)
 * @throws {ChunklogError} `invalid-ui-message` for a malformed chunklog data part or a steering
 *   message chunklog cannot hold
 */
export function uiMessageToChunks(
  message: UIMessage,
  index: number,
  role: ChatRole,
  unsupported: ReportUnsupported,
): Chunk[] {
  const chunks: Chunk[] = [];
  const calls = new Map<string, Mutable<ToolCallEntry>>();
  let step = initialStep(role);
  let batch: Mutable<ToolCallEntry>[] | undefined;
  let deferredBatch: ToolCallEntry[] | undefined;
  const at = () => Math.max(step, 0);
  const parts = message.parts as AnyUIPart[];
  for (const [partIndex, part] of parts.entries()) {
    const location: UIMessageLocation = { index, part: partIndex, partType: part.type };
    const isTool = part.type === 'dynamic-tool' || part.type.startsWith('tool-');
    if (part.type === CHUNKLOG_DATA_PARTS.deferredResult) {
      const data = deferredResultData((part as { data?: unknown }).data, location);
      const call = calls.get(data.toolCallId);
      if (call === undefined) {
        throw invalidUIMessage(
          `a deferred result of call ${data.toolCallId}, which this message does not make`,
          { ...location, field: ['data', 'toolCallId'] },
          { value: data.toolCallId },
        );
      }
      batch = undefined;
      if (deferredBatch === undefined) {
        deferredBatch = [];
        chunks.push({ type: 'tool-batch', step: at(), calls: deferredBatch });
      }
      deferredBatch.push(takeDeferredOutcome(call));
      continue;
    }
    deferredBatch = undefined;
    if (isTool) {
      const call = toolPartToCall(part as AnyToolUIPart, location, unsupported);
      if (batch === undefined) {
        batch = [];
        chunks.push({ type: 'tool-batch', step: at(), calls: batch });
      }
      batch.push(call);
      calls.set(call.id, call);
      continue;
    }
    if (part.type === CHUNKLOG_DATA_PARTS.toolProgress) {
      const data = toolProgressData((part as { data?: unknown }).data, location);
      const call = calls.get(data.toolCallId);
      if (call === undefined) {
        throw invalidUIMessage(
          `tool progress for call ${data.toolCallId}, which this message does not make`,
          { ...location, field: ['data', 'toolCallId'] },
          { value: data.toolCallId },
        );
      }
      call.progress = data.text;
      continue;
    }
    batch = undefined;
    switch (part.type) {
      case 'step-start':
        step++;
        break;
      case 'text':
        if (role === 'system') {
          chunks.push({ type: 'system', step: at(), kind: 'notice', text: part.text });
        } else {
          chunks.push({
            type: 'text',
            step: at(),
            text: part.text,
            ...metadataOf(part),
            ...(part.citations === undefined
              ? {}
              : { citations: part.citations.map(fromUICitation) }),
          });
        }
        break;
      case 'reasoning':
        chunks.push({
          type: 'thinking',
          step: at(),
          text: part.text,
          ...(part.id === undefined ? {} : { id: part.id }),
          ...metadataOf(part),
        });
        break;
      case 'custom':
        chunks.push({ type: 'custom', step: at(), kind: part.kind, ...metadataOf(part) });
        break;
      case 'source-url':
      case 'source-document': {
        const { type, sourceId, ...rest } = part;
        const source = {
          sourceType: type === 'source-url' ? 'url' : 'document',
          id: sourceId,
          ...rest,
        } as Source;
        chunks.push({ type: 'source', step: at(), source });
        break;
      }
      case 'file':
        if (part.providerReference !== undefined) {
          unsupported('providerReference', { ...location, field: ['providerReference'] });
        }
        chunks.push({
          type: 'file',
          step: at(),
          mediaType: part.mediaType,
          ...fileLocation(part.mediaType, part.url),
          ...(part.filename === undefined ? {} : { filename: part.filename }),
          ...metadataOf(part),
        });
        break;
      case 'reasoning-file':
        chunks.push({
          type: 'file',
          step: at(),
          mediaType: part.mediaType,
          ...fileLocation(part.mediaType, part.url),
          ...metadataOf(part),
          reasoning: true,
        });
        break;
      case 'steering-message': {
        const steeringStep = role === 'assistant' ? Math.max(step + 1, 0) : at();
        for (const [i, inner] of part.parts.entries()) {
          const innerLocation = { ...location, field: ['parts', i] };
          if (inner.type !== 'text') {
            throw invalidUIMessage(
              'a steering message with a file cannot be kept: chunklog steering messages are text',
              innerLocation,
              { value: inner },
            );
          }
          if (inner.providerMetadata !== undefined) {
            unsupported('providerMetadata', {
              ...innerLocation,
              field: ['parts', i, 'providerMetadata'],
            });
          }
          chunks.push({ type: 'steering', step: steeringStep, id: part.id, text: inner.text });
        }
        break;
      }
      default:
        chunks.push(dataPartToChunk(part as { type: string }, at(), location));
    }
  }
  return chunks;
}
