// The core pieces a session composes, in the order of the data flow: AI SDK part → events →
// turn state → row drafts; and stored messages → model messages (+ caching). The one place the
// session imports them from.
export { toChunkEvents } from '../events/index.js';
export { anthropicCachedSystem, applyAnthropicCaching } from '../model-messages/index.js';
export { modelMessagesOf } from '../model-messages/to-model-messages.js';
export { createTurnState, reduceTurn, type TurnState } from '../reducer/index.js';
export { explodeChunks, explodeTurn } from '../transforms/explode-turn.js';
export { LiveRedaction } from '../transforms/redact-events.js';
export type { Redactor } from '../transforms/redactor.js';
