import type { ChunkEventOf } from '../../schema/chunk-event.js';
import { pickErrorInfo } from '../../schema/error-info.js';
import { noticeFields } from '../../schema/system-message.js';
import type { TurnStateImpl } from '../turn-state.js';

// Each of these events is its own chunk, never coalesced, in the current step.

/**
 * `custom`: provider content (a fallback marker, a refusal), in place. A `{provider}.fallback`
 * whose metadata names the model it fell back to (`to.model`, as Anthropic's does) switches the
 * model of the rest of the step: thinking that follows is that model's, and so is its signature.
 */
export function custom(d: TurnStateImpl, e: ChunkEventOf<'custom'>): void {
  const fallbackModel = fallbackModelOf(e);
  if (fallbackModel !== undefined) d.stepModelId = fallbackModel;
  d.append({
    type: 'custom',
    step: d.step,
    kind: e.kind,
    ...(e.providerMetadata !== undefined && { providerMetadata: e.providerMetadata }),
  });
}

/** `source`: a source the model used. */
export function source(d: TurnStateImpl, e: ChunkEventOf<'source'>): void {
  d.append({ type: 'source', step: d.step, source: e.source });
}

/** `file`: a file the model (or its reasoning) produced. */
export function file(d: TurnStateImpl, e: ChunkEventOf<'file'>): void {
  d.append({
    type: 'file',
    step: d.step,
    mediaType: e.mediaType,
    ...(e.data !== undefined && { data: e.data }),
    ...(e.url !== undefined && { url: e.url }),
    ...(e.filename !== undefined && { filename: e.filename }),
    ...(e.providerMetadata !== undefined && { providerMetadata: e.providerMetadata }),
    ...(e.reasoning !== undefined && { reasoning: e.reasoning }),
  });
}

/** `steering-message`: the user's message, at its position, in the step that received it. */
export function steeringMessage(d: TurnStateImpl, e: ChunkEventOf<'steering-message'>): void {
  d.append({ type: 'steering', step: e.step, id: e.id, text: e.text });
}

/** `error`: an error chunk. */
export function error(d: TurnStateImpl, e: ChunkEventOf<'error'>): void {
  d.append({ type: 'error', step: d.step, ...pickErrorInfo(e) });
}

/** `system`: a system notice chunk. */
export function system(d: TurnStateImpl, e: ChunkEventOf<'system'>): void {
  d.append({ type: 'system', step: d.step, ...noticeFields(e) });
}

function fallbackModelOf(e: ChunkEventOf<'custom'>): string | undefined {
  const dot = e.kind.indexOf('.');
  if (dot < 0 || e.kind.slice(dot + 1) !== 'fallback') return undefined;
  const to = e.providerMetadata?.[e.kind.slice(0, dot)]?.to;
  if (to === null || typeof to !== 'object' || Array.isArray(to)) return undefined;
  return typeof to.model === 'string' ? to.model : undefined;
}
