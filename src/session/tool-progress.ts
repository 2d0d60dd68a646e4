import type { ToolSet } from 'ai';
import { ChunklogError } from '../errors/index.js';
import { invalidOption } from '../errors/invalid-option.js';
import type { LiveTurn } from './live-turn.js';

/**
 * Appends progress text to the tool call it was made for (see {@link toolProgress}). Returns
 * true when the text was recorded; false when the call no longer runs (its turn was cancelled or
 * ended) or the tool does not run in a chunklog session, and nothing happened.
 *
 * @example
 * ```ts
 * const progress: ToolProgress = toolProgress(options);
 * child.stdout.on('data', (data) => progress(String(data)));
 * ```
 */
export type ToolProgress = (text: string) => boolean;

/** The reporters of the calls a session runs, keyed by the options object `execute` receives. */
const reporters = new WeakMap<object, ToolProgress>();

/**
 * Checks progress text: a non-empty string.
 *
 * @param text - the untrusted text
 * @param where - the public function, for the message
 * @returns the text
 * @throws {ChunklogError} `invalid-option` (option `text`)
 */
export function checkProgressText(text: unknown, where: string): string {
  if (typeof text !== 'string' || text === '') {
    invalidOption(where, 'text', 'progress `text` must be a non-empty string', text);
  }
  return text;
}

const outsideSession: ToolProgress = (text) => {
  checkProgressText(text, 'toolProgress');
  return false;
};

/**
 * The progress reporter of a tool call, from inside the tool's `execute`: give it the options
 * object `execute` receives (its second argument). Each text it is given is appended to the
 * call's progress — a `tool-progress { toolCallId, text }` event that subscribers see at once, and
 * the `progress` of the call's stored `tool_result` row — like a shell's output. Progress text is
 * never sent to the model: the call's result is.
 *
 * The same tool also runs outside a chunklog session (plain `streamText`): there the reporter
 * does nothing and returns false. A line that arrives after the call ended (a late callback of a
 * cancelled command) is dropped the same way, rather than thrown from where it was reported.
 *
 * @param options - the options object the tool's `execute` received (its identity matters:
 *   pass it as it is, not a copy)
 * @returns the reporter; it throws `invalid-option` for text that is not a non-empty string
 *
 * @example
 * ```ts
 * import { tool } from 'ai';
 * import { toolProgress } from 'chunklog/session';
 *
 * const build = tool({
 *   description: 'Build the project',
 *   inputSchema: z.object({}),
 *   execute: async (_input, options) => {
 *     const progress = toolProgress(options);
 *     progress('compiling…\n');
 *     await compile({ signal: options.abortSignal });
 *     progress('linking…\n');
 *     return { ok: true };
 *   },
 * });
 * ```
 */
export function toolProgress(options: { readonly toolCallId: string }): ToolProgress {
  if (typeof options !== 'object' || options === null) return outsideSession;
  return reporters.get(options) ?? outsideSession;
}

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return (
    value != null &&
    typeof (value as Partial<AsyncIterable<unknown>>)[Symbol.asyncIterator] === 'function'
  );
}

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return (
    value != null &&
    (typeof value === 'object' || typeof value === 'function') &&
    typeof (value as Partial<PromiseLike<unknown>>).then === 'function'
  );
}

async function* tracked<T>(iterable: AsyncIterable<T>, done: () => void): AsyncGenerator<T> {
  try {
    yield* iterable;
  } finally {
    done();
  }
}

type Execute = (input: unknown, options: { readonly toolCallId: string }) => unknown;

/**
 * The turn's tools, each `execute` wrapped so that the turn knows which calls run (progress is
 * accepted for those only) and {@link toolProgress} finds the turn from the options object.
 * Tools without `execute` (provider tools, client-side tools) are passed as they are.
 *
 * @param tools - the session's tools
 * @param live - the turn they run in
 * @returns the tools to give `streamText`
 */
export function trackTools(tools: ToolSet, live: LiveTurn): ToolSet {
  const wrapped: Record<string, unknown> = {};
  for (const [name, tool] of Object.entries(tools)) {
    const execute = (tool as { execute?: unknown }).execute;
    if (typeof execute !== 'function') {
      wrapped[name] = tool;
      continue;
    }
    const run = (input: unknown, options: { readonly toolCallId: string }): unknown => {
      const id = options.toolCallId;
      live.toolStarted(id);
      reporters.set(options, (text) =>
        live.reportProgress(id, checkProgressText(text, 'toolProgress')),
      );
      const done = () => live.toolEnded(id);
      let result: unknown;
      try {
        result = (execute as Execute).call(tool, input, options);
      } catch (error) {
        done();
        throw error;
      }
      if (isAsyncIterable(result)) return tracked(result, done);
      if (isPromiseLike(result)) {
        return Promise.resolve(result).finally(done);
      }
      done();
      return result;
    };
    wrapped[name] = { ...tool, execute: run };
  }
  return wrapped as ToolSet;
}

/**
 * The error of progress reported for a call that does not run in the live turn.
 *
 * @param toolCallId - the call
 * @param threadId - the session's thread
 * @returns the error to throw
 */
export function notRunning(toolCallId: string, threadId: string): ChunklogError {
  return new ChunklogError(
    'tool-call-not-running',
    `reportToolProgress: tool call ${JSON.stringify(toolCallId)} is not running in the live turn of thread ${threadId}`,
    { option: 'toolCallId', value: toolCallId, threadId },
  );
}
