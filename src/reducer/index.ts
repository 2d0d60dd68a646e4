/**
 * The pure turn reducer: chunk events to the ordered chunks of a turn.
 *
 * @module
 */
export { evictLeadingChunks } from './evict.js';
export { foldStream } from './fold-stream.js';
export { foldTurn } from './fold-turn.js';
export { mergeProviderMetadata } from './metadata.js';
export { reduceTurn } from './reduce-turn.js';
export { createTurnState } from './turn-state.js';
export type { StepSummary, TurnState, TurnStateInit } from './types.js';
