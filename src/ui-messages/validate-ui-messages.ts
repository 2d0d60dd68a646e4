import { safeValidateUIMessages, type UIMessage, type validateUIMessages } from 'ai';
import type { ChunklogError } from '../errors/index.js';
import { invalidUIMessage } from './invalid-ui-message.js';

/**
 * What `validateUIMessages` can check beyond the shape of the messages: the app's tool, data part
 * and metadata schemas. Passed through unchanged.
 *
 * @example
 * ```ts
 * const schemas: UIMessageSchemas = { tools, dataSchemas: { weather: weatherSchema } };
 * ```
 */
export type UIMessageSchemas = Omit<Parameters<typeof validateUIMessages>[0], 'messages'>;

function locate(error: unknown): { index: number; part?: number; field: string[] } | undefined {
  const field = (error as { context?: { field?: unknown } }).context?.field;
  if (typeof field === 'string') {
    const match = /^messages\[(\d+)\](?:\.parts\[(\d+)\])?\.?(.*)$/.exec(field);
    if (match !== null) {
      const rest = match[3] === '' || match[3] === undefined ? [] : (match[3] as string).split('.');
      return match[2] === undefined
        ? { index: Number(match[1]), field: rest }
        : { index: Number(match[1]), part: Number(match[2]), field: rest };
    }
  }
  const issues = (error as { cause?: { issues?: Array<{ path?: unknown[] }> } }).cause?.issues;
  const path = issues?.[0]?.path;
  if (Array.isArray(path) && typeof path[0] === 'number') {
    const [index, key, part, ...rest] = path as Array<string | number>;
    if (key === 'parts' && typeof part === 'number') {
      return { index: index as number, part, field: rest.map(String) };
    }
    return {
      index: index as number,
      field: [key, part, ...rest].filter((k) => k !== undefined).map(String),
    };
  }
  return undefined;
}

/** The longest reason taken from the AI SDK's error into chunklog's message. */
const MAX_REASON = 300;

/**
 * Why `validateUIMessages` refused, in a few words: the first schema issue's message when there
 * is one, else its message without the `Value: …` it repeats (the AI SDK puts the whole value,
 * often the whole chat, into its message), cut to {@link MAX_REASON} characters.
 */
function reasonOf(error: unknown): string {
  const issue = (error as { cause?: { issues?: Array<{ message?: unknown }> } }).cause?.issues?.[0];
  const text =
    typeof issue?.message === 'string'
      ? issue.message
      : (error instanceof Error ? error.message : String(error)).replace(
          /Value: [\s\S]*?\.\nError message: /,
          '',
        );
  return text.length <= MAX_REASON ? text : `${text.slice(0, MAX_REASON - 1)}…`;
}

function toChunklogError(error: unknown, messages: readonly unknown[]): ChunklogError {
  const reason = reasonOf(error);
  const where = locate(error);
  if (where === undefined) {
    return invalidUIMessage(`rejected by validateUIMessages (${reason})`, undefined, {
      cause: error,
    });
  }
  const message = messages[where.index] as { parts?: Array<{ type?: unknown }> } | undefined;
  const partType = where.part === undefined ? undefined : message?.parts?.[where.part]?.type;
  return invalidUIMessage(
    `rejected by validateUIMessages (${reason})`,
    {
      index: where.index,
      part: where.part,
      partType: typeof partType === 'string' ? partType : undefined,
      field: where.field,
    },
    { cause: error },
  );
}

/**
 * Checks stored UI messages with the AI SDK's `validateUIMessages`. (Imported statically: a
 * bundler tree-shakes it out of a bundle that does not use this function, where a lazy
 * `import('ai')` made esbuild wrap zod, which `ai` shares with chunklog, in initializers it then
 * never called: the browser bundle of `chunklog` failed at load.)
 *
 * @param messages - untrusted UI messages, for example parsed from a database
 * @param schemas - the app's tool, data part and metadata schemas, if any
 * @returns the validated messages
 * @throws {ChunklogError} `invalid-ui-message`, naming the message index and part
 */
export async function validateStoredUIMessages(
  messages: unknown,
  schemas: UIMessageSchemas = {},
): Promise<UIMessage[]> {
  if (!Array.isArray(messages)) {
    throw invalidUIMessage('expected an array of UI messages', undefined, { value: messages });
  }
  if (messages.length === 0) return [];
  const result = await safeValidateUIMessages({ ...schemas, messages });
  if (!result.success) throw toChunklogError(result.error, messages);
  return result.data;
}
