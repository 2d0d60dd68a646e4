// Pieces of chunklog core the session tests refer to.
export { UNANSWERED_TOOL_CALL_TEXT } from '../../src/model-messages/index.js';
