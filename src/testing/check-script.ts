import { z } from 'zod';
import { ChunklogError } from '../errors/chunklog-error.js';
import { firstIssue, formatPath, previewValue } from '../schema/parse.js';
import { AI_SDK_FINISH_REASONS } from '../schema/usage.js';
import type { Script, ScriptedStep } from './script.js';

const metadata = z.record(z.string(), z.record(z.string(), z.unknown())).optional();
const text = z.union([z.string(), z.array(z.string())]);
const id = z.string().min(1).optional();
const nonNegative = z.number().finite().nonnegative();
const count = z.number().int().nonnegative().optional();
const isFunction = z.custom<(...args: never[]) => unknown>((v) => typeof v === 'function', {
  message: 'expected a function',
});
const isThenable = z.custom<PromiseLike<unknown>>(
  (v) =>
    typeof v === 'object' && v !== null && typeof (v as PromiseLike<unknown>).then === 'function',
  { message: 'expected a promise or a function returning one' },
);

const failure = {
  statusCode: z.number().int().min(100).max(599),
  message: z.string().optional(),
  isRetryable: z.boolean().optional(),
  responseHeaders: z.record(z.string(), z.string()).optional(),
};

const PartSchema = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('reasoning'),
    text,
    signature: z.union([z.string(), z.literal(false)]).optional(),
    id,
    providerMetadata: metadata,
  }),
  z.strictObject({ type: z.literal('redacted-reasoning'), data: z.string(), id }),
  z.strictObject({ type: z.literal('text'), text, id, providerMetadata: metadata }),
  z.strictObject({
    type: z.literal('tool-call'),
    toolName: z.string().min(1),
    input: z.unknown().refine((v) => v !== undefined, { message: 'expected a JSON value' }),
    toolCallId: id,
    streamInput: z.union([z.boolean(), z.number().int().positive()]).optional(),
    providerExecuted: z.boolean().optional(),
    providerMetadata: metadata,
  }),
  z.strictObject({
    type: z.literal('tool-result'),
    toolCallId: z.string().min(1),
    toolName: z.string().min(1),
    result: z.unknown().refine((v) => v !== undefined && v !== null, {
      message: 'expected a JSON value other than null',
    }),
    isError: z.boolean().optional(),
    providerMetadata: metadata,
  }),
  z.strictObject({ type: z.literal('error'), ...failure }),
  z.strictObject({ type: z.literal('throw'), ...failure }),
  z.strictObject({ type: z.literal('delay'), ms: nonNegative }),
  z.strictObject({ type: z.literal('wait'), until: z.union([isFunction, isThenable]) }),
  z.strictObject({
    type: z.literal('part'),
    part: z.looseObject({ type: z.string() }),
  }),
]);

const StepSchema = z.strictObject({
  parts: z.array(PartSchema).optional(),
  fail: z.strictObject(failure).optional(),
  finishReason: z
    .string()
    .refine((reason) => (AI_SDK_FINISH_REASONS as readonly string[]).includes(reason), {
      message: `expected one of ${AI_SDK_FINISH_REASONS.join(', ')}`,
    })
    .optional(),
  usage: z
    .strictObject({
      input: count,
      output: count,
      reasoning: count,
      cacheRead: count,
      cacheWrite: count,
    })
    .optional(),
  responseModelId: z.string().min(1).optional(),
  delayMs: nonNegative.optional(),
});

function invalidScript(
  path: ReadonlyArray<string | number>,
  reason: string,
  value: unknown,
): never {
  throw new ChunklogError(
    'invalid-option',
    `createScriptedModel: invalid ${formatPath(['script', ...path])}: ${reason} (got ${previewValue(value)})`,
    { option: 'script', path, value },
  );
}

/**
 * Checks one scripted step (a script entry, or what a function entry returned).
 *
 * @param step - the untrusted step
 * @param index - its call index, for the error's path
 * @returns the step, typed
 * @throws {ChunklogError} `invalid-option` (option `script`), with the path of the problem
 */
export function checkStep(step: unknown, index: number): ScriptedStep {
  const issue = firstIssue(StepSchema, step);
  if (issue !== undefined) invalidScript([index, ...issue.path], issue.message, issue.value);
  return step as ScriptedStep;
}

/**
 * Checks a script before the model is made: an array whose entries are steps (checked now) or
 * functions (their steps are checked when they are called).
 *
 * @param script - the untrusted script
 * @returns the script, typed
 * @throws {ChunklogError} `invalid-option` (option `script`), with the path of the problem
 */
export function checkScript(script: unknown): Script {
  if (!Array.isArray(script)) invalidScript([], 'a script must be an array of steps', script);
  script.forEach((entry: unknown, index) => {
    if (typeof entry !== 'function') checkStep(entry, index);
  });
  return script as Script;
}
