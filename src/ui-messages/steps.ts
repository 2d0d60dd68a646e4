import type { Chunk } from '../schema/index.js';

/**
 * The step that must have started (with a `step-start` part) before `chunk` is shown. A steering
 * message belongs before the output of the step that received it, as in the AI SDK: it only needs
 * the step before its own.
 *
 * @param chunk - the next chunk of a message
 * @returns the step number the UI must have reached
 */
export function stepBefore(chunk: Chunk): number {
  return chunk.type === 'steering' ? chunk.step - 1 : chunk.step;
}

/**
 * The step a message has reached before its first part: assistant messages begin with a
 * `step-start` for step 0, user and system messages do not.
 *
 * @param role - the chunklog role of the message
 */
export function initialStep(role: 'user' | 'assistant' | 'system'): number {
  return role === 'assistant' ? -1 : 0;
}
