import type { ToolSet } from 'ai';
import { validateOptions } from './options.js';
import { createSession } from './session.js';
import type { AgentSession, AgentSessionOptions } from './types.js';

/**
 * Creates a headless agent session on one thread: each `send` runs a turn end to end (model →
 * events → reducer → subscribers → store) with no glue of the app's own, and the next turn's
 * model input is rebuilt from the store, so a new session over the same store (a restart) sends
 * the model exactly what this one would have.
 *
 * - `send` while a turn runs queues a new turn, in order; `steer` joins the running turn at its
 *   next step boundary (stored in place as a `steering` chunk); `cancel` ends the running turn
 *   with a `cancelled` system chunk, keeping what it had.
 * - A provider error becomes an `error` chunk with its status code; with `fallbackModels`, a
 *   429, 529/503 or other 5xx moves to the next model and records a `model-changed` chunk.
 * - `notify` routes a system event into the running turn, or into a system turn of its own.
 * - Anthropic prompt caching is applied to every step when `caching` is `'anthropic'` (the
 *   default for Anthropic models).
 *
 * @param options - the store, thread, model and the rest (see {@link AgentSessionOptions})
 * @returns the session
 * @throws {ChunklogError} `invalid-option`, naming the offending option
 *
 * @example
 * ```ts
 * import { anthropic } from '@ai-sdk/anthropic';
 * import { createAgentSession } from 'chunklog/session';
 * import { createChunkStore } from 'chunklog/store';
 *
 * const store = createChunkStore({ sqlite: 'chat.db' });
 * await store.migrate();
 * const session = createAgentSession({ store, threadId: 'thread-1', model: anthropic('claude-sonnet-4-5') });
 * const turn = session.send('Explain X');
 * for await (const event of turn) if (event.type === 'text-delta') process.stdout.write(event.text);
 * console.log((await turn.rows).length, 'rows stored');
 * ```
 */
export function createAgentSession<TOOLS extends ToolSet = ToolSet>(
  options: AgentSessionOptions<TOOLS>,
): AgentSession {
  return createSession(validateOptions(options));
}
