// Small builders for chunk events, so that tests read like the event streams they describe.
import type { ChunkEvent, ChunkEventOf, ChunkEventType } from '../../src/schema/index.js';

type Body<T extends ChunkEventType> = Omit<ChunkEventOf<T>, 'type'>;

/** An event of type `type` with the given body. */
export function ev<T extends ChunkEventType>(type: T, body: Body<T>): ChunkEventOf<T> {
  return { type, ...body } as ChunkEventOf<T>;
}

/** Shorthands for the common events. */
export const e = {
  turnStart: (turnId = 't1', assistantId?: string): ChunkEvent =>
    ev('turn-start', { turnId, ...(assistantId !== undefined && { assistantId }) }),
  turnEnd: (finishReason = 'stop'): ChunkEvent => ev('turn-end', { finishReason }),
  stepStart: (step?: number, modelId?: string): ChunkEvent =>
    ev('step-start', {
      ...(step !== undefined && { step }),
      ...(modelId !== undefined && { modelId }),
    }),
  stepFinish: (finishReason = 'stop', modelId?: string): ChunkEvent =>
    ev('step-finish', { finishReason, ...(modelId !== undefined && { modelId }) }),
  text: (text: string, id?: string): ChunkEvent =>
    ev('text-delta', { text, ...(id !== undefined && { id }) }),
  textStart: (id?: string): ChunkEvent => ev('text-start', id === undefined ? {} : { id }),
  textEnd: (id?: string): ChunkEvent => ev('text-end', id === undefined ? {} : { id }),
  think: (text: string, id?: string): ChunkEvent =>
    ev('reasoning-delta', { text, ...(id !== undefined && { id }) }),
  thinkStart: (id?: string): ChunkEvent => ev('reasoning-start', id === undefined ? {} : { id }),
  thinkEnd: (id?: string): ChunkEvent => ev('reasoning-end', id === undefined ? {} : { id }),
  call: (
    toolCallId: string,
    toolName = 'tool',
    input: ChunkEventOf<'tool-call'>['input'] = {},
  ): ChunkEvent => ev('tool-call', { toolCallId, toolName, input }),
  result: (toolCallId: string, output: ChunkEventOf<'tool-result'>['output'] = 'ok'): ChunkEvent =>
    ev('tool-result', { toolCallId, output }),
  progress: (toolCallId: string, text: string): ChunkEvent =>
    ev('tool-progress', { toolCallId, text }),
  error: (message = 'boom', statusCode?: number): ChunkEvent =>
    ev('error', { message, ...(statusCode !== undefined && { statusCode }) }),
  system: (text = 'notice', kind: ChunkEventOf<'system'>['kind'] = 'notice'): ChunkEvent =>
    ev('system', { kind, text }),
};
