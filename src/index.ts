/**
 * chunklog core: the chunk schema, the AI SDK adapter, the pure turn reducer, the row
 * transforms and the model-message builder. Browser-safe: no Node built-ins, no database.
 *
 * @packageDocumentation
 */
export * from './errors/index.js';
export * from './events/index.js';
export * from './model-messages/index.js';
export * from './reducer/index.js';
export * from './schema/index.js';
export * from './transforms/index.js';
export * from './ui-messages/index.js';
