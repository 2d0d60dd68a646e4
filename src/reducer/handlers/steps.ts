import type { Chunk, ThinkingChunk } from '../../schema/chunk.js';
import type { ChunkEventOf } from '../../schema/chunk-event.js';
import type { TurnStateImpl } from '../turn-state.js';
import type { StepSummary } from '../types.js';
import { closeAll } from './blocks.js';

/**
 * `step-start`: closes every open block and moves to the next step: the explicit number when
 * there is one (never backwards), otherwise 0 for the first step of the turn and one more after.
 */
export function stepStart(d: TurnStateImpl, e: ChunkEventOf<'step-start'>): void {
  closeAll(d);
  if (e.step !== undefined) d.step = Math.max(d.step, e.step);
  else if (d.stepStarted) d.step += 1;
  d.stepStarted = true;
  d.stepModelId = e.modelId;
}

/**
 * `step-finish`: records the step's summary and stamps the answering model on the step's
 * thinking chunks that do not name one yet (a signature is only valid for its model).
 */
export function stepFinish(d: TurnStateImpl, e: ChunkEventOf<'step-finish'>): void {
  const step = e.step ?? d.step;
  const summary: StepSummary = {
    step,
    finishReason: e.finishReason,
    ...(e.usage !== undefined && { usage: e.usage }),
    ...(e.modelId !== undefined && { modelId: e.modelId }),
    ...(e.providerMetadata !== undefined && { providerMetadata: e.providerMetadata }),
  };
  d.steps = [...d.steps, summary];
  if (e.modelId !== undefined) stampModel(d, step, e.modelId);
}

function stampModel(d: TurnStateImpl, step: number, modelId: string): void {
  // The step's chunks are at the end; a steering chunk of the next step may follow them.
  for (let index = d.end() - 1; index >= d.evicted; index--) {
    const chunk = d.get(index) as Chunk;
    if (chunk.step < step && chunk.type !== 'steering') return;
    if (chunk.type === 'thinking' && chunk.step === step && chunk.modelId === undefined) {
      const stamped: ThinkingChunk = { ...chunk, modelId };
      d.replace(index, stamped);
    }
  }
}
