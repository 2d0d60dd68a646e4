import type { ModelMessage, ToolSet } from 'ai';
import { ChunklogError } from '../errors/chunklog-error.js';
import { readOptions } from '../errors/invalid-option.js';
import type { ChunkEvent } from '../schema/chunk-event.js';
import type { ChunkRow, ChunkRowDraft } from '../schema/chunk-row.js';
import type { JSONValue } from '../schema/json.js';
import { toolResultDraft, unansweredCalls } from './recovery.js';

/**
 * What a session does with a turn another holder left `running` (it died): `'close'` ends it
 * with error results for its unanswered tool calls and an `interrupted` system chunk;
 * `'continue'` runs the model again from the turn's stored steps, under the same turn id.
 *
 * @example
 * ```ts
 * const policy: RecoveryPolicy = 'continue';
 * ```
 */
export type RecoveryPolicy = 'close' | 'continue';

/**
 * A tool call an interrupted turn stored without a result, as the `continue` policy asks
 * whether it may run again.
 *
 * @example
 * ```ts
 * const safe = (call: InterruptedToolCall) => call.toolName === 'read_file';
 * ```
 */
export interface InterruptedToolCall {
  readonly toolCallId: string;
  readonly toolName: string;
  /** The call's input, as stored. */
  readonly input: JSONValue | undefined;
}

/**
 * The `recovery` option in its object form: the policy, and (for `'continue'`) which unanswered
 * tool calls may run again.
 *
 * @example
 * ```ts
 * const recovery: SessionRecoveryOptions = { policy: 'continue', rerunTools: ['read_file', 'list_files'] };
 * ```
 */
export interface SessionRecoveryOptions {
  /** `'close'` (the default) or `'continue'`. */
  readonly policy?: RecoveryPolicy | undefined;
  /**
   * With `'continue'`: the tools whose unanswered calls are safe to run again (they have no
   * effect that running twice would repeat), by name, or a predicate of the call. Every other
   * unanswered call gets an error result. Default: none is run again.
   */
  readonly rerunTools?: readonly string[] | ((call: InterruptedToolCall) => boolean) | undefined;
}

/** The checked `recovery` option. */
export interface RecoveryConfig {
  readonly policy: RecoveryPolicy;
  /** Whether an unanswered call may run again. */
  readonly rerun: (call: InterruptedToolCall) => boolean;
}

const never = (): boolean => false;

/**
 * Checks the `recovery` option.
 *
 * @returns the recovery configuration (`close`, nothing run again, by default)
 * @throws {ChunklogError} `invalid-option`, naming the option
 */
export function checkRecoveryOption(value: unknown): RecoveryConfig {
  const invalid = (option: string, message: string, v: unknown): never => {
    throw new ChunklogError('invalid-option', `createAgentSession: ${message}`, {
      option,
      value: v,
    });
  };
  if (value === undefined) return { policy: 'close', rerun: never };
  if (value === 'close' || value === 'continue') return { policy: value, rerun: never };
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return invalid(
      'recovery',
      "`recovery` must be 'close', 'continue' or { policy, rerunTools }",
      value,
    );
  }
  const o = readOptions(value, 'createAgentSession', ['policy', 'rerunTools'], 'recovery');
  const policy = o.policy ?? 'close';
  if (policy !== 'close' && policy !== 'continue') {
    invalid('recovery.policy', "`recovery.policy` must be 'close' or 'continue'", policy);
  }
  const tools = o.rerunTools;
  let rerun: (call: InterruptedToolCall) => boolean = never;
  if (typeof tools === 'function') {
    rerun = (call) => (tools as (call: InterruptedToolCall) => unknown)(call) === true;
  } else if (Array.isArray(tools)) {
    if (!tools.every((name) => typeof name === 'string' && name !== '')) {
      invalid(
        'recovery.rerunTools',
        '`recovery.rerunTools` must list tool names (non-empty strings)',
        tools,
      );
    }
    const names = new Set<string>(tools as string[]);
    rerun = (call) => names.has(call.toolName);
  } else if (tools !== undefined) {
    invalid(
      'recovery.rerunTools',
      '`recovery.rerunTools` must be a list of tool names or a function of the call',
      tools,
    );
  }
  return { policy: policy as RecoveryPolicy, rerun };
}

/** The text of the `resumed` system chunk that marks where a continued turn picked up. */
export const RESUMED_TEXT =
  'The turn was resumed: its writer stopped before the turn ended; the steps above are the ones it finished, and the model continued from them.';

/** The error result of an unanswered call that is not run again. */
export const NOT_RERUN_RESULT =
  'The turn was interrupted before this tool call returned; it was not run again (its tool is not marked safe to re-run).';

/** How the `continue` policy picks up a turn. */
export interface ResumePlan {
  /** The rows to append before the model runs: results of unanswered calls, then `resumed`. */
  readonly drafts: ChunkRowDraft[];
  /** The same, as the events the session's subscribers get. */
  readonly events: ChunkEvent[];
  /** The last stored step of the model (-1 for none): its next step is the one after it. */
  readonly lastStep: number;
  /** Whether the stored steps already end the turn (the last step called no tool): no model call. */
  readonly finished: boolean;
}

/** Options of {@link planResume}. */
export interface PlanResumeOptions {
  readonly tools: ToolSet | undefined;
  readonly rerun: (call: InterruptedToolCall) => boolean;
  /** The model input before the turn's next step (given to a tool run again). */
  readonly messages: () => Promise<ModelMessage[]>;
  readonly signal: AbortSignal;
}

/** Runs a tool's `execute` again; a streaming tool's last value is its result. */
async function execute(
  tools: ToolSet,
  call: InterruptedToolCall,
  messages: ModelMessage[],
  signal: AbortSignal,
): Promise<{ result: unknown; isError: boolean }> {
  const run = tools[call.toolName]?.execute as
    | ((input: unknown, options: unknown) => unknown)
    | undefined;
  if (run === undefined) return { result: NOT_RERUN_RESULT, isError: true };
  try {
    const output = await run(call.input, {
      toolCallId: call.toolCallId,
      messages,
      abortSignal: signal,
      context: undefined,
    });
    if (typeof output === 'object' && output !== null && Symbol.asyncIterator in output) {
      let last: unknown;
      for await (const value of output as AsyncIterable<unknown>) last = value;
      return { result: last ?? null, isError: false };
    }
    return { result: output ?? null, isError: false };
  } catch (error) {
    return { result: error instanceof Error ? error.message : String(error), isError: true };
  }
}

/**
 * What the `continue` policy does with an interrupted turn's stored rows: each tool call stored
 * without a result (not provider-executed) runs again when `rerun` says it is safe, else gets an
 * error result; then a `resumed` system chunk marks the resume point. A step the writer had not
 * finished was never stored (steps are stored when they end), so there is nothing of it to drop.
 *
 * @param turnId - the turn
 * @param rows - its stored rows (user message first)
 * @param options - the session's tools, the re-run decision, the model input for re-run tools
 * @returns the rows to append and where the model picks up
 */
export async function planResume(
  turnId: string,
  rows: readonly ChunkRow[],
  options: PlanResumeOptions,
): Promise<ResumePlan> {
  // The last step the model took (-1: none, only the user's message is stored).
  let lastStep = -1;
  for (const row of rows) if (!isUserMessage(row)) lastStep = Math.max(lastStep, row.step);
  const drafts: ChunkRowDraft[] = [];
  const events: ChunkEvent[] = [];
  let messages: ModelMessage[] | undefined;
  for (const row of unansweredCalls(rows)) {
    const call: InterruptedToolCall = {
      toolCallId: row.data.id,
      toolName: row.data.name,
      input: row.data.input,
    };
    let outcome: { result: unknown; isError: boolean } = {
      result: NOT_RERUN_RESULT,
      isError: true,
    };
    if (options.tools !== undefined && options.rerun(call)) {
      messages ??= await options.messages();
      outcome = await execute(options.tools, call, messages, options.signal);
    }
    const result = outcome.result as JSONValue;
    drafts.push(toolResultDraft(row, result, outcome.isError));
    events.push({
      type: 'tool-result',
      toolCallId: call.toolCallId,
      toolName: call.toolName,
      output: result,
      ...(outcome.isError ? { isError: true } : {}),
    });
  }
  drafts.push({
    turnId,
    step: Math.max(lastStep, 0),
    role: 'assistant',
    type: 'system',
    data: { kind: 'resumed', text: RESUMED_TEXT },
  });
  events.push({ type: 'system', kind: 'resumed', text: RESUMED_TEXT });
  return { drafts, events, lastStep, finished: endsTheTurn(rows, lastStep) };
}

/**
 * Whether the stored steps already end the turn: its last step is an assistant step that called
 * no tool (the model's answer). A turn stored up to its user message, or whose last step called
 * tools or took a steering message, needs the model again.
 */
function endsTheTurn(rows: readonly ChunkRow[], lastStep: number): boolean {
  const last = rows.filter((row) => row.step === lastStep && !isUserMessage(row));
  if (last.length === 0 || rows.some((r) => r.step === lastStep && r.type === 'steering'))
    return false;
  if (last.some((row) => row.type === 'tool_call' || row.type === 'tool_result')) return false;
  return last.some((row) => row.type === 'text' || row.type === 'thinking');
}

/** Whether a row is part of the user's message that opened the turn (a steering row is not). */
function isUserMessage(row: ChunkRow): boolean {
  return row.role === 'user' && row.type !== 'steering';
}
